// SPDX-License-Identifier: Apache-2.0
// PTX comes from NVRTC, or from a dataset or cache a user supplies: any bytes must give an
// instruction mix without a crash, a hang or a sanitizer report, and the mix must be consistent.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "embedded/ptx_mix.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view ptx(reinterpret_cast<const char*>(data), size);
  // The entry to read: the name after the first ".entry", or a fixed one.
  std::string_view entry = "k";
  if (const auto at = ptx.find(".entry "); at != std::string_view::npos) {
    const auto begin = at + 7;
    const auto end = ptx.find_first_of("( \t\n", begin);
    entry = ptx.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
  }
  const auto mix = kforecast::embedded::ptx_instruction_mix(ptx, entry);
  if (!mix.found && mix.instructions != 0) __builtin_trap();
  if (mix.global_loads_128 > mix.global_loads) __builtin_trap();
  const double parts = mix.global_loads + mix.global_stores + mix.shared_loads + mix.shared_stores;
  if (parts > mix.instructions) __builtin_trap();
  (void)kforecast::embedded::access_bits(entry);
  return 0;
}
