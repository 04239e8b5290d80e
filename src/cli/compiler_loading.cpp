// SPDX-License-Identifier: Apache-2.0
#include "cli/compiler_loading.hpp"

#include "base/this_executable.hpp"
#include "cuda/isolated_compiler.hpp"
#include "cuda/library_search.hpp"
#include "cuda/nvrtc.hpp"
#include "cuda/toolkit_locator.hpp"

namespace kforecast::cli {

cuda::LoadedCompiler load_compiler(const config::Config& config, const EnvLookup& env,
                                   std::optional<std::filesystem::path> work_tree) {
  auto nvrtc = cuda::load_nvrtc({config.string_value("cuda.nvrtc_library"), ""}, env);
  if (!nvrtc) return nvrtc;
  cuda::IsolationSettings settings;
  settings.program = this_executable();
  if (const auto include = cuda::toolkit_include_dir(env); !include.empty())
    settings.roots.toolkit.emplace_back(include);
  settings.roots.work_tree = std::move(work_tree);
  settings.timeout = std::chrono::seconds(static_cast<long>(config.number_value("cuda.compile_timeout_seconds")));
  settings.max_memory_bytes = static_cast<std::uint64_t>(config.integer_value("cuda.compile_memory_mib")) << 20;
  settings.max_cpu_seconds = static_cast<std::uint64_t>(config.number_value("cuda.compile_timeout_seconds")) + 60;
  return std::unique_ptr<cuda::Compiler>(
      std::make_unique<cuda::IsolatedCompiler>(std::move(*nvrtc), std::move(settings)));
}

std::expected<std::unique_ptr<cuda::UnitCompiler>, std::string> load_unit_compiler(const config::Config& config,
                                                                                   const EnvLookup& env) {
  if (config.string_value("cuda.nvcc") == "off") return std::unexpected(std::string("cuda.nvcc is \"off\""));
  auto toolkit = cuda::locate_toolkit(config.string_value("cuda.nvcc"), env);
  if (!toolkit) return std::unexpected("no nvcc: " + toolkit.error().message());
  cuda::NvccSettings settings;
  std::error_code ec;
  settings.nvcc = std::filesystem::absolute(toolkit->nvcc, ec).string();
  settings.version = toolkit->version;
  settings.program = this_executable();
  settings.timeout = std::chrono::seconds(static_cast<long>(config.number_value("cuda.compile_timeout_seconds")));
  settings.max_memory_bytes = static_cast<std::uint64_t>(config.integer_value("cuda.compile_memory_mib")) << 20;
  settings.max_cpu_seconds = static_cast<std::uint64_t>(config.number_value("cuda.compile_timeout_seconds")) + 60;
  return std::make_unique<cuda::NvccUnitCompiler>(std::move(settings));
}

}  // namespace kforecast::cli
