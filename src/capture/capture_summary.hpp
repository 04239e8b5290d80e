// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a capture folder holds, for the line `kforecast capture` prints once the program ends:
// kernels and shapes kept, bytes of contents, regions left to synthetic data, and the launches
// that cannot be replayed with the reason. Lenient: a file it cannot read is listed as a
// problem, and the rest is still summarized (the capture-file reader is the strict one).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kforecast::capture {

struct UnreplayableLaunch {
  std::string kernel;  // demangled
  std::string file;    // relative to the folder
  std::string reason;  // "cannot replay: pointer inside argument 0"
};

struct SyntheticRegion {
  std::string kernel;
  std::string file;
  std::uint64_t bytes = 0;
};

struct KernelShapes {
  std::string kernel;        // demangled
  std::size_t shapes = 0;    // distinct grid, block, shared memory and value parameters
  std::size_t launches = 0;  // kept: up to --launches-per-shape of each shape
};

struct CaptureSummary {
  std::vector<KernelShapes> kernels;  // by name
  std::size_t launches = 0;           // capture files
  std::uint64_t bytes_kept = 0;       // blob files, each counted once
  std::vector<SyntheticRegion> synthetic;
  std::vector<UnreplayableLaunch> unreplayable;
  std::vector<std::string> problems;  // files that could not be read, with why
};

CaptureSummary summarize_captures(const std::filesystem::path& folder);

// The text printed after the program: a headline, one line per kernel, then what is synthetic
// and what cannot be replayed.
std::string format_summary(const CaptureSummary& summary, const std::filesystem::path& folder);

}  // namespace kforecast::capture
