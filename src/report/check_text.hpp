// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast check`'s output for a terminal: per kernel the change, the forecast (bin, a bar of
// the eight-bin distribution, P(regression), confidence, rationale), the decision, and the
// measurement with its interval and verdict where one was taken. Short and plain: no Markdown.

#include <array>
#include <iosfwd>
#include <string>

#include "report/report.hpp"

namespace kforecast::report {

// One character per bin, bin 1 (severe slowdown) to bin 8 (extreme speedup), each a block
// whose height is its probability relative to the largest: "▁▁▂█▃▁▁▁".
std::string distribution_bar(const std::array<double, 8>& probabilities);

void write_check_text(std::ostream& out, const report::Report& report);

}  // namespace kforecast::report
