// SPDX-License-Identifier: Apache-2.0
#include "measure/capture_choice.hpp"

#include <fmt/format.h>

#include "capture/capture_lookup.hpp"
#include "capture/capture_reader.hpp"
#include "capture/replay_launch.hpp"

namespace kforecast::measure {
namespace {

namespace fs = std::filesystem;

// The captures of `kernel` in one folder (--capture FOLDER holds a kernel's captures, maybe
// beside other kernels').
std::vector<fs::path> matching_in_folder(const fs::path& folder, const capture::KernelNames& names,
                                         std::vector<std::string>& notes) {
  std::vector<fs::path> files;
  auto listed = capture::capture_files_at(folder);
  if (!listed) return files;
  for (const auto& file : *listed) {
    auto read = capture::read_capture_file(file);
    if (!read) {
      notes.push_back(read.error().message);
      continue;
    }
    if (capture::matches(read->kernel, names)) files.push_back(file);
  }
  return files;
}

}  // namespace

CaptureFolders configured_capture_folders(const config::Config& config, const fs::path& repository_root) {
  fs::path dir = config.string_value("capture.dir");
  if (dir.is_relative()) dir = repository_root / dir;
  return {dir, dir, "", ""};
}

Result<ChosenCaptures> choose_captures(const std::string& explicit_path, const CaptureFolders& folders,
                                       const bench::PreparedKernel& reference, const bench::PreparedKernel& candidate) {
  ChosenCaptures chosen;
  const capture::KernelNames reference_names{"", reference.name_expression};
  const capture::KernelNames candidate_names{"", candidate.name_expression};
  std::vector<fs::path> files;
  // An explicitly named capture must replay; one found by name may be another overload's.
  bool explicit_choice = false;
  std::error_code ec;
  if (!explicit_path.empty() && fs::is_regular_file(explicit_path, ec)) {
    files.emplace_back(explicit_path);
    chosen.path = explicit_path;
    explicit_choice = true;
  } else if (!explicit_path.empty()) {
    auto listed = capture::capture_files_at(explicit_path);
    if (!listed) return std::unexpected(listed.error());
    files = matching_in_folder(explicit_path, reference_names, chosen.notes);
    if (files.empty()) files = matching_in_folder(explicit_path, candidate_names, chosen.notes);
    if (files.empty())
      return usage_error(fmt::format("--capture {}: no capture of kernel '{}' there{}", explicit_path,
                                     reference.name_expression,
                                     chosen.notes.empty() ? "" : fmt::format(" ({})", chosen.notes.front())));
    chosen.path = explicit_path;
  } else {
    // The reference's captures at the base; the candidate's at the head where the base has none
    // (a kernel new in the head, or renamed; a capture the head adds for a kernel the base has,
    // as a spec only the head has is used for both sides).
    auto found = capture::find_captures(folders.reference, reference_names);
    chosen.origin = folders.reference_origin;
    if (found.files.empty() &&
        (candidate.name_expression != reference.name_expression || folders.candidate != folders.reference)) {
      auto at_candidate = capture::find_captures(folders.candidate, candidate_names);
      found.skipped.insert(found.skipped.end(), at_candidate.skipped.begin(), at_candidate.skipped.end());
      found.files = std::move(at_candidate.files);
      chosen.origin = folders.candidate_origin;
    }
    chosen.notes = std::move(found.skipped);
    files = std::move(found.files);
    if (files.empty()) return chosen;
  }
  for (const auto& file : files) {
    auto read = capture::read_capture_file(file);
    if (!read) return std::unexpected(read.error());
    auto fits_reference = capture::check_replayable(*read, reference.function.parameters, reference.label);
    auto fits_candidate = capture::check_replayable(*read, candidate.function.parameters, candidate.label);
    for (auto* fits : {&fits_reference, &fits_candidate}) {
      if (*fits) continue;
      if (explicit_choice) return std::unexpected(fits->error());
      chosen.notes.push_back(fmt::format("{}: passed over: {}", file.generic_string(), fits->error().message));
    }
    if (fits_reference && fits_candidate) chosen.captures.push_back({file, std::move(*read)});
  }
  if (chosen.captures.empty() && !files.empty())
    return usage_error(fmt::format("no capture of kernel '{}' can be replayed: {}", reference.name_expression,
                                   chosen.notes.empty() ? std::string("none fits") : chosen.notes.front()));
  if (chosen.path.empty()) chosen.path = chosen.captures.front().file.parent_path().string();
  return chosen;
}

}  // namespace kforecast::measure
