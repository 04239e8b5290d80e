// SPDX-License-Identifier: Apache-2.0
#pragma once

// A compile context guessed from the tree, for a file that neither the compile database nor the
// config gives one: the include folders a build must have had for the unit's includes to find
// the repository files they do. No defines and no standard (nvcc's default) are guessed. The
// context is marked inferred, so the report can say its flags were guessed.

#include <string>

#include "context/compile_context.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::context {

// For each #include in `unit`'s closure that resolves (RevisionSources::resolve_include) to a
// repository file F whose path ends with the include's name N, the folder F-minus-N, unless a
// quoted include finds it beside its includer anyway (<tiny-cuda-nn/common.h> found at
// include/tiny-cuda-nn/common.h gives "include"; "common/defs.h" found from the root gives ".").
// Then the root's include/ where the tree has one, and each vendored */include folder holding a
// header the unit reaches (third_party/cutlass/include). A unit the tree does not hold gets an
// empty context.
CompileContext infer_context(const kernels::RevisionSources& tree, const std::string& unit);

}  // namespace kforecast::context
