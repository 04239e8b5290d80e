// SPDX-License-Identifier: Apache-2.0
#pragma once

// A compile context guessed from the tree, for a file that neither the compile database nor the
// config gives one: the include folders a build must have had for the unit's includes to find
// the repository files they do, and the defines the project's build files state
// (build_file_defines.hpp). No standard (nvcc's default) is guessed. The context is marked
// inferred, and its origin says which build files the defines came from, so the report can say
// its flags were guessed and from where.

#include <string>

#include "context/build_file_defines.hpp"
#include "context/compile_context.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::context {

// For each #include in `unit`'s closure that resolves (RevisionSources::resolve_include) to a
// repository file F whose path ends with the include's name N, the folder F-minus-N, unless a
// quoted include finds it beside its includer anyway (<tiny-cuda-nn/common.h> found at
// include/tiny-cuda-nn/common.h gives "include"; "common/defs.h" found from the root gives ".").
// Then the root's include/ where the tree has one, and each vendored */include folder holding a
// header the unit reaches (third_party/cutlass/include). A unit the tree does not hold gets an
// empty context. Then the defines of `build` where given, for every unit alike; the origin reads
// "inferred from the tree; defines from CMakeLists.txt: TCNN_MIN_GPU_ARCH=90, ...".
CompileContext infer_context(const kernels::RevisionSources& tree, const std::string& unit,
                             const BuildFileDefines* build = nullptr);

}  // namespace kforecast::context
