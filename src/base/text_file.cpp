// SPDX-License-Identifier: Apache-2.0
#include "base/text_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace kforecast {

Result<std::string> read_text_file(const std::filesystem::path& path, std::string_view what, std::size_t max_bytes) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error)
    return fail(ExitCode::could_not_run, fmt::format("cannot read {} {}: {}", what, path.string(), error.message()));
  if (size > max_bytes)
    return fail(ExitCode::could_not_run,
                fmt::format("{} {} is {} bytes, more than the {} this reads", what, path.string(), size, max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(ExitCode::could_not_run,
                fmt::format("cannot read {} {}: {}", what, path.string(), std::strerror(errno)));
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) return fail(ExitCode::could_not_run, fmt::format("cannot read {} {}", what, path.string()));
  return text;
}

}  // namespace kforecast
