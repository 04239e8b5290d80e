// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading capture files (capture_file.hpp; docs/design/capture.md). A capture is untrusted
// input: it may be committed by a pull request or written by a program under test. Every field
// is checked, sizes are bounded, and a blob must lie inside the capture file's folder (no `..`,
// no absolute path, no symbolic link out) with exactly region_bytes bytes. Each Error names the
// file and the field ("scale-0.json: parameters[1].hex: ...") and what to do.

#include <cstddef>
#include <filesystem>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "capture/capture_file.hpp"

namespace kforecast::capture {

// Bounds on what a capture may ask of the reader and the GPU.
inline constexpr std::size_t max_capture_file_bytes = std::size_t{4} << 20;
inline constexpr std::size_t max_parameters = 1024;
inline constexpr std::uint32_t max_parameter_bytes = 32764;  // CUDA 12.1's kernel parameter limit
inline constexpr std::size_t max_allocations = 1024;
inline constexpr std::uint64_t max_allocation_bytes = std::uint64_t{1} << 40;

// The text of a capture file, checked field by field; `file_name` is for messages only. Blobs are
// checked by read_capture_file, which knows the folder.
Result<Capture> parse_capture_json(std::string_view text, std::string_view file_name);

// Reads and checks a capture file and every blob it names.
Result<Capture> read_capture_file(const std::filesystem::path& file);

// A captured allocation's region as the blob holds it, checked again (size, confinement).
// `index` is the allocation's place in the file, for messages.
Result<std::vector<std::byte>> read_blob(const std::filesystem::path& capture_file, const CapturedAllocation& allocation,
                                         std::size_t index);

}  // namespace kforecast::capture
