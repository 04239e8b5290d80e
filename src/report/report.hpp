// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a `kforecast pr` run concluded, independent of how it is written. Field names and values
// are a contract with the tools that read the JSON report: keys are added, never renamed or dropped.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kforecast::report {

enum class Change { modified, added, removed, renamed };
enum class Decision { identical_code, trusted_forecast, measured, forecast_only, skipped };
enum class KernelVerdict { pass, fail, warn };
enum class GateVerdict { pass, fail, inconclusive };

// A forecast as the report shows it: the JSON report's "forecast" object, plus a few additive keys
// about the answer's health and provenance.
struct ForecastEntry {
  std::string forecaster;  // "embedded" | "llm"
  std::string model;
  int bin = 0;            // 1..8, the distribution's most probable bin
  std::string bin_label;  // "minor speedup"
  std::array<double, 8> probabilities{};
  double confidence = 0;
  double p_regression = 0;
  std::string rationale;
  double raw_sum = 1;  // the forecaster's probabilities summed to this before renormalising
  std::string prompt_version;
  bool cached = false;
  // Set when this forecast stands in for another forecaster's that failed (forecast.fallback):
  // which one failed ("llm") and its error. Empty otherwise.
  std::string fallback_for;
  std::string fallback_reason;
};

// A measurement as the report shows it: the JSON report's "measurement" object, plus why it failed or
// was inconclusive.
struct MeasurementEntry {
  double speedup = 0;  // t_base / t_head; 0 where nothing was timed (a failed candidate)
  double ci_low = 0;
  double ci_high = 0;
  int bin = 0;          // 1..8; 0 where nothing was timed
  std::string verdict;  // faster | same | regression | inconclusive | failed
  double t_base_us = 0;
  double t_head_us = 0;
  std::string gpu;
  double gpu_seconds = 0;
  std::string reason;  // why failed or inconclusive; empty otherwise
  // Failed because the base is broken (it faulted or wrote outside a buffer): the head is not
  // judged, and the kernel is unverified.
  bool base_broken = false;
  double wall_seconds = 0;  // the decision's wall time, every measuring process (bench::Measurement)
};

// The GPU time of a run, for the report's footer. `saved_seconds` is an estimate: every changed
// kernel that could have been measured (`measurable`) at `per_kernel_seconds` each (the median
// of this run's measurements), less what was spent; absent when nothing was measured to
// estimate a measurement's cost from.
struct GpuTime {
  double spent_seconds = 0;
  std::size_t measured = 0;
  std::size_t measurable = 0;
  std::optional<double> per_kernel_seconds;
  std::optional<double> saved_seconds;
  std::string note;  // why nothing was measured, where nothing was: "no GPU: ...", "--no-bench"
  // The machine-wide condition behind the note, in full, where one kept every kernel from being
  // measured ("no GPU here (libcuda.so.1 not found ...)"): the terminal view says it once, and each
  // kernel's reason, which repeats it, then refers to it.
  std::string unavailable;
  double wall_seconds = 0;  // the measurements' wall time, beside the GPU time (a runner pays for the wall)
};

struct KernelEntry {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
  Change change = Change::modified;
  Decision decision = Decision::forecast_only;
  KernelVerdict verdict = KernelVerdict::pass;
  std::vector<std::string> notes;               // why a step did not run, what was compared, ...
  std::optional<ForecastEntry> forecast;        // null where no forecast was made or it failed (notes say why)
  std::optional<MeasurementEntry> measurement;  // null where the kernel was not measured (notes say why)
  bool unverified = false;                      // it needed a GPU measurement that was not made
  // Who built the machine code compared, with which context and where it came from: "nvcc 13.0
  // for sm_90, src/runner.cu, context from build/compile_commands.json"; "" where nothing was built.
  std::string build;
  // "FILE:KERNEL" at the base where that differs from file:name (a kernel renamed or moved), so
  // the command that measures it names the reference the base has; "" otherwise.
  std::string base_kernel;
};

// A run-level problem no reader may miss (a forecaster that failed): the report's first line
// gives the headline, the body the detail, and the commands say both on standard error.
struct RunWarning {
  std::string headline;  // "the llm forecaster failed for 1 of 3 kernels"
  std::string detail;    // why, and what stood in
};

struct Report {
  std::string version;  // kforecast's
  std::string base;     // commit hashes
  std::string head;
  GateVerdict verdict = GateVerdict::pass;
  std::vector<KernelEntry> kernels;
  std::vector<std::string> notes;   // run-level: how the range was chosen, what was unavailable
  std::optional<GpuTime> gpu_time;  // set by runs that reached the measuring step
  std::vector<RunWarning> warnings;
};

// Kernels the gate could not judge: a measurement was needed and none was made (no GPU, no
// launch spec, --no-bench, the budget spent, a forecaster that failed) or it decided nothing.
// Whatever policy.on_unverified made of them, they are neither passed nor failed on evidence.
std::size_t unjudged_kernels(const Report& report);

// The verdict as the report's first line says it: "pass", "pass, but 2 kernels could not be
// judged", "fail: 1 kernel could not be judged", "fail, and 1 kernel could not be judged".
std::string summary(const Report& report);

// The warning as one line: "headline: detail".
std::string warning_text(const RunWarning& warning);

std::string_view to_string(Change change);
std::string_view to_string(Decision decision);
std::string_view to_string(KernelVerdict verdict);
std::string_view to_string(GateVerdict verdict);

}  // namespace kforecast::report
