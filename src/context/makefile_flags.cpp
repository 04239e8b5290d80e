// SPDX-License-Identifier: Apache-2.0
#include "context/makefile_flags.hpp"

#include <cctype>
#include <string>

#include <fmt/format.h>

namespace kforecast::context {

std::vector<FoundDefine> read_makefile_flags(std::string_view text, std::string_view name) {
  std::size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    line = line.substr(0, line.find('#'));
    std::size_t at = 0;
    while (at < line.size()) {
      while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at])) != 0) ++at;
      std::size_t stop = at;
      while (stop < line.size() && std::isspace(static_cast<unsigned char>(line[stop])) == 0) ++stop;
      const std::string_view word = line.substr(at, stop - at);
      at = stop;
      if (word == "-dc" || word == "--device-c" || word == "-rdc=true" || word == "--relocatable-device-code=true")
        return {{"-rdc=true", fmt::format("{}:{}", name, line_number)}};
    }
  }
  return {};
}

}  // namespace kforecast::context
