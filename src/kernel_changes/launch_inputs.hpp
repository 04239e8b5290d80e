// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a launch's template arguments and configuration name, and whether those names mean
// something else at the head. `sgemm<BM, BN><<<grid, block>>>(...)` runs another instantiation
// when `const uint BM = 64;` in the launching function becomes 128, or when `dim3 grid(N / BN)`
// is sized by a BN that changed, though the launch's own text reads the same
// (kernels/launch_sites.hpp compares that text only).
//
// A name is looked up as the preprocessor and the compiler would, without types: a macro of
// the file or a header it includes, else the last declaration of it in the launching function
// before the launch (`const`, `constexpr`, `auto`, `int`, `dim3` ..., or a parameter), else a
// file-scope declaration of the file or its headers. The names a definition uses are followed in turn,
// a few steps deep (grid -> BN), so that the change is found where it was made. A template
// parameter of a generic lambda or a function template around the launch means what its calls
// give it (`launch.template operator()<16, 64>()`, `run<128>(...)`); a class named as a template
// argument, or given as the argument a kernel template deduces its template arguments from
// (`scale<<<g, b>>>(params)` with `const ForwardParams params`), means its definition.

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/revision_sources.hpp"

namespace kforecast::kernel_changes {

struct LaunchInputChange {
  std::string kernel;      // as written at the launch: "k", "ns::k"
  std::uint32_t line = 0;  // of the launch, at the head
  // "launch template argument BK changed (src/runner.cu:369)", "launch configuration argument
  // grid changed through BN (src/runner.cu:369)".
  std::string reason;
};

// The launches of `head_path` that read as they did in `base_path` (same kernel, arguments and
// configuration, matched in order) but name something whose definition differs. Bounded: a
// few steps deep and a fixed number of names per launch, whatever the input.
std::vector<LaunchInputChange> changed_launch_inputs(const kernels::RevisionSources& base, const std::string& base_path,
                                                     const kernels::RevisionSources& head,
                                                     const std::string& head_path);

}  // namespace kforecast::kernel_changes
