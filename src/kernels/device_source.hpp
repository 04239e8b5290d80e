// SPDX-License-Identifier: Apache-2.0
#pragma once

// A translation unit as NVRTC can compile it. NVRTC compiles device code only: a host function
// definition is an error, and system headers other than CUDA's are not there. So host function
// definitions that device code does not name are blanked (the rest are compiled with
// -default-device), and #include <...> lines whose header `available_header` does not know are
// blanked too; blanking keeps every newline, so line numbers in compiler messages still match
// the file. What is blanked is listed for the report.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"

namespace kforecast::kernels {

struct DeviceSource {
  std::string text;
  std::vector<std::string> removed;  // "host function launch (line 12)", "#include <vector> (line 1)"
};

// `scanned` is scan_cuda_source(source). `available_header` says whether an angled include can
// be compiled (for example, the header exists in the CUDA toolkit's include directory).
DeviceSource device_source(std::string_view source, const ScannedSource& scanned,
                           const std::function<bool(std::string_view)>& available_header);

}  // namespace kforecast::kernels
