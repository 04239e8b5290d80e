// SPDX-License-Identifier: Apache-2.0
#pragma once

// How the diff parser words what it reports, so every message names its diff line the same way.

#include <cstdint>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::diff {

// "diff line N: what", with ExitCode::usage: a bad diff is bad input, not a failure to run.
std::unexpected<Error> error_at(std::uint32_t line, std::string_view what);

// `text` made fit for a message: at most 60 bytes (then "..."), and every byte outside printable
// ASCII written as \xNN, so a binary or hostile line cannot garble a terminal.
std::string excerpt(std::string_view text);

}  // namespace kforecast::diff
