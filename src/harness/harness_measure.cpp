// SPDX-License-Identifier: Apache-2.0
#include "harness/harness_measure.hpp"

#include <chrono>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "base/scratch_folder.hpp"
#include "harness/built_tree.hpp"

namespace kforecast::harness {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t max_output_file_bytes = 256U << 20U;

std::string_view extension(OutputFormat format) { return format == OutputFormat::simple ? "txt" : "json"; }

Result<std::string> read_output_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return usage_error(fmt::format("{}: the run command wrote no output file where {{out}} pointed",
                                   path.filename().string()));
  if (fs::file_size(path, ec) > max_output_file_bytes)
    return usage_error(fmt::format("{}: larger than {} bytes", path.filename().string(), max_output_file_bytes));
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

Result<bench::Measurement> measure_with_harness(const HarnessRequest& request, const ShellRunner& shell,
                                                const HarnessProgress& progress) {
  const Harness& harness = request.harness;
  const auto tell = [&](const std::string& line) {
    if (progress) progress(line);
  };
  tell(fmt::format("harness '{}': building base", harness.name));
  auto base = built_tree({request.repository, request.base_commit, "base", request.cache}, harness, shell);
  if (!base) return std::unexpected(base.error());
  tell(fmt::format("harness '{}': building head", harness.name));
  auto head = built_tree({request.repository, request.head_commit, "head", request.cache}, harness, shell);
  if (!head) return std::unexpected(head.error());

  const ScratchFolder scratch("kforecast-harness");
  if (scratch.path().empty()) return fail(ExitCode::could_not_run, "cannot create a scratch folder for the harness");
  const bool to_file = harness.run.find("{out}") != std::string::npos;
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(harness.timeout_seconds * 1000));

  const RunProgram run = [&](Side side, int index) -> Result<ProgramRun> {
    const fs::path tree = side == Side::base ? base->path : head->path;
    const std::string file_name = fmt::format("{}-{}.{}", side_name(side), index + 1, extension(harness.format));
    const fs::path out = fs::path(scratch.path()) / file_name;
    const std::string where =
        fmt::format("harness '{}', {} build, run {} (`{}`)", harness.name, side_name(side), index + 1,
                    expand_command(harness.run, request.map.benchmarks, file_name));
    tell(fmt::format("harness '{}': run {} of at most {} ({})", harness.name, index + 1, harness.rounds * 4,
                     side_name(side)));
    const auto started = std::chrono::steady_clock::now();
    auto ran = shell({expand_command(harness.run, request.map.benchmarks, out.string()), tree, scratch.path(), timeout});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!ran) return fail(ExitCode::could_not_run, fmt::format("{}: {}", where, ran.error().message));
    if (ran->exit_status != 0)
      return fail(ExitCode::could_not_run, fmt::format("{} failed (exit {}); its output ends:\n{}", where,
                                                       ran->exit_status, last_lines(ran->out + ran->err, 20)));
    auto text = to_file ? read_output_file(out) : Result<std::string>(ran->out);
    if (!text) return fail(ExitCode::could_not_run, fmt::format("{}: {}", where, text.error().message));
    auto benchmarks =
        parse_benchmark_output(harness.format, *text, to_file ? file_name : "standard output", harness.time);
    if (!benchmarks) return fail(ExitCode::could_not_run, fmt::format("{}: {}", where, benchmarks.error().message));
    std::error_code ec;
    fs::remove(out, ec);
    return ProgramRun{std::move(*benchmarks), seconds};
  };
  const std::string source =
      fmt::format("harness '{}' ({}{}): {}", harness.name, format_name(harness.format),
                  harness.time == TimeField::cpu ? ", CPU time" : "", request.map.benchmarks);
  auto measurement = measure_in_rounds(run, {request.tolerance, request.confidence, harness.rounds}, source);
  if (!measurement) return std::unexpected(measurement.error());
  measurement->notes.push_back(fmt::format("built base {} and head {} with `{}` in {} ({})",
                                           base->reused ? "(reused)" : "(built)", head->reused ? "(reused)" : "(built)",
                                           harness.build, request.cache.string(), harness.origin));
  return measurement;
}

std::optional<fs::path> default_harness_cache(const EnvLookup& env) {
  if (auto xdg = env("XDG_CACHE_HOME"); xdg && !xdg->empty()) return fs::path(*xdg) / "kforecast/harness";
  if (auto home = env("HOME"); home && !home->empty()) return fs::path(*home) / ".cache/kforecast/harness";
  return std::nullopt;
}

}  // namespace kforecast::harness
