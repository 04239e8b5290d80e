// SPDX-License-Identifier: Apache-2.0
// nvbench's JSON (--json FILE): benchmarks[i].states[j].summaries[k] is {tag, data}, data a list
// of {name, type, value} with the value written as a string. A state's time is its cold GPU mean
// ("nv/cold/time/gpu/mean"), else its batch GPU mean; a state nvbench skipped (is_skipped, with
// skip_reason) is an error: the benchmark the harness maps to a changed kernel did not run.

#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/benchmark_output.hpp"
#include "harness/json_fields.hpp"

namespace kforecast::harness {
namespace {

using namespace json_fields;

// A summary's "value" datum: nvbench writes numbers as strings ("1.25e-05"); a number is taken too.
double summary_value(const Json& summary, const std::string& at) {
  const auto& data = as_array(field(summary, "data", at + ".data"), at + ".data");
  std::size_t index = 0;
  for (const Json& item : data) {
    const std::string datum = fmt::format("{}.data[{}]", at, index++);
    const auto& object = as_object(item, datum);
    if (as_string(field(object, "name", datum + ".name"), datum + ".name") != "value") continue;
    const auto& value = field(object, "value", datum + ".value");
    if (value.is_number()) return as_time(as_number(value, datum + ".value"), datum + ".value");
    const std::string text = as_string(value, datum + ".value");
    char* end = nullptr;
    errno = 0;
    const double parsed = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0)
      malformed(datum + ".value", fmt::format("is \"{}\", expected a number in seconds", text));
    return as_time(parsed, datum + ".value");
  }
  malformed(at + ".data", "has no datum named \"value\"");
}

std::optional<double> state_time(const Json& state, const std::string& at, TimeField time) {
  const auto& summaries = as_array(field(state, "summaries", at + ".summaries"), at + ".summaries");
  std::optional<double> cold, batch, cpu;
  std::size_t index = 0;
  for (const Json& item : summaries) {
    const std::string summary_at = fmt::format("{}.summaries[{}]", at, index++);
    const auto& summary = as_object(item, summary_at);
    const std::string tag = as_string(field(summary, "tag", summary_at + ".tag"), summary_at + ".tag");
    if (tag == "nv/cold/time/gpu/mean") cold = summary_value(summary, summary_at);
    if (tag == "nv/batch/time/gpu/mean") batch = summary_value(summary, summary_at);
    if (tag == "nv/cold/time/cpu/mean") cpu = summary_value(summary, summary_at);
  }
  if (time == TimeField::cpu) return cpu;
  return cold ? cold : batch;
}

}  // namespace

Result<std::vector<BenchmarkTimes>> parse_nvbench_json(std::string_view text, std::string_view file, TimeField time) {
  return read_json(text, file, [&](const Json& root) -> Result<std::vector<BenchmarkTimes>> {
    const auto& benchmarks = as_array(field(as_object(root, "the top level"), "benchmarks", "benchmarks"), "benchmarks");
    std::vector<BenchmarkTimes> times;
    std::size_t b = 0;
    for (const Json& item : benchmarks) {
      const std::string at = fmt::format("benchmarks[{}]", b++);
      const auto& benchmark = as_object(item, at);
      const std::string name = as_string(field(benchmark, "name", at + ".name"), at + ".name");
      const auto& states = as_array(field(benchmark, "states", at + ".states"), at + ".states");
      std::size_t s = 0;
      for (const Json& state_item : states) {
        const std::string state_at = fmt::format("{}.states[{}]", at, s++);
        const auto& state = as_object(state_item, state_at);
        const std::string state_name = as_string(field(state, "name", state_at + ".name"), state_at + ".name");
        if (auto skipped = optional_field(state, "is_skipped")) {
          if (as_bool(*skipped, state_at + ".is_skipped")) {
            auto reason = optional_field(state, "skip_reason");
            malformed(state_at, fmt::format("('{}/{}') was skipped: {}", name, state_name,
                                            reason ? as_string(*reason, state_at + ".skip_reason") : "no reason given"));
          }
        }
        const auto seconds = state_time(state, state_at, time);
        if (!seconds)
          malformed(state_at + ".summaries", time == TimeField::cpu
                                                 ? "has no CPU time (nv/cold/time/cpu/mean)"
                                                 : "has no GPU time (neither nv/cold/time/gpu/mean nor "
                                                   "nv/batch/time/gpu/mean)");
        times.push_back({fmt::format("{}/{}", name, state_name), {*seconds}});
      }
    }
    return times;
  });
}

}  // namespace kforecast::harness
