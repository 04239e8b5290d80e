// SPDX-License-Identifier: Apache-2.0
#include "cli/real_world.hpp"

#include <time.h>

#include <chrono>

#include <fmt/format.h>

#include "base/this_executable.hpp"
#include "capture/injection_library.hpp"
#include "cli/compiler_loading.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/isolated_compiler.hpp"
#include "cuda/library_search.hpp"
#include "git/repository.hpp"
#include "git/submodule_fetch.hpp"
#include "harness/harness_measure.hpp"
#include "harness/shell_runner.hpp"
#include "http/curl_transport.hpp"
#include "llm/forecast_cache.hpp"
#include "measure/bench_child.hpp"

namespace kforecast::cli {
namespace {

cuda::LoaderOptions driver_only(const config::Config& config) { return {"", config.string_value("cuda.driver_library")}; }

}  // namespace

builds::Compilers real_compilers(const config::Config& config, const EnvLookup& env) {
  return {.nvrtc = [&config, env] { return load_compiler(config, env); },
          .nvcc = [&config, env] { return load_unit_compiler(config, env); },
          .cuda_include_dir = cuda::toolkit_include_dir(env)};
}

measure::GpuAccess real_gpu(const config::Config& config) {
  return {.local = [&config]() -> std::optional<std::pair<std::string, std::string>> {
            auto driver = cuda::load_driver(driver_only(config));
            if (!driver) return std::nullopt;
            auto devices = (*driver)->devices();
            if (!devices || devices->empty()) return std::nullopt;
            return std::pair{devices->front().arch(), devices->front().name};
          },
          .unavailable = [&config]() -> std::optional<std::string> {
            auto driver = cuda::load_driver(driver_only(config));
            if (!driver) return fmt::format("no GPU here ({})", driver.error().message());
            auto devices = (*driver)->devices();
            if (!devices) return fmt::format("no GPU here ({})", devices.error().message);
            if (devices->empty()) return std::string("no GPU here (the CUDA driver reports no device)");
            return std::nullopt;
          },
          .measure_pairs = [](const measure::BatchRequest& request,
                              const std::function<void(std::string_view)>& progress) {
            return measure::measure_batch_confirmed(request, progress);
          }};
}

forecasters::LlmWorld real_llm_world(const config::Config& config, const EnvLookup& env) {
  return {.transport =
              [env](const config::Config& settings) {
                return http::make_curl_transport(
                    {http::proxy_settings_from(env), settings.string_value("endpoint.ca_bundle"),
                     std::chrono::seconds(static_cast<std::int64_t>(settings.number_value("endpoint.stall_seconds")))});
              },
          .local_gpu = [&config]() -> std::expected<cuda::DeviceInfo, std::string> {
            auto driver = cuda::load_driver(driver_only(config));
            if (!driver) return std::unexpected(driver.error().what);
            auto devices = (*driver)->devices();
            if (!devices) return std::unexpected("no GPU is visible (" + devices.error().message + ")");
            if (devices->empty()) return std::unexpected(std::string("no GPU is visible"));
            return devices->front();
          },
          .cache_directory = llm::default_forecast_cache_directory(env)};
}

measure::BenchWorld real_bench_world(const config::Config& config, const EnvLookup& env) {
  return {.repository = [](const std::filesystem::path& folder) { return git::open_repository(folder); },
          .driver = [&config] { return cuda::CudaDriver::load(cuda::driver_candidates(driver_only(config))); },
          .nvrtc = [&config, env](std::optional<std::filesystem::path> work_tree) {
            return load_compiler(config, env, std::move(work_tree));
          },
          .nvcc = [&config, env] { return load_unit_compiler(config, env); },
          .cuda_include_dir = cuda::toolkit_include_dir(env),
          .support_cache = kforecast_cache_directory(env, "support").value_or(std::filesystem::path())};
}

measure::ProjectPrograms real_project_programs(const EnvLookup& env) {
  const std::string program = this_executable();
  return {.shell = harness::confined_shell_runner(program),
          .harness =
              [program](const harness::HarnessRequest& request, const harness::HarnessProgress& progress) {
                return harness::measure_with_harness(request, harness::confined_shell_runner(program), progress);
              },
          .capture_library =
              [program, env] {
                return capture::find_injection_library(program, env, [](const std::filesystem::path& path) {
                  std::error_code ignored;
                  return std::filesystem::is_regular_file(path, ignored);
                });
              },
          .trees = harness::default_harness_cache(env),
          .env = env};
}

OpenedCaches open_caches(const EnvLookup& env) {
  OpenedCaches caches;
  if (auto directory = builds::default_unit_cache_directory(env)) caches.units.emplace(*directory);
  if (auto directory = policy::default_ptx_cache_directory(env)) caches.ptx.emplace(*directory);
  caches.facts = default_facts_cache(env);
  return caches;
}

std::optional<embedded::FactsCache> default_facts_cache(const EnvLookup& env) {
  if (auto directory = policy::default_ptx_cache_directory(env))
    return embedded::FactsCache(directory->parent_path() / "facts");
  return std::nullopt;
}

std::optional<change::SubmoduleFetcher> real_submodule_fetcher(const config::Config& config,
                                                                              const EnvLookup& env,
                                                                              std::vector<std::string>& notes) {
  if (config.string_value("compile.submodules") != "fetch") return std::nullopt;
  auto cache = kforecast_cache_directory(env, "submodules");
  if (!cache) {
    notes.push_back("compile.submodules = \"fetch\" but no submodule is fetched: kforecast has no cache folder to "
                    "fetch into (set XDG_CACHE_HOME or HOME)");
    return std::nullopt;
  }
  return [folder = *cache](const std::string& url,
                           const std::string& commit) -> Result<std::unique_ptr<git::Repository>> {
    auto fetched = git::fetch_pinned_commit(folder, url, commit);
    if (!fetched) return std::unexpected(fetched.error());
    return git::open_repository(*fetched);
  };
}

std::optional<std::filesystem::path> lint_facts_folder(const EnvLookup& env) {
  if (auto directory = policy::default_ptx_cache_directory(env)) return directory->parent_path() / "lint";
  return std::nullopt;
}

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
}

}  // namespace kforecast::cli
