// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `kforecast lint` reads, and which lines it reports on. With --staged: what `git commit`
// would record, the index's blobs of the changed CUDA files, reported on their added lines only.
// With files: the named files as the disk has them, whole. Either way the files' local headers
// come from the same place as the files (the index or the repository on disk).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "cuda/compiler.hpp"
#include "git/repository.hpp"

namespace kforecast::lint_run {

// Larger files are not lint input: they are generated or data, and would cost memory for nothing.
inline constexpr std::size_t max_lint_file_bytes = std::size_t{16} << 20;

// One file to lint: its name in diagnostics, its path relative to the config root (for
// lint.ignore_paths), its text, and the added lines (none: the whole file).
struct LintInput {
  std::string shown;
  std::string relative;
  std::string text;
  std::optional<std::vector<std::uint32_t>> added;
};

// Reads the wanted repository-relative paths from where the inputs came from; a path that cannot
// be read is missing from the result.
using ReadFiles = std::function<std::map<std::string, std::string, std::less<>>(const std::vector<std::string>&)>;

struct LintInputs {
  std::vector<LintInput> files;
  ReadFiles read;         // the index or the disk: where the files' headers are read from
  std::string diff_text;  // --staged: git's diff of the index against HEAD; "" for named files
};

// The changed CUDA files of the index (deleted and binary ones left out, and those with no added
// line). `repository` must outlive the result: `read` reads its index.
Result<LintInputs> staged_lint_inputs(const git::Repository& repository);

// The named files: one inside `root` (the config's root) is read as a repository file there, one
// outside it as the user names it. A file that cannot be read is a usage error.
Result<LintInputs> file_lint_inputs(const std::vector<std::string>& paths, const std::filesystem::path& root);

// Headers a file includes with quotes, resolved like the pr gate does: beside the file, then
// from the root, read through `read`; two levels deep.
std::vector<cuda::SourceHeader> local_headers(const LintInput& input, const ReadFiles& read);

}  // namespace kforecast::lint_run
