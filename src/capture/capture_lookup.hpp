// SPDX-License-Identifier: Apache-2.0
#pragma once

// Finding a kernel's captures: in `capture.dir` (one folder per kernel, capture_file.hpp), or
// where --capture names a file or a folder. A capture matches a kernel by its mangled name (the
// symbol in the cubin the project built) or, where only the source is known (NVRTC builds),
// by its demangled name without parameters ("ns::tiled<64, 8>").

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "capture/capture_file.hpp"

namespace kforecast::capture {

// "void ns::tiled<64, 8>(float*, int)" -> "ns::tiled<64, 8>": the return type (templates have
// one) and the parameter list removed. Text it cannot split comes back unchanged.
std::string name_without_parameters(std::string_view demangled);

struct KernelNames {
  std::string mangled;    // empty where not known
  std::string qualified;  // "ns::scale", or a template instantiation "ns::tiled<64, 8>"
};

bool matches(const CapturedKernel& kernel, const KernelNames& names);

// The most capture files one measurement replays (each is one size of the pair).
inline constexpr std::size_t max_replayed_captures = 8;

struct FoundCaptures {
  std::vector<std::filesystem::path> files;  // matching captures, sorted by path, at most max_replayed_captures
  std::vector<std::string> skipped;          // "<file>: <why>" for files that could not be read
};

// The captures of a kernel under `dir` (capture.dir): every `*.json` one folder down. An absent
// folder finds nothing.
FoundCaptures find_captures(const std::filesystem::path& dir, const KernelNames& names);

// What --capture names: a capture file, or a folder whose `*.json` files are all captures.
Result<std::vector<std::filesystem::path>> capture_files_at(const std::filesystem::path& path);

}  // namespace kforecast::capture
