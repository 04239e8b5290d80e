// SPDX-License-Identifier: Apache-2.0
#pragma once

// "Did you mean ...?" for commands, config keys and flags.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kforecast {

// Damerau-Levenshtein (optimal string alignment) distance: a swap of two neighbours counts 1,
// so "bnech" is one edit from "bench".
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `typed`, if it is close enough to be a plausible typo: at most a
// third of the longer name's length (and at least 1) edits, or `typed` is a prefix of it.
std::optional<std::string> nearest_name(std::string_view typed, std::span<const std::string_view> candidates);

// " (did you mean 'x'?)" or "" — ready to append to an error message.
std::string did_you_mean(std::string_view typed, std::span<const std::string_view> candidates);

}  // namespace kforecast
