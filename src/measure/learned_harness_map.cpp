// SPDX-License-Identifier: Apache-2.0
#include "measure/learned_harness_map.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "capture/capture_file.hpp"
#include "capture/capture_lookup.hpp"
#include "capture/capture_request.hpp"
#include "capture/capture_summary.hpp"
#include "harness/built_tree.hpp"

namespace kforecast::measure {
namespace {

namespace fs = std::filesystem;

// More benchmarks than this are not learned one process each: the list is cut, and said so.
constexpr std::size_t max_learned_benchmarks = 512;

std::string trimmed(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  return std::string(line);
}

std::string last_line(const ProcessOutput& output) {
  const std::string line = trimmed(harness::last_lines(output.err.empty() ? output.out : output.err, 1));
  return line.empty() ? "(no output)" : line;
}

}  // namespace

std::string learned_map_text(const LearnedMap& map) {
  std::string text = "# kforecast learned harness map: benchmark<TAB>kernel\n";
  for (const auto& [benchmark, kernel] : map.launches) text += benchmark + "\t" + kernel + "\n";
  return text;
}

Result<LearnedMap> parse_learned_map(std::string_view text, std::string_view file) {
  LearnedMap map;
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++number;
    if (line.empty() || line.front() == '#') continue;
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0 || tab + 1 == line.size())
      return usage_error(
          fmt::format("{}:{}: expected BENCHMARK<TAB>KERNEL; remove the file to learn the map again", file, number));
    if (!harness::fits_in_command(line.substr(0, tab)))
      return usage_error(
          fmt::format("{}:{}: a benchmark name holds a character a shell would act on; remove the "
                      "file to learn the map again",
                      file, number));
    map.launches.emplace_back(std::string(line.substr(0, tab)), std::string(line.substr(tab + 1)));
  }
  return map;
}

std::vector<std::string> benchmarks_launching(const LearnedMap& map, std::string_view kernel) {
  std::vector<std::string> benchmarks;
  for (const auto& [benchmark, launched] : map.launches)
    if (capture::matches({"", launched, ""}, {"", std::string(kernel)}) &&
        std::ranges::find(benchmarks, benchmark) == benchmarks.end())
      benchmarks.push_back(benchmark);
  return benchmarks;
}

Result<LearnedMap> learn_harness_map(const LearnRequest& request, const harness::ShellRunner& shell) {
  const harness::Harness& harness = request.harness;
  auto tree = harness::built_tree({request.repository, request.base_commit, "base", request.trees}, harness, shell);
  if (!tree) return std::unexpected(tree.error());
  ContentHasher commands;
  for (const std::string* command : {&harness.build, &harness.run, &harness.list}) commands.add(*command);
  const fs::path file =
      request.learned / fmt::format("{}-{}.tsv", tree->tree_hash.substr(0, 20), commands.hex().substr(0, 12));
  std::error_code ec;
  if (fs::is_regular_file(file, ec)) {
    std::ifstream in(file, std::ios::binary);
    auto map = parse_learned_map(std::string(std::istreambuf_iterator<char>(in), {}), file.string());
    if (!map) return std::unexpected(map.error());
    map->reused = true;
    map->file = file;
    return map;
  }
  const fs::path scratch = fs::path(file.string() + ".tmp");
  fs::remove_all(scratch, ec);
  fs::create_directories(scratch, ec);
  if (ec) return fail(ExitCode::could_not_run, fmt::format("cannot create {}: {}", scratch.string(), ec.message()));
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(harness.timeout_seconds * 1000));
  const std::string who = fmt::format("harness '{}' ({})", harness.name, harness.origin);

  auto listed = shell({harness.list, tree->path, scratch, timeout, {}, {}});
  if (!listed) return fail(ExitCode::could_not_run, fmt::format("{}: list `{}`: {}", who, harness.list, listed.error().message));
  if (listed->exit_status != 0)
    return fail(ExitCode::could_not_run, fmt::format("{}: list `{}` failed (exit {}): {}", who, harness.list,
                                                     listed->exit_status, last_line(*listed)));
  std::vector<std::string> names;
  std::set<std::string, std::less<>> seen;
  for (std::size_t at = 0; at < listed->out.size() && names.size() < max_learned_benchmarks;) {
    const std::size_t end = std::min(listed->out.find('\n', at), listed->out.size());
    std::string name = trimmed(std::string_view(listed->out).substr(at, end - at));
    at = end + 1;
    // Each name is put into the run command, which a shell reads.
    if (!name.empty() && harness::fits_in_command(name) && seen.insert(name).second) names.push_back(std::move(name));
  }
  if (names.empty())
    return fail(ExitCode::could_not_run, fmt::format("{}: list `{}` printed no benchmark name", who, harness.list));

  LearnedMap map;
  map.file = file;
  for (std::size_t i = 0; i < names.size(); ++i) {
    capture::CaptureRequest recording;
    recording.dir = scratch / fmt::format("launches-{}", i);
    recording.byte_budget = 0;  // which kernels, not their data
    fs::create_directories(recording.dir, ec);
    const std::string command =
        harness::expand_command(harness.run, harness::filter_selecting(harness.format, {names[i]}),
                                (scratch / "out").string());
    harness::ShellCommand run{command, tree->path, scratch, timeout, {}, {request.injection_library}};
    run.environment = capture::capture_environment(recording, request.injection_library, request.env);
    auto ran = shell(run);
    if (!ran) return fail(ExitCode::could_not_run, fmt::format("{}: learning `{}`: {}", who, command, ran.error().message));
    if (ran->exit_status != 0)
      return fail(ExitCode::could_not_run, fmt::format("{}: learning which kernels `{}` launches: failed (exit {}): {}",
                                                       who, command, ran->exit_status, last_line(*ran)));
    for (const auto& kernel : capture::summarize_captures(recording.dir).kernels)
      map.launches.emplace_back(names[i], kernel.kernel);
  }
  std::ofstream(file, std::ios::binary) << learned_map_text(map);
  fs::remove_all(scratch, ec);
  return map;
}

}  // namespace kforecast::measure
