// SPDX-License-Identifier: Apache-2.0
#pragma once

// A launch spec as text for a reader that cannot run it (the LLM forecaster's prompt): the
// expressions as written, then each problem size evaluated and bound to the kernel's parameters
// — grid, block, dynamic shared memory, and every argument (buffers with element type and count,
// scalars with their value). A size whose expressions do not resolve is shown as such, and the
// problem is returned for the report: a spec the benchmark would refuse must not pass silently.

#include <string>
#include <vector>

#include "bench/launch_spec.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::bench {

struct LaunchDescription {
  std::string text;
  // One message per size that did not resolve, each naming the spec's place (spec.origin).
  std::vector<std::string> problems;
};

// A spec's text comes from a pull request, so what is shown is bounded: at most this many sizes
// are evaluated, at most this many arguments are listed as written (a kernel's own parameters
// bound how many a resolved size lists), and each expression is cut to a line's length.
inline constexpr std::size_t max_described_sizes = 8;
inline constexpr std::size_t max_described_arguments = 32;
inline constexpr std::size_t max_expression_chars = 160;

// `parameters` are the kernel's (template types substituted where known); `where` says which
// side the spec was read from ("the candidate's comment block").
LaunchDescription describe_launch(const LaunchSpec& spec, const std::vector<kernels::Parameter>& parameters,
                                  std::string_view where);

}  // namespace kforecast::bench
