// SPDX-License-Identifier: Apache-2.0
// A plan is a file one CI job hands to another (an artifact): any bytes must give a plan or an
// error, and a plan read must be self-consistent (every job and to_measure index inside the
// report), and write back to a plan that reads the same.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "plan/plan_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast;
  auto read = plan::parse_plan_json(std::string_view(reinterpret_cast<const char*>(data), size), "plan.json");
  if (!read) return 0;
  const auto& parsed = *read;
  for (const auto& job : parsed.jobs)
    if (job.entry >= parsed.report.kernels.size()) __builtin_trap();
  for (const auto index : parsed.to_measure)
    if (index >= parsed.report.kernels.size()) __builtin_trap();
  const std::string again = plan::plan_json(parsed);
  auto reread = plan::parse_plan_json(again, "plan.json");
  if (!reread || plan::plan_json(*reread) != again) __builtin_trap();
  return 0;
}
