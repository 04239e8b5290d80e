// SPDX-License-Identifier: Apache-2.0
// A capture file may be committed by a pull request or written by a program under test: any
// bytes must give a capture or an error, and a capture read must be self-consistent (every
// pointer's allocation listed, regions inside their allocations, parameters in order without
// overlap) and write back to text that reads the same.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "capture/capture_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::capture;
  auto capture = parse_capture_json(std::string_view(reinterpret_cast<const char*>(data), size), "capture.json");
  if (!capture) return 0;
  std::uint64_t end = 0;
  for (std::size_t i = 0; i < capture->parameters.size(); ++i) {
    const auto& parameter = capture->parameters[i];
    if (parameter.index != i || parameter.offset < end) __builtin_trap();
    end = std::uint64_t{parameter.offset} + parameter.size;
    if (end > max_parameter_bytes) __builtin_trap();
    if (parameter.kind == ParameterKind::value && parameter.bytes.size() != parameter.size) __builtin_trap();
    if (parameter.kind == ParameterKind::pointer &&
        std::ranges::find(capture->allocations, parameter.allocation, &CapturedAllocation::id) == capture->allocations.end())
      __builtin_trap();
  }
  for (const auto& allocation : capture->allocations) {
    if (allocation.region_bytes == 0 || allocation.region_offset + allocation.region_bytes > allocation.bytes)
      __builtin_trap();
    if (allocation.contents == Contents::captured &&
        (allocation.blob.empty() || allocation.blob.front() == '/' || allocation.blob == ".." ||
         allocation.blob.starts_with("../") || allocation.blob.ends_with("/..") ||
         allocation.blob.find("/../") != std::string::npos))
      __builtin_trap();
  }
  const std::string again = capture_json(*capture);
  auto reread = parse_capture_json(again, "capture.json");
  if (!reread || capture_json(*reread) != again) __builtin_trap();
  return 0;
}
