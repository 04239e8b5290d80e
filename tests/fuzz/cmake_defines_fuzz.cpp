// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a CMakeLists.txt comes from a pull request, so it is untrusted. Any input must give
// defines and notes, never a crash or a hang: the input is the root's CMakeLists.txt, and every
// add_subdirectory() finds the same text again, so the limits on files and depth are exercised
// too. Every define then goes through the settling step and its allow-list.

#include <cstdint>
#include <cstdlib>
#include <string>

#include "context/build_file_defines.hpp"
#include "context/cmake_script.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::context;
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (const auto parsed = parse_cmake_script(text); !parsed && parsed.error().empty()) std::abort();
  const BuildFileReader read = [&text](const std::string& path) -> std::optional<std::string> {
    if (path.starts_with('/') || path.find("..") != std::string::npos) std::abort();  // never asked outside
    if (path.ends_with("CMakeLists.txt")) return text;
    return std::nullopt;
  };
  const auto settled = read_build_file_defines(read, 90);
  for (const auto& [name, value] : settled.defines)
    if (name.empty() || (name + value).find_first_of("\x01\x02\x03\x04") != std::string::npos) std::abort();
  return 0;
}
