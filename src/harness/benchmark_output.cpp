// SPDX-License-Identifier: Apache-2.0
#include "harness/benchmark_output.hpp"

#include <array>
#include <utility>

namespace kforecast::harness {
namespace {

constexpr std::array<std::pair<std::string_view, OutputFormat>, 4> formats{{{"gbench", OutputFormat::gbench},
                                                                            {"nvbench", OutputFormat::nvbench},
                                                                            {"pytest-benchmark", OutputFormat::pytest_benchmark},
                                                                            {"simple", OutputFormat::simple}}};

}  // namespace

std::optional<OutputFormat> output_format(std::string_view name) {
  for (const auto& [text, format] : formats)
    if (text == name) return format;
  return std::nullopt;
}

std::string_view format_name(OutputFormat format) {
  for (const auto& [text, known] : formats)
    if (known == format) return text;
  return "unknown";
}

bool reports_cpu_time(OutputFormat format) {
  return format == OutputFormat::gbench || format == OutputFormat::nvbench;
}

Result<std::vector<BenchmarkTimes>> parse_benchmark_output(OutputFormat format, std::string_view text,
                                                           std::string_view file, TimeField time) {
  if (text.empty())
    return usage_error(std::string(file) + ": empty: the benchmark program wrote no " + std::string(format_name(format)) +
                       " output (did its run command write to another file, or fail?)");
  switch (format) {
    case OutputFormat::gbench:
      return parse_gbench_json(text, file, time);
    case OutputFormat::nvbench:
      return parse_nvbench_json(text, file, time);
    case OutputFormat::pytest_benchmark:
      return parse_pytest_benchmark_json(text, file);
    case OutputFormat::simple:
      return parse_simple_output(text, file);
  }
  return usage_error("unknown benchmark output format");
}

}  // namespace kforecast::harness
