// SPDX-License-Identifier: Apache-2.0
#include "plan/shard_results.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_string.hpp"
#include "plan/json_read.hpp"

namespace kforecast::plan {
namespace {

using namespace json_read;

ShardResults read_results(const Json& root, std::string_view name) {
  ShardResults results;
  results.kforecast_version = string_at(root, "kforecast", "");
  results.plan_hash = string_at(root, "plan", "");
  results.shard = unsigned_at(root, "shard", "");
  results.shards = unsigned_at(root, "shards", "");
  if (results.shards == 0 || results.shard == 0 || results.shard > results.shards)
    malformed("shard", "1 <= shard <= shards");
  results.gpu = string_at(root, "gpu", "");
  results.driver = string_at(root, "driver", "");
  results.note = string_at(root, "note", "");
  results.started = string_at(root, "started", "");
  results.finished = string_at(root, "finished", "");
  std::size_t i = 0;
  for (const Json& element : array_at(root, "kernels", "")) {
    const std::string path = fmt::format("kernels[{}]", i++);
    const auto& o = as_object(element, path);
    KernelResult result;
    result.entry = unsigned_at(o, "id", path);
    if (!is_null(o, "measurement")) {
      // The child's own reader reads it, so a shard's measurement means what pr's would.
      auto measurement = bench::parse_measurement_json(json_document::compact(field(o, "measurement", path)));
      if (!measurement)
        malformed(path + ".measurement", fmt::format("a measurement ({})", measurement.error().message));
      // What the measurement object rounds or leaves out, exactly (plan/shard_results.hpp).
      measurement->gpu_seconds = number_at(o, "gpu_seconds", path);
      const auto checks = unsigned_at(o, "regression_checks", path);
      // 3: a confirmation that straddled the tolerance was measured once more (measure/bench_child.hpp).
      if (checks < 1 || checks > 3) malformed(path + ".regression_checks", "1, 2 or 3");
      measurement->regression_checks = static_cast<int>(checks);
      result.measurement = std::move(*measurement);
    } else {
      result.unmeasured_reason = string_at(o, "unmeasured", path);
      if (result.unmeasured_reason.empty()) malformed(path + ".unmeasured", "a reason where there is no measurement");
    }
    results.kernels.push_back(std::move(result));
  }
  (void)name;
  return results;
}

}  // namespace

std::string results_json(const ShardResults& r) {
  std::string kernels;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    kernels += fmt::format("{}{{\"id\": {}, \"measurement\": {}, \"unmeasured\": {}", i ? ",\n  " : "\n  ", k.entry,
                           k.measurement ? bench::measurement_json(*k.measurement) : "null",
                           k.measurement ? "null" : json_string(k.unmeasured_reason));
    if (k.measurement)
      kernels += fmt::format(", \"gpu_seconds\": {}, \"regression_checks\": {}", k.measurement->gpu_seconds,
                             k.measurement->regression_checks);
    kernels += "}";
  }
  return fmt::format(
      "{{\"kforecast_results\": {}, \"kforecast\": {}, \"plan\": {}, \"shard\": {}, \"shards\": {}, \"gpu\": {}, "
      "\"driver\": {}, \"note\": {}, \"started\": {}, \"finished\": {},\n \"kernels\": [{}]}}\n",
      results_schema_version, json_string(r.kforecast_version), json_string(r.plan_hash), r.shard, r.shards,
      json_string(r.gpu), json_string(r.driver), json_string(r.note), json_string(r.started), json_string(r.finished),
      kernels);
}

Result<ShardResults> parse_results_json(std::string_view text, std::string_view name) {
  auto root = tagged_document(text, name,
                              {"kforecast results", "kforecast_results", "results", results_schema_version,
                               "write them with `kforecast bench --plan PLAN --shard I/N --output {name}`",
                               "use the same kforecast version for plan, bench and report"});
  if (!root) return std::unexpected(root.error());
  try {
    const auto& object = as_object(*root, "the results");
    return read_results(object, name);
  } catch (const JsonFieldError& error) {
    return usage_error(fmt::format("{}: malformed results: {}", name, error.message));
  }
}

}  // namespace kforecast::plan
