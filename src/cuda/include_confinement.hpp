// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a compiler may read while it compiles code under review. A pull request's kernel can ask
// for any file (`#include "/proc/self/environ"`, `"../../.git/config"`, a committed symlink), and
// the compiler's log quotes what it read, so kforecast resolves every include itself before the
// compiler runs: project headers are read here, inside the repository only, and handed over in
// memory; the compiler itself is left only the CUDA toolkit's headers. Anything else (absolute
// paths, `..` that is not a project header, computed includes, #embed) is refused with a note
// naming the file, the line and the fix. The compiler also runs confined (compile_child.hpp);
// this is the part that holds on every operating system.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "cuda/compiler.hpp"
#include "cuda/include_directives.hpp"

namespace kforecast::cuda {

struct IncludeRoots {
  // Trusted folders the compiler reads in place: the toolkit's include folders.
  std::vector<std::filesystem::path> toolkit;
  // The repository's files on disk, read here and handed over in memory. nullopt where every
  // project header is already in the request (a revision read from git).
  std::optional<std::filesystem::path> work_tree;
  std::size_t max_header_bytes = std::size_t{8} << 20;   // one header; larger ones are refused
  std::size_t max_total_bytes = std::size_t{256} << 20;  // all headers read for one request
};

// Whether a compiler option may come with code under review: language, definitions and code
// generation, never one that reads a file, runs a program or names a response file.
bool allowed_compile_option(std::string_view option);

// For a compiler that reads a revision's files on disk itself (nvcc, confined by Landlock to that
// tree, the toolkit and the system's headers): the same refusals, made before it runs, over every
// file `unit` reaches through literal includes (quoted ones from the includer's folder, any from
// `include_dirs`, all relative to the tree's root): #embed, a path into .git, an absolute path,
// and '..' that climbs out of the tree. A computed include is refused unless
// `computed_allowed` (where Landlock confines the compiler's reads, it can only reach what the
// confinement lets it). `file_text` gives a tree file's text, or null where the tree has none;
// with `memo`, the texts it gives must stay in place while the memo lives.
Result<void> confine_tree_includes(const std::string& unit, const std::vector<std::string>& include_dirs,
                                   const std::function<const std::string*(const std::string&)>& file_text,
                                   bool computed_allowed, IncludeDirectiveMemo* memo = nullptr);

// `request` with its project headers in memory and only toolkit folders left in include_dirs,
// or why it may not be compiled (exit code gate_failed: the code under review asked for it).
Result<CompileRequest> confine_includes(CompileRequest request, const IncludeRoots& roots);

}  // namespace kforecast::cuda
