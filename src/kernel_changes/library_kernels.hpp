// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kernels whose __global__ lives in a library and whose body is the project's: CUTLASS's
// device_kernel<Op> runs Op::operator(), and the library's header is often absent from a plain
// clone. Such a kernel is found from its launch: a template whose name is no kernel of the
// revision, launched with <<<...>>> or named where a kernel is taken (device_kernel<Op> passed to
// cudaLaunchKernelEx), whose template argument is a class with a __device__ operator() (CUTLASS's
// CUTLASS_DEVICE counts as __device__, kernels/scanner.hpp). Conservative: where the argument is
// not such a class (Op, a wrapper's template parameter: run_op<MyOp> launching
// device_kernel<Op>), every such class that appears as a template argument anywhere in the
// revision counts.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::kernel_changes {

struct LibraryKernel {
  std::string launcher;  // the library template as written: "cutlass::device_kernel"
  std::string op;        // the class, qualified: "demo::ScaleOp"
  KernelSite body;       // its operator(): "demo::ScaleOp::operator()"
  std::string name() const { return launcher + "<" + op + ">"; }
};

// In file order, each class once (the first launcher seen names it).
std::vector<LibraryKernel> library_kernels(const kernels::RevisionSources& sources);

// Adds to `analysis` each library kernel whose class's operator(), or what it reaches, changed:
// reported under the operator()'s name, the first reason naming the library kernel. Classes at
// one revision only are left out: no kernel of the base or the head is theirs to compare.
// `to_head_path` maps a renamed file's base path to its head path.
void add_library_kernel_changes(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                const std::map<std::string, std::string>& to_head_path,
                                const std::set<std::string, std::less<>>& touched, ChangeAnalysis& analysis);

}  // namespace kforecast::kernel_changes
