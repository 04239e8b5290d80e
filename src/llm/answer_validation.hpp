// SPDX-License-Identifier: Apache-2.0
#pragma once

// Validating the model's answer object on our side, whatever the server promised: all eight
// bins present, each a finite number >= 0, their sum within a tolerance of 1 (then renormalised,
// the raw sum kept as a health signal), the predicted bin an integer in 1..8. The error text is
// quoted back to the model in the one repair request, so it says exactly what to fix.

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "forecast/bin_distribution.hpp"

namespace kforecast::llm {

// The answer schema's property names for the eight probabilities, bin 1 first.
extern const std::array<std::string_view, 8> probability_fields;

// Models' sums drift more than a fitted model's do; up to this far from 1 is renormalised.
inline constexpr double answer_sum_tolerance = 0.25;

struct ValidatedAnswer {
  forecast::BinDistribution distribution;
  std::optional<forecast::SpeedupBin> stated_bin;  // the model's predicted_bin, when it gave one
  std::string rationale;
};

// Accepts the schema's named fields, and also "p1".."p8" or a "probabilities" array of eight
// (answers from the plain-prompt rung often take those shapes).
Result<ValidatedAnswer> validate_answer(std::string_view json_object);

}  // namespace kforecast::llm
