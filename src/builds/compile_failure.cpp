// SPDX-License-Identifier: Apache-2.0
#include "builds/compile_failure.hpp"

#include <fmt/format.h>

namespace kforecast::builds {
namespace {

bool is_error_line(std::string_view line) {
  return line.find(": error") != std::string_view::npos || line.find(": catastrophic error") != std::string_view::npos ||
         line.find(": fatal error") != std::string_view::npos;
}

}  // namespace

std::string first_error(std::string_view log) {
  while (!log.empty()) {
    const std::size_t end = log.find('\n');
    const std::string_view line = log.substr(0, end);
    if (is_error_line(line)) return std::string(line);
    if (end == std::string_view::npos) break;
    log.remove_prefix(end + 1);
  }
  return {};
}

std::optional<std::string> missing_context(std::string_view log) {
  const std::string line = first_error(log);
  if (line.empty()) return std::nullopt;
  // A header the compiler cannot find: a C or C++ library header NVRTC does not have, or a
  // folder the project's build adds to the include path.
  constexpr std::string_view cannot_open = "cannot open source file ";
  if (const auto at = line.find(cannot_open); at != std::string::npos)
    return fmt::format("cannot open {}", line.substr(at + cannot_open.size()));
  // The same as nvcc's host compiler says it: "k.cu:1:10: fatal error: dep/x.h: No such file or directory".
  constexpr std::string_view fatal = ": fatal error: ";
  constexpr std::string_view no_such_file = ": No such file or directory";
  if (const auto at = line.find(fatal); at != std::string::npos && line.ends_with(no_such_file))
    return fmt::format("missing <{}>", line.substr(at + fatal.size(), line.size() - no_such_file.size() - at - fatal.size()));
  // An error located in a file outside the repository: kforecast hands the project's own files to
  // the compiler by their repository paths, so an absolute path is the toolkit's or the system's
  // header, rejecting the context it was given rather than anything the change wrote.
  if (line.starts_with('/')) {
    const std::size_t location_end = line.find('(');
    return fmt::format("an error inside {}", line.substr(0, location_end));
  }
  return std::nullopt;
}

}  // namespace kforecast::builds
