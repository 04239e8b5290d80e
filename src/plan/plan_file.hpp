// SPDX-License-Identifier: Apache-2.0
#pragma once

// The plan `kforecast pr --plan FILE` writes on a CPU runner and `kforecast bench --plan` and
// `kforecast report --merge` read on other runners (docs/ci/plan.md gives the schema): the
// report as the policy left it, the config the gate was decided under, and each kernel that
// needs a GPU with both texts to measure, riskiest first. Everything a later job needs, so it
// runs neither git nor a forecaster again.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "gate/pr_bench.hpp"
#include "report/report.hpp"

namespace kforecast::plan {

// 2: each distinct file text once, in `texts`, named by index from the jobs.
inline constexpr int plan_schema_version = 2;

struct Plan {
  std::string kforecast_version;
  std::string config_name;              // where the config came from, for its error messages
  std::string config_text;              // the config pr decided under (the base revision's)
  std::string ledger;                   // policy.ledger as pr resolved it
  bool no_bench = false;                // --no-bench was given to pr --plan
  std::size_t shards = 0;               // the suggested job matrix size; 0 when nothing needs a GPU
  report::Report report;                // as the policy left it; gpu_time unset
  std::vector<std::size_t> to_measure;  // report.kernels indices, in apply_policy's (report) order
  std::vector<gate::MeasureJob> jobs;         // riskiest first (measurement_order); shard k/n takes every n-th
};

// How much a plan may hold. A plan is read by trusted jobs (`bench --plan`, `report --merge`)
// but written where a pull request may have had a hand in it, so past these it is refused, naming
// the field and the limit, before it costs memory or floods a report. plan_json never writes a
// plan past the text limits (a longer note is cut); the size limit is the reading job's
// (security.max_plan_mib).
struct PlanLimits {
  std::size_t max_bytes = std::size_t{32} << 20;           // the file
  std::size_t max_kernels = 5000;                          // report.kernels, and so measure
  std::size_t max_texts = 20000;                           // texts
  std::size_t max_text_bytes = std::size_t{16} << 20;      // one of texts (a source file)
  std::size_t max_files = 5000;                            // files of one side of a kernel to measure
  std::size_t max_entries = 1000;                          // notes of a kernel or the report, warnings, build arguments
  std::size_t max_name_bytes = std::size_t{16} << 10;      // names, paths, revisions, labels, versions, an argument
  std::size_t max_note_bytes = std::size_t{256} << 10;     // a note, a rationale, a warning, a reason, a build line
  std::size_t max_config_bytes = std::size_t{1} << 20;     // the config's text, as a config file
};

// The plan's text. Numbers are written to round-trip exactly, so a merged report is the report
// pr would have written; a note longer than PlanLimits allows is cut, saying so.
std::string plan_json(const Plan& plan);

// Reads plan_json's output; `name` (the file) is named in every error. A plan past `limits`, or
// whose kernels carry compile arguments the project's allow-list refuses
// (plan/plan_arguments.hpp), is refused.
Result<Plan> parse_plan_json(std::string_view text, std::string_view name, const PlanLimits& limits = {});

// A plan file read and checked: the plan and its hash. A file larger than `limits` allows is
// refused before it is read.
struct PlanFile {
  Plan plan;
  std::string hash;  // plan_hash of its text
};
Result<PlanFile> read_plan_file(const std::string& path, const PlanLimits& limits = {});

// The identity of a plan's text, which each results file carries (a results file from another
// plan is refused).
std::string plan_hash(std::string_view text);

// The jobs shard `index` of `count` (1-based) measures: positions index-1, index-1+count, ...
std::vector<gate::MeasureJob> shard_jobs(const Plan& plan, std::size_t index, std::size_t count);

}  // namespace kforecast::plan
