// SPDX-License-Identifier: Apache-2.0
#include "base/this_executable.hpp"

#include <filesystem>
#include <system_error>

namespace kforecast {

std::string this_executable() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : path.string();
}

}  // namespace kforecast
