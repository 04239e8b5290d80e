// SPDX-License-Identifier: Apache-2.0
#pragma once

// The inputs of `kforecast pr`: the two revisions, the diff between them, and the CUDA sources
// at each, read from git in one batch per revision.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "change/submodule_sources.hpp"
#include "diff/unified_diff.hpp"
#include "git/repository.hpp"
#include "kernel_changes/changed_kernels.hpp"

namespace kforecast::change {

struct PrSources {
  std::string base_sha;
  std::string head_sha;  // "" for the index (--staged)
  std::string range_origin;
  diff::ParsedDiff diff;
  std::set<std::string, std::less<>> touched;  // CUDA paths the diff names, old and new
  std::vector<kernel_changes::FileRename> renames;
  kernels::SourceFiles base_files;
  kernels::SourceFiles head_files;
  std::optional<std::string> base_config;  // .kforecast.toml at the base revision, if there is one
  // What could not be read beside the revisions' own files (submodules not checked out), for the
  // run's notes; add_submodule_sources adds to them.
  std::vector<std::string> notes;
};

// Reads the CUDA sources at `base` and at `head` ("" for the index) and the diff between them.
// `diff_text` is git's diff of the same range, or Repository::changed_files_diff (only its files
// are used, not its hunks). Only what the analysis can need is read: the
// touched files and every header, or, when a header changed, every CUDA file (its includers);
// each distinct blob once, in one batch with the base's config.
Result<PrSources> read_pr_sources(const git::Repository& repository, std::string base, std::string head,
                                  std::string range_origin, std::string_view diff_text);

// Adds to both revisions' files the headers they include from their submodules
// (change/submodule_sources.hpp), and to `sources.notes` what could not be read. With `fetcher`,
// a pinned commit the checkout lacks is fetched from the base revision's .gitmodules URL for it.
void add_submodule_sources(const git::Repository& repository, PrSources& sources,
                           const SubmoduleFetcher* fetcher = nullptr);

// Removes every CUDA file larger than `max_bytes` at either revision from both revisions and from
// `touched`, so that its kernels are neither scanned nor reported as removed or added; returns one
// note per file skipped, naming it, its size and the limit (`limit_name`).
std::vector<std::string> skip_oversized_files(PrSources& sources, std::size_t max_bytes, std::string_view limit_name);

// For --diff: the head is the working tree; the base is what the diff's "index" lines name (so
// the diff must come from git, and its blobs be in this repository). `diff_text` is the patch.
Result<PrSources> read_patch_sources(const git::Repository& repository, std::string_view diff_text);

}  // namespace kforecast::change
