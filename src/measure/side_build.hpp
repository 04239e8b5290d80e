// SPDX-License-Identifier: Apache-2.0
#pragma once

// One side of a pair built for a measuring process (measure/measuring_process.hpp): by the
// project's nvcc with its context where the parent handed a project build (measure/shipped_build.hpp),
// else by NVRTC, and kept in the decision's builds folder, where the decision's later processes
// (a regression's confirmation) load it instead of compiling again.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "bench/runner.hpp"
#include "cuda/compiler.hpp"
#include "cuda/nvcc_unit.hpp"
#include "measure/bench_measure.hpp"
#include "measure/shipped_build.hpp"

namespace kforecast::measure {

// Machine code kept in a folder: KEY.cubin, and KEY.build with the kernel's lowered name on its
// first line and the build's notes on the lines after. Written to a temporary name and renamed, so
// a reader never sees half a build. An empty folder keeps nothing.
struct KeptBuild {
  std::vector<std::byte> cubin;
  std::string lowered_name;
  std::vector<std::string> notes;
};
std::optional<KeptBuild> read_kept_build(const std::filesystem::path& folder, const std::string& key);
void keep_build(const std::filesystem::path& folder, const std::string& key, const KeptBuild& build);

// The builds folder's name for one side of a pair: the same pair in another process of the same
// decision finds the same file.
std::string side_build_key(const BenchPair& pair, std::string_view role);

// One side's build: its machine code, or why it has none, and the notes that say which build it
// is ("the reference was built by nvcc 13.0.88 for sm_90: ...").
struct SideBuild {
  Result<bench::CompiledKernel> kernel;
  std::vector<std::string> notes;
};

// What building one side reads. Copied into the thread that builds it; the pointers must outlive
// the build (the measuring process holds them).
struct SideBuildRequest {
  const cuda::Compiler* nvrtc = nullptr;
  const cuda::UnitCompiler* nvcc = nullptr;  // null: NVRTC builds it
  std::optional<ProjectBuild> project_build;  // the trees and contexts nvcc builds with
  const PreparedPair* prepared = nullptr;
  BenchPair pair;                       // for the kept build's key
  std::string arch;                     // "sm_90"
  std::filesystem::path builds_folder;  // empty: nothing kept
  bool reference = true;                // which side
};

// The side kept in the builds folder, else built (nvcc first where it is given, NVRTC where nvcc
// cannot build it, with a note saying why) and kept. A side that does not compile is an Error in
// SideBuild::kernel, never a throw.
SideBuild build_side(const SideBuildRequest& request);

}  // namespace kforecast::measure
