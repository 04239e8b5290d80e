// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writing a launch record where docs/design/capture.md puts it: <dir>/<kernel folder>/
// <shape>-<n>.json beside blobs/<sha256>.bin, written to a temporary name and renamed, so a
// reader never sees half a file, and a program killed mid-write leaves no torn capture.

#include <string>

#include "capture/injection/capture_json.hpp"
#include "capture/injection/launch_record.hpp"

namespace kforecast::capture::injection {

// The folder of one kernel: the first 16 hex digits of its mangled name's SHA-256.
std::string kernel_folder_name(std::string_view mangled);
// "<first 12 hex digits of the shape key's SHA-256>-<ordinal>.json"
std::string capture_file_name(const LaunchRecord& record);

// Writes the blobs of the captured regions (dropping their bytes from the record) and the
// capture file. An error message, or empty on success.
std::string write_capture(const std::string& dir, LaunchRecord& record, const ProgramFacts& program);

}  // namespace kforecast::capture::injection
