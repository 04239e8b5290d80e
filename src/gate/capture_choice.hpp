// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which captured launches measure a kernel pair that has no launch spec (docs/design/capture.md):
// those --capture names, else the reference's (the base revision's program chooses the problem,
// as the base's spec would) found in capture.dir, else the candidate's (a kernel new in the
// head). Every capture chosen is read in full (blobs checked) and fits both kernels' signatures,
// so a capture that cannot be replayed is an error before any GPU work.

#include <filesystem>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "bench/kernel_source.hpp"
#include "capture/capture_file.hpp"
#include "config/config.hpp"

namespace kforecast::gate {

struct ChosenCapture {
  std::filesystem::path file;
  capture::Capture capture;
};

struct ChosenCaptures {
  std::vector<ChosenCapture> captures;  // empty: none found
  // What --capture names for a child process that measures the same captures: the file, or the
  // folder they were found in.
  std::string path;
  std::vector<std::string> notes;  // captures passed over, and why
};

// `explicit_path`: --capture's value, or empty to look in capture.dir under `repository_root`.
Result<ChosenCaptures> choose_captures(const std::string& explicit_path, const config::Config& config,
                                       const std::filesystem::path& repository_root,
                                       const bench::PreparedKernel& reference, const bench::PreparedKernel& candidate);

}  // namespace kforecast::gate
