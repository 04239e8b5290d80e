// SPDX-License-Identifier: Apache-2.0
#include "measure/confirmation.hpp"

#include <fmt/format.h>

#include "bench/statistics.hpp"

namespace kforecast::measure {

using bench::Verdict;

bool needs_confirmation(bench::Measurement& first) {
  if (first.verdict != Verdict::regression) return false;
  // The second process exists to catch a bias of the first process's own (where its buffers and
  // modules landed); a regression beyond the tolerance by more than any such bias is settled.
  if (bench::beyond_process_bias(first.interval, first.tolerance)) {
    first.notes.push_back(fmt::format(
        "not re-measured in a fresh process: the whole interval lies more than {:g}% beyond the tolerance, more than "
        "a process-level bias (allocation placement) could explain",
        100 * bench::process_bias_bound));
    return false;
  }
  return true;
}

bool needs_third_process(const bench::Measurement& second) {
  // A second process that decided nothing: the slowdown sits near the tolerance, where more rounds
  // narrow the interval to a decision.
  return second.verdict == Verdict::inconclusive;
}

void add_process(bench::Measurement& first, const bench::Measurement& later, int checks) {
  first.gpu_seconds += later.gpu_seconds;
  first.wall_seconds += later.wall_seconds;
  first.regression_checks = checks;
}

void settle_confirmation(bench::Measurement& first, const bench::Measurement& second, const bench::Measurement* third) {
  if (second.verdict == Verdict::regression) return;
  if (third != nullptr && third->verdict == Verdict::regression) {
    first.notes.push_back(fmt::format(
        "confirmed by a third process with four times the rounds ({}), after a second straddled the tolerance ({})",
        bench::slowdown_text(third->interval), bench::slowdown_text(second.interval)));
    return;
  }
  const bench::Measurement& last = third != nullptr ? *third : second;
  // The processes disagree: the slowdown sits near the tolerance, or one process was biased.
  // Neither is a regression at the method's confidence, and neither is a pass: inconclusive,
  // which the gate treats as policy.on_borderline says.
  first.notes.push_back(fmt::format("a second process measured {} ({:.4f}x)", bench::verdict_name(second.verdict),
                                    second.interval.speedup));
  if (third != nullptr)
    first.notes.push_back(fmt::format("a third process, with four times the rounds, measured {} ({:.4f}x)",
                                      bench::verdict_name(last.verdict), last.interval.speedup));
  // Pooling the processes' rounds into one interval was rejected: it would average a process
  // bias away instead of testing for it, which is what the second process is for.
  if (last.verdict == Verdict::failed)
    first.reason = "the regression was not confirmed: the fresh process failed: " + last.reason;
  else
    first.reason = fmt::format("borderline: the first process measured {}, {} {} ({}); the regression was not "
                               "confirmed",
                               bench::slowdown_text(first.interval),
                               third != nullptr ? "a fresh process straddled the tolerance, and a third with more rounds"
                                                : "a fresh process",
                               bench::slowdown_text(last.interval), bench::verdict_name(last.verdict));
  first.verdict = Verdict::inconclusive;
}

}  // namespace kforecast::measure
