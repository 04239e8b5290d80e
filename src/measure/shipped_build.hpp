// SPDX-License-Identifier: Apache-2.0
#pragma once

// Measuring what ships: the kernel built by the project's compiler with the
// project's context, not a separate NVRTC build of kforecast's. NVRTC and nvcc can make different
// code of the same source (a GEMM measured 19% slower from NVRTC: same registers, 824 against 776
// instructions), and a gate that measures the other build judges code nobody runs.
//
// The measuring child builds each side as the gate's unit builds did: the toolkit's nvcc, confined,
// the same context arguments, the GPU's own architecture; the unit is a small one that includes
// the kernel's file and takes the address of the instantiation to measure, so exactly that
// instantiation is built whatever the project's own units instantiate. The kernel's symbol is
// found in the cubin by its demangled name.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "bench/kernel_source.hpp"
#include "bench/runner.hpp"
#include "cuda/nvcc_unit.hpp"

namespace kforecast::measure {

// What the parent hands the measuring child so that it builds both sides as the project does:
// each side's tree (the revision's files, written by the parent) and its context's arguments.
struct ProjectBuild {
  std::string reference_tree, candidate_tree;
  std::vector<std::string> reference_arguments, candidate_arguments;
  friend bool operator==(const ProjectBuild&, const ProjectBuild&) = default;
};

std::string project_build_json(const ProjectBuild& build);
Result<ProjectBuild> parse_project_build(std::string_view json);

struct ShippedKernel {
  bench::CompiledKernel kernel;
  std::string build;  // "nvcc 13.0.88 for sm_90: -Iinclude -std=c++17", for the measurement's notes
};

// Builds `kernel` (of `file`, relative to `tree`) for `arch` with `compiler` and `arguments`.
// An Error where the unit does not compile or the cubin holds no kernel of that name; the caller
// then falls back to NVRTC and says so.
Result<ShippedKernel> build_shipped_kernel(const cuda::UnitCompiler& compiler, const std::string& tree,
                                           const std::string& file, const bench::PreparedKernel& kernel,
                                           const std::vector<std::string>& arguments, const std::string& arch);

// The unit that builds `name_expression` of `file`: an include of the file (a path inside the tree,
// relative to the tree's root) and a pointer to the instantiation.
std::string measuring_unit_text(const std::string& file, const std::string& name_expression);

}  // namespace kforecast::measure
