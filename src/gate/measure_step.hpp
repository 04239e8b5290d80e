// SPDX-License-Identifier: Apache-2.0
#pragma once

// The measuring step of `kforecast pr`, after the policy: the kernels it sent
// to the GPU are measured riskiest first (highest P(regression), then lowest confidence) until
// the PR's GPU budget is spent, and each measurement decides its kernel: a regression beyond
// tolerance or a failed candidate fails the gate; an inconclusive one warns, or fails under
// policy.fail_on_inconclusive; faster and same pass. A kernel left unmeasured (no GPU, no launch
// spec, the budget spent) is unverified, and policy.on_unverified decides. Pure: the measuring
// itself is a function the caller passes (gate/pr_bench.cpp runs it in a child process).

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "gate/kernel_case.hpp"
#include "base/run_deadline.hpp"
#include "policy/ledger.hpp"
#include "report/report.hpp"

namespace kforecast::gate {

struct MeasureSettings {
  bool fail_unverified = false;    // policy.on_unverified = "fail"
  bool fail_inconclusive = false;  // policy.fail_on_inconclusive
  double budget_seconds = 0;       // policy.gpu_budget_seconds; 0: no limit
  bool fail_borderline = false;    // policy.on_borderline = "fail"
};

// `to_measure` (entry indices) riskiest first: a kernel without a forecast first (nothing is
// known of it), then by P(regression) descending, then confidence ascending; ties keep the
// cases' order.
std::vector<std::size_t> measurement_order(std::span<const KernelCase> cases, std::span<const std::size_t> to_measure);

// The entry after its measurement: decision `measured`, the report's measurement object, the
// verdict, and notes that say why.
void apply_measurement(report::KernelEntry& entry, const bench::Measurement& measurement,
                       const MeasureSettings& settings);

// Where both sides replayed the base's captured launches and the candidate's launch was refused
// (cuLaunchKernel failed: a grid, block or shared size it cannot take), why the kernel is not
// measured; nullopt otherwise. The base's geometry is not the head's where the launch changed with
// the kernel (SGEMM_CUDA's 9696ef8: a new instantiation with a new block shape, 2.7% faster by the
// program's own timer, was failed), so that is no verdict on the head.
std::optional<std::string> replay_did_not_fit(const bench::Measurement& measurement);

// The entry left unmeasured: `reason` says why (and how to fix it); policy.on_unverified decides.
void mark_unverified(report::KernelEntry& entry, std::string_view reason, const MeasureSettings& settings);

// Measures one entry (by index): a measurement, or an Error whose message says why it could not
// be measured (no launch spec, no GPU in the child, ...). Called once per entry, riskiest first.
using MeasureKernel = std::function<Result<bench::Measurement>(std::size_t entry)>;

struct MeasureOutcome {
  double spent_seconds = 0;  // GPU seconds of every measurement taken
  std::size_t measured = 0;
  std::size_t over_budget = 0;  // left unmeasured because the budget was spent
  double wall_seconds = 0;      // the measurements' wall time, every measuring process from its start
};

// Why a kernel is left unmeasured once the budget is spent: "the GPU budget is spent (0.5 s used of
// policy.gpu_budget_seconds = 0.4; riskier kernels were measured first)".
std::string budget_spent_reason(double spent_seconds, double budget_seconds);

// Measures `to_measure` in measurement_order until the budget is spent (checked before each
// kernel: a measurement that starts runs to bench.max_gpu_seconds) and applies each result.
// Past `deadline` (the run's wall budget, where one is given) the kernels left are unverified too.
MeasureOutcome measure_kernels(std::span<KernelCase> cases, std::span<const std::size_t> to_measure,
                               const MeasureSettings& settings, const MeasureKernel& measure,
                               const RunDeadline* deadline = nullptr);

// Every case in `to_measure` left unmeasured for one reason (no GPU, --no-bench).
void leave_unmeasured(std::span<KernelCase> cases, std::span<const std::size_t> to_measure, std::string_view reason,
                      const MeasureSettings& settings);

// The footer's figures. `measurable`: changed kernels present at both revisions (what measuring
// everything would have measured); a measurement's cost is estimated as the median GPU seconds
// of this run's measurements, so nothing is estimated when nothing was measured.
report::GpuTime gpu_time(std::span<const KernelCase> cases, const MeasureOutcome& outcome, std::string note);

// What the ledger records for a measured entry (`kforecast calibration` reads
// it). `run` carries the fields that are the same for every kernel of the run (version, time,
// base, head); the hashes are the caller's, of the texts compared.
policy::LedgerEntry ledger_entry(const report::KernelEntry& entry, const bench::Measurement& measurement,
                                 policy::LedgerEntry run);

}  // namespace kforecast::gate
