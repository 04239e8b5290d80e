// SPDX-License-Identifier: Apache-2.0
#include "capture/capture_lookup.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "capture/capture_reader.hpp"

namespace kforecast::capture {
namespace {

namespace fs = std::filesystem;

// Bounds the folder walk: a capture folder is data a pull request may commit.
constexpr std::size_t max_files_scanned = 4096;

bool is_capture_name(const fs::path& path) { return path.extension() == ".json"; }

std::string strip_spaces(std::string_view text) {
  std::string out;
  for (const char c : text)
    if (c != ' ') out += c;
  return out;
}

}  // namespace

std::string name_without_parameters(std::string_view demangled) {
  // The parameter list is the last balanced "(...)"; "(anonymous namespace)" may come before it.
  if (demangled.empty() || demangled.back() != ')') return std::string(demangled);
  int depth = 0;
  std::size_t open = std::string_view::npos;
  for (std::size_t i = demangled.size(); i-- > 0;) {
    if (demangled[i] == ')') ++depth;
    if (demangled[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string_view::npos || open == 0) return std::string(demangled);
  const std::string_view name = demangled.substr(0, open);
  // A return type ends at the last space outside <> and ().
  int nesting = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<' || c == '(') ++nesting;
    if ((c == '>' || c == ')') && nesting > 0) --nesting;
    if (c == ' ' && nesting == 0) start = i + 1;
  }
  return std::string(name.substr(start));
}

bool matches(const CapturedKernel& kernel, const KernelNames& names) {
  if (!names.mangled.empty()) return kernel.mangled == names.mangled;
  if (names.qualified.empty()) return false;
  // Spaces inside template arguments differ between demanglers and sources ("<64,8>").
  return strip_spaces(name_without_parameters(kernel.demangled)) == strip_spaces(names.qualified);
}

FoundCaptures find_captures(const fs::path& dir, const KernelNames& names) {
  FoundCaptures found;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return found;
  std::vector<fs::path> candidates;
  for (const auto& folder : fs::directory_iterator(dir, ec)) {
    if (!folder.is_directory(ec) || folder.is_symlink(ec)) continue;
    for (const auto& entry : fs::directory_iterator(folder.path(), ec)) {
      if (candidates.size() >= max_files_scanned) break;
      if (entry.is_regular_file(ec) && !entry.is_symlink(ec) && is_capture_name(entry.path()))
        candidates.push_back(entry.path());
    }
  }
  std::ranges::sort(candidates);
  if (candidates.size() >= max_files_scanned)
    found.skipped.push_back(fmt::format("{}: more than {} capture files; only the first were read", dir.generic_string(),
                                        max_files_scanned));
  for (const auto& file : candidates) {
    if (found.files.size() >= max_replayed_captures) break;
    if (fs::file_size(file, ec) > max_capture_file_bytes) {
      found.skipped.push_back(fmt::format("{}: larger than {} bytes", file.generic_string(), max_capture_file_bytes));
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    auto capture = parse_capture_json(text, file.generic_string());
    if (!capture) {
      found.skipped.push_back(capture.error().message);
      continue;
    }
    if (matches(capture->kernel, names)) found.files.push_back(file);
  }
  return found;
}

Result<std::vector<fs::path>> capture_files_at(const fs::path& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return std::vector<fs::path>{path};
  if (!fs::is_directory(path, ec))
    return usage_error(fmt::format("--capture {}: no such capture file or folder", path.generic_string()));
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(path, ec))
    if (entry.is_regular_file(ec) && is_capture_name(entry.path())) files.push_back(entry.path());
  std::ranges::sort(files);
  if (files.empty())
    return usage_error(fmt::format("--capture {}: the folder holds no *.json capture file; record one with "
                                   "`kforecast capture -- COMMAND`",
                                   path.generic_string()));
  if (files.size() > max_replayed_captures)
    return usage_error(fmt::format("--capture {}: {} capture files; at most {} are replayed in one measurement: name "
                                   "one file, or a folder with fewer",
                                   path.generic_string(), files.size(), max_replayed_captures));
  return files;
}

}  // namespace kforecast::capture
