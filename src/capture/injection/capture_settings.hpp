// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the `capture` command tells the injection library, through the environment (the only
// channel into a program the CUDA driver loads us into). Names shared by both sides.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::capture::injection {

inline constexpr std::string_view env_dir = "KFORECAST_CAPTURE_DIR";
inline constexpr std::string_view env_launches_per_shape = "KFORECAST_CAPTURE_LAUNCHES_PER_SHAPE";
inline constexpr std::string_view env_bytes = "KFORECAST_CAPTURE_BYTES";
inline constexpr std::string_view env_kernels = "KFORECAST_CAPTURE_KERNELS";
// Where the `capture` command found libcupti, tried before the library's own search.
inline constexpr std::string_view env_cupti = "KFORECAST_CAPTURE_CUPTI";

inline constexpr std::uint32_t default_launches_per_shape = 1;
inline constexpr std::uint64_t default_byte_budget = std::uint64_t{256} << 20;

struct CaptureSettings {
  std::string dir = ".kforecast/captures";
  std::uint32_t launches_per_shape = default_launches_per_shape;
  std::uint64_t byte_budget = default_byte_budget;  // contents kept, all launches together
  std::string kernels = "*";                        // a glob on the mangled or demangled name
  std::vector<std::string> problems;                // values that were not understood (defaults kept)
};

using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;

CaptureSettings read_capture_settings(const EnvironmentLookup& env);

// "256M", "1G", "4096", "64K" -> bytes; nullopt where it is none of these.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// Whether the kernel is one to capture: the glob (fnmatch) matches its mangled or demangled name.
bool kernel_selected(std::string_view glob, std::string_view mangled, std::string_view demangled);

}  // namespace kforecast::capture::injection
