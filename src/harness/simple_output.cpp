// SPDX-License-Identifier: Apache-2.0
// The simple format, for a harness that is a script: one line per timed run, "NAME<TAB>SECONDS".

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "harness/benchmark_output.hpp"

namespace kforecast::harness {

Result<std::vector<BenchmarkTimes>> parse_simple_output(std::string_view text, std::string_view file) {
  std::vector<BenchmarkTimes> times;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t tab = line.find('\t');
    const auto problem = [&](std::string_view what) {
      return usage_error(fmt::format("{}:{}: {}; each line is NAME<TAB>SECONDS (docs/harness.md)", file, line_number,
                                     what));
    };
    if (tab == std::string_view::npos) return problem("no tab between the benchmark's name and its time");
    const std::string_view name = line.substr(0, tab);
    const std::string seconds_text(line.substr(tab + 1));
    if (name.empty()) return problem("the benchmark's name is empty");
    char* parsed_end = nullptr;
    errno = 0;
    const double seconds = std::strtod(seconds_text.c_str(), &parsed_end);
    if (seconds_text.empty() || parsed_end != seconds_text.c_str() + seconds_text.size() || errno != 0)
      return problem(fmt::format("the time of '{}' is \"{}\", not a number of seconds", name, seconds_text));
    if (!std::isfinite(seconds) || seconds <= 0)
      return problem(fmt::format("the time of '{}' is {}, expected seconds above zero", name, seconds_text));
    auto found = std::ranges::find(times, name, &BenchmarkTimes::name);
    if (found == times.end()) found = times.insert(times.end(), BenchmarkTimes{std::string(name), {}});
    found->seconds.push_back(seconds);
  }
  return times;
}

}  // namespace kforecast::harness
