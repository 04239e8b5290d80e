// SPDX-License-Identifier: Apache-2.0
#pragma once

// The inputs of `kforecast check`: the file to check as it is in the work tree (the head), and
// what it is compared with (the base): the same file at a git revision (--against, default HEAD)
// or another file (--vs). Each side holds the repository's CUDA sources (the kernel's file, the
// headers it may include, the units that instantiate it), keyed by path from the repository root,
// so the rest of the gate (gate/change_review.hpp, gate/pr_bench.hpp) reads them as it reads two
// revisions of a pull request, and builds the kernel as pr does.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "git/repository.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::gate {

// FILE[:KERNEL] as given on the command line.
struct CheckTarget {
  std::string file;
  std::string kernel;  // "": every kernel of the file
};

// Reads FILE[:KERNEL]: the text is a file name as a whole if such a file exists (so a path that
// contains ':' still works), else FILE:KERNEL. An error when the file does not exist.
Result<CheckTarget> parse_check_target(std::string_view text, std::string_view option = "");

struct CheckRequest {
  CheckTarget target;
  std::string against;  // --against REV; "" with --vs alone
  // --vs FILE[:KERNEL]: another file of the work tree; with `against`, the file the kernel had at
  // REV (renamed or moved since), which need not exist any more
  std::string versus;
  git::RepositoryOpener repository_at;  // the repository around a file (cli: git)
};

struct CheckSources {
  std::string base_label;   // the report's "base": the commit, or the other file
  std::string head_label;   // the report's "head": "working tree", or the file checked
  std::string origin;       // a run note saying what was compared with what
  std::string base_path;    // the kernel's file, as keyed in base_files
  std::string head_path;    // ... in head_files
  std::string base_kernel;  // --vs FILE:KERNEL names the reference kernel; else ""
  kernels::SourceFiles base_files;
  kernels::SourceFiles head_files;
  std::filesystem::path root;                   // the repository's root, else the checked file's directory
  std::unique_ptr<git::Repository> repository;  // null where the file is not in a git work tree (--vs)
};

// Errors (exit 2) name what is wrong and what to do: the file is missing, the revision unknown,
// the file absent at the revision (a new file: nothing to compare with), no git repository.
Result<CheckSources> read_check_sources(const CheckRequest& request);

}  // namespace kforecast::gate
