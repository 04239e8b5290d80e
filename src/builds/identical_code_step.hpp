// SPDX-License-Identifier: Apache-2.0
#pragma once

// The identical-code tier for `kforecast pr`: each changed kernel present at both revisions is
// compiled (device-only units, headers from the same revision) and its code compared.

#include <functional>
#include <string>
#include <vector>

#include "base/run_deadline.hpp"
#include "builds/unit_builds.hpp"
#include "cuda/compiler.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "policy/identical_code.hpp"

namespace kforecast::builds {

struct KernelCodeVerdict {
  std::vector<std::string> names;                 // the name expressions compared ("k", "tiled<64>")
  std::optional<policy::CodeComparison> outcome;  // nullopt: not compared (see note)
  std::string note;
  // For a side that failed to compile: what kforecast's context lacked (builds/compile_failure.hpp),
  // or "" for an error in the project's own code.
  std::string missing_context;
  // Who built the code compared: "nvcc 13.0 (context inferred from the tree)", or "NVRTC 13.0
  // (device code only, kforecast's own context)"; "" where nothing was compiled.
  std::string compiled_by;
  std::vector<std::string> units;  // the translation units whose builds were compared (nvcc)
  // The unit's context at each revision where nvcc built it at both (gate/kernel_case.hpp).
  std::optional<BuildArguments> build_arguments;
  // An instantiation of a template kernel the unit built at each revision ("tiled<64>"), or "".
  Instances instances;
};

struct IdenticalCodeContext {
  const cuda::Compiler& compiler;
  std::string arch;
  const policy::PtxCache* cache = nullptr;
  std::string cuda_include_dir;  // where CUDA's own headers are, or ""
  // Called before each unit pair is compiled and once at the end (done == total).
  std::function<void(std::size_t done, std::size_t total)> progress = {};
  // The run's wall budget: checked before each unit pair; the kernels left once it has passed are
  // not compared, with its reason.
  const RunDeadline* deadline = nullptr;
};

// The unit compare_changed_kernels compiles for `path` at one revision: its device-only text and
// the local headers it reaches (only context.cuda_include_dir is read).
policy::CompileUnit compile_unit(const kernels::RevisionSources& sources, const std::string& path,
                                 const IdenticalCodeContext& context);

// One verdict per entry of `changed`, in order.
std::vector<KernelCodeVerdict> compare_changed_kernels(const kernels::RevisionSources& base,
                                                       const kernels::RevisionSources& head,
                                                       const std::vector<kernel_changes::ChangedKernel>& changed,
                                                       const IdenticalCodeContext& context);

}  // namespace kforecast::builds
