// SPDX-License-Identifier: Apache-2.0
#pragma once

// The focused text a forecaster reads for one kernel at one revision: the
// kernel and what it reaches — device functions, macros, types, constants — and nothing else of
// its file or headers. The whole translation unit (device_source.hpp) is what compiles; this is
// what a reader needs, in an order that reads top-down: each file's pieces in source order,
// included headers before the files that include them.

#include <cstddef>
#include <string>

#include "kernels/revision_sources.hpp"

namespace kforecast::kernels {

struct Excerpt {
  std::string text;
  bool truncated = false;  // longer than max_bytes: cut at a line end, with a note saying so
};

// The excerpt of kernel `function_index` of `path`. Headers introduce their pieces with a
// `// file: PATH` line; functions inside namespaces carry their qualified name in a comment.
Excerpt kernel_excerpt(const RevisionSources& sources, const std::string& path, std::size_t function_index,
                       std::size_t max_bytes = std::size_t{32} * 1024);

}  // namespace kforecast::kernels
