// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which captured launches measure a kernel pair that has no launch spec (docs/design/capture.md):
// those --capture names, else the reference's (the base revision's program chooses the problem,
// as the base's spec would) found in the reference's capture folder, else the candidate's (a
// kernel new in the head, or one the base has no capture of) in the candidate's folder. Every capture chosen is read in full (blobs checked) and fits both kernels' signatures,
// so a capture that cannot be replayed is an error before any GPU work.

#include <filesystem>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "bench/kernel_source.hpp"
#include "capture/capture_file.hpp"
#include "config/config.hpp"

namespace kforecast::measure {

struct ChosenCapture {
  std::filesystem::path file;
  capture::Capture capture;
};

// Where captures are looked for when --capture names none. `bench`: capture.dir for both; `pr`:
// capture.dir at each revision (measure/revision_captures.hpp).
struct CaptureFolders {
  std::filesystem::path reference;
  std::filesystem::path candidate;
  // Where each folder's captures come from, for the report ("the base revision 0123abcd's
  // .kforecast/captures"); empty: not said.
  std::string reference_origin;
  std::string candidate_origin;
};

struct ChosenCaptures {
  std::vector<ChosenCapture> captures;  // empty: none found
  std::string origin;                   // the chosen folder's origin (CaptureFolders); empty: not said
  // What --capture names for a child process that measures the same captures: the file, or the
  // folder they were found in.
  std::string path;
  std::vector<std::string> notes;  // captures passed over, and why
};

// `explicit_path`: --capture's value, or empty to look in `folders`.
Result<ChosenCaptures> choose_captures(const std::string& explicit_path, const CaptureFolders& folders,
                                       const bench::PreparedKernel& reference, const bench::PreparedKernel& candidate);

// capture.dir under `repository_root`, for both sides: what `bench` looks in.
CaptureFolders configured_capture_folders(const config::Config& config, const std::filesystem::path& repository_root);

}  // namespace kforecast::measure
