// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kernels whose __global__ lives in a library and whose body is the project's: CUTLASS's
// device_kernel<Op> runs Op::operator(), and the library's header is often absent from a plain
// clone. Such a kernel is found from its launch: a template whose name is no kernel of the
// revision, launched with <<<...>>> or named where a kernel is taken (device_kernel<Op> passed to
// cudaLaunchKernelEx), whose template argument is a class with a __device__ operator() (CUTLASS's
// CUTLASS_DEVICE counts as __device__, scanner.hpp). Conservative: where the argument is not
// such a class (Op, a wrapper's template parameter: run_op<MyOp> launching device_kernel<Op>),
// every such class that appears as a template argument anywhere in the revision counts.

#include <string>
#include <vector>

#include "kernels/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::kernels {

struct LibraryKernel {
  std::string launcher;  // the library template as written: "cutlass::device_kernel"
  std::string op;        // the class, qualified: "demo::ScaleOp"
  KernelSite body;       // its operator(): "demo::ScaleOp::operator()"
  std::string name() const { return launcher + "<" + op + ">"; }
};

// In file order, each class once (the first launcher seen names it).
std::vector<LibraryKernel> library_kernels(const RevisionSources& sources);

}  // namespace kforecast::kernels
