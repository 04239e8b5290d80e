// SPDX-License-Identifier: Apache-2.0
#pragma once

// The two pictures of `kforecast eval --plots DIR`, as self-contained SVG text (written by hand:
// no plotting dependency): a reliability diagram (confidence buckets against the accuracy
// observed in each, with counts) and a risk-coverage curve (trusting the most confident
// forecasts first: the share trusted against the error rate among them).

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "eval/rows.hpp"
#include "eval/scoring.hpp"

namespace kforecast::eval {

// `subtitle` says what was scored (forecaster, dataset); it is escaped. Rows must not be empty.
std::string reliability_diagram_svg(std::span<const EvalRow> rows, std::string_view subtitle);
std::string risk_coverage_svg(std::span<const EvalRow> rows, const PolicySettingsForEval& policy,
                              std::string_view subtitle);

// Writes reliability.svg and risk_coverage.svg into `directory` (created if missing) and
// returns their paths.
Result<std::vector<std::filesystem::path>> write_eval_plots(const std::filesystem::path& directory,
                                                            std::span<const EvalRow> rows,
                                                            const PolicySettingsForEval& policy,
                                                            std::string_view subtitle);

}  // namespace kforecast::eval
