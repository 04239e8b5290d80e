// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `kforecast bench --plan PLAN --shard I/N` writes and `kforecast report --merge` reads
// (docs/ci/plan.md): per kernel of the shard, its measurement (the child's measurement object,
// audit fields included) or why it was not measured; the GPU and driver; when it ran. Tied to its
// plan by the plan's hash. The measurement object rounds GPU seconds to 4 digits and its reader
// leaves out how many processes measured it, so each kernel also carries both exactly: the merge
// must decide (budget, notes) on what pr would have.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "bench/measurement.hpp"

namespace kforecast::plan {

inline constexpr int results_schema_version = 1;

struct KernelResult {
  std::size_t entry = 0;                          // report.kernels index in the plan
  std::optional<bench::Measurement> measurement;  // set when measured
  std::string unmeasured_reason;                  // otherwise why (policy.on_unverified applies)
};

struct ShardResults {
  std::string kforecast_version;
  std::string plan_hash;
  std::size_t shard = 1;  // 1-based
  std::size_t shards = 1;
  std::string gpu;     // "" without a GPU
  std::string driver;  // ""
  std::string note;    // why nothing was measured, where nothing was ("no GPU", "--no-bench"); else ""
  std::string started;
  std::string finished;
  std::vector<KernelResult> kernels;
};

std::string results_json(const ShardResults& results);

// Reads results_json's output; `name` (the file) is named in every error.
Result<ShardResults> parse_results_json(std::string_view text, std::string_view name);

}  // namespace kforecast::plan
