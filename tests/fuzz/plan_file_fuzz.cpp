// SPDX-License-Identifier: Apache-2.0
// A plan is a file one CI job hands to another (an artifact): any bytes must give a plan or an
// error, and a plan read must be self-consistent (every job and to_measure index inside the
// report), and write back to a plan that reads the same.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "gate/plan_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::gate;
  auto plan = parse_plan_json(std::string_view(reinterpret_cast<const char*>(data), size), "plan.json");
  if (!plan) return 0;
  for (const auto& job : plan->jobs)
    if (job.entry >= plan->report.kernels.size()) __builtin_trap();
  for (const auto index : plan->to_measure)
    if (index >= plan->report.kernels.size()) __builtin_trap();
  const std::string again = plan_json(*plan);
  auto reread = parse_plan_json(again, "plan.json");
  if (!reread || plan_json(*reread) != again) __builtin_trap();
  return 0;
}
