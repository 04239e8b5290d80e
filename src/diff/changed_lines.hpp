// SPDX-License-Identifier: Apache-2.0
#pragma once

// The questions later stages ask of a FileDiff: did these lines of the new (head) or old (base)
// version change? A kernel in the head version changed where one of its lines was added; one in
// the base version, where one of its lines was removed.

#include <cstdint>
#include <vector>

#include "diff/unified_diff.hpp"

namespace kforecast::diff {

// Whether `line` of the new version is an added line.
bool touches_new_line(const FileDiff& file, std::uint32_t line);
// Whether `line` of the old version is a removed line.
bool touches_old_line(const FileDiff& file, std::uint32_t line);

// The added lines n with first <= n <= last (new numbering), ascending.
std::vector<std::uint32_t> changed_new_lines_in(const FileDiff& file, std::uint32_t first, std::uint32_t last);
// The removed lines n with first <= n <= last (old numbering), ascending.
std::vector<std::uint32_t> changed_old_lines_in(const FileDiff& file, std::uint32_t first, std::uint32_t last);

}  // namespace kforecast::diff
