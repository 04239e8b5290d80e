// SPDX-License-Identifier: Apache-2.0
#pragma once

// When a regression is believed: the rule shared by one pair's measurement (bench) and a batch's
// (pr). A first process's regression is measured again in a fresh process, unless its whole
// interval lies beyond the tolerance by more than a process-level bias could make
// (bench::beyond_process_bias; a note says so). A fresh process that decides nothing (its
// interval straddles the tolerance) is followed by a third with more rounds (`bench --extended`):
// a regression there confirms the first. Unconfirmed, it becomes `inconclusive` with a
// "borderline: ..." reason that gives every process's figures. GPU and wall seconds add up over
// all processes.

#include "bench/measurement.hpp"

namespace kforecast::measure {

// Whether `first` needs a fresh process; where its interval settles it, a note says why not.
bool needs_confirmation(bench::Measurement& first);

// Whether the fresh process's result calls for a third, with more rounds.
bool needs_third_process(const bench::Measurement& second);

// `first` with a later process's cost added; `checks`: the processes that have measured it.
void add_process(bench::Measurement& first, const bench::Measurement& later, int checks);

// `first` settled by the fresh processes: still a regression where the second (or the third)
// found one, else inconclusive with the borderline reason. `third` may be null.
void settle_confirmation(bench::Measurement& first, const bench::Measurement& second, const bench::Measurement* third);

}  // namespace kforecast::measure
