// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/capture_settings.hpp"

#include <fnmatch.h>

#include <charconv>
#include <memory>

namespace kforecast::capture::injection {

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::uint64_t value = 0;
  const char* begin = std::to_address(text.begin());
  const char* end = begin + text.size();
  const auto [rest, error] = std::from_chars(begin, end, value);
  if (error != std::errc() || rest == begin) return std::nullopt;
  std::string_view unit(rest, static_cast<std::size_t>(end - rest));
  if (unit.ends_with("iB"))
    unit.remove_suffix(2);
  else if (unit.ends_with("B") && unit.size() > 1)
    unit.remove_suffix(1);
  int shift = 0;
  if (unit.empty() || unit == "B")
    shift = 0;
  else if (unit == "K" || unit == "k")
    shift = 10;
  else if (unit == "M" || unit == "m")
    shift = 20;
  else if (unit == "G" || unit == "g")
    shift = 30;
  else
    return std::nullopt;
  if (shift > 0 && value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

CaptureSettings read_capture_settings(const EnvironmentLookup& env) {
  CaptureSettings settings;
  if (auto dir = env(env_dir); dir && !dir->empty()) settings.dir = *dir;
  if (auto text = env(env_launches_per_shape)) {
    std::uint32_t count = 0;
    const auto [rest, error] = std::from_chars(text->data(), text->data() + text->size(), count);
    if (error == std::errc() && rest == text->data() + text->size() && count > 0)
      settings.launches_per_shape = count;
    else
      settings.problems.push_back(std::string(env_launches_per_shape) + "='" + *text +
                                  "' is not a positive whole number; kept " +
                                  std::to_string(settings.launches_per_shape));
  }
  if (auto text = env(env_bytes)) {
    if (auto bytes = parse_byte_size(*text))
      settings.byte_budget = *bytes;
    else
      settings.problems.push_back(std::string(env_bytes) + "='" + *text +
                                  "' is not a byte count (e.g. 268435456, 256M, 1G); kept 256M");
  }
  if (auto glob = env(env_kernels); glob && !glob->empty()) settings.kernels = *glob;
  return settings;
}

bool kernel_selected(std::string_view glob, std::string_view mangled, std::string_view demangled) {
  const std::string pattern(glob);
  return ::fnmatch(pattern.c_str(), std::string(mangled).c_str(), 0) == 0 ||
         ::fnmatch(pattern.c_str(), std::string(demangled).c_str(), 0) == 0;
}

}  // namespace kforecast::capture::injection
