// SPDX-License-Identifier: Apache-2.0
#pragma once

// Plans as a job a pull request controls could write them, for the tests of the jobs that read
// them (`bench --plan`, `report --merge`): one kernel to measure and one settled, every string
// field settable, and a shard's results for them.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "plan/plan_file.hpp"
#include "plan/shard_results.hpp"

namespace kforecast::e2e {

// A plan of two kernels: `settle` (to measure) and `same` (settled as identical code).
inline plan::Plan two_kernel_plan() {
  plan::Plan plan;
  plan.kforecast_version = "0.1.0";
  plan.config_name = "1a2b3c4d5e6f:.kforecast.toml";
  plan.ledger = ".kforecast/ledger.jsonl";
  plan.shards = 1;
  plan.report = {"0.1.0",
                 "1111111111111111111111111111111111111111",
                 "2222222222222222222222222222222222222222",
                 report::GateVerdict::pass,
                 {},
                 {"revisions: --base HEAD~1"}};
  plan.report.warnings = {{"the llm forecaster failed for 1 of 2 kernels", "HTTP 401"}};
  report::ForecastEntry forecast;
  forecast.forecaster = "embedded";
  forecast.model = "ordinal-v1";
  forecast.bin = 4;
  forecast.bin_label = "minor slowdown";
  forecast.probabilities = {0.1, 0.1, 0.1, 0.3, 0.1, 0.1, 0.1, 0.1};
  forecast.confidence = 0.3;
  forecast.p_regression = 0.5;
  forecast.rationale = "more shared memory";
  forecast.fallback_for = "llm";
  forecast.fallback_reason = "endpoint down";
  report::KernelEntry settle{"settle",
                             "src/settle.cu",
                             9,
                             report::Change::modified,
                             report::Decision::forecast_only,
                             report::KernelVerdict::warn,
                             {"needs a GPU measurement"},
                             forecast};
  settle.build = "nvcc 13.0 for sm_90, src/settle.cu";
  report::KernelEntry same{"same",
                           "src/same.cu",
                           3,
                           report::Change::modified,
                           report::Decision::identical_code,
                           report::KernelVerdict::pass,
                           {"machine code identical for sm_90"}};
  same.build = "nvcc 13.0 for sm_90, src/same.cu";
  plan.report.kernels = {settle, same};
  plan.to_measure = {0};
  const SharedText base("__global__ void settle(float* x) { x[0] = 1; }\n");
  const SharedText head("__global__ void settle(float* x) { x[0] = 2; }\n");
  plan.jobs = {{0,
                true,
                {"src/settle.cu", "settle", {{"src/settle.cu", base}}},
                {"src/settle.cu", "settle", {{"src/settle.cu", head}}}}};
  return plan;
}

// The results of the plan's one shard: `settle` measured, failed with `reason`.
inline plan::ShardResults failed_results(const std::string& plan_text, std::string reason, std::string note) {
  plan::ShardResults results;
  results.kforecast_version = "0.1.0";
  results.plan_hash = plan::plan_hash(plan_text);
  results.gpu = "NVIDIA H100 80GB HBM3";
  results.driver = "12.4";
  results.started = "2026-01-01T00:00:00Z";
  results.finished = "2026-01-01T00:01:00Z";
  bench::Measurement measurement = bench::failed_measurement(std::move(reason), results.gpu);
  measurement.gpu_seconds = 0.5;
  measurement.notes = {std::move(note)};
  results.kernels = {{0, measurement, ""}};
  return results;
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace kforecast::e2e
