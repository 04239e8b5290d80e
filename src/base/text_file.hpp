// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading a whole file that a user or a CI system hands us (an event file, a patch, a plan).

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast {

// The file's bytes. `what` names it in errors ("GitHub event file"); a file larger than
// `max_bytes` is an error rather than a surprise allocation.
Result<std::string> read_text_file(const std::filesystem::path& path, std::string_view what,
                                   std::size_t max_bytes = std::size_t{256} << 20);

}  // namespace kforecast
