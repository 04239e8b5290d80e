// SPDX-License-Identifier: Apache-2.0
#pragma once

// The identical-code tier: compile a translation unit at both revisions for the target GPU and
// compare, kernel by kernel, the canonical code (ptx_code.hpp). Identical code settles a kernel
// for free: speedup exactly 1, no forecast, no benchmark.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuda/compiler.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::policy {

// One revision's side of a comparison: the unit to compile and the kernels in it, as NVRTC name
// expressions ("scale<64>", "ns::kernel").
struct CompileUnit {
  std::string file_name;
  std::string source;
  std::vector<cuda::SourceHeader> headers;
  std::vector<std::string> include_dirs;
  std::vector<std::string> options;  // passed to the compiler as they are
};

// A kernel to compare: its name expression on each side (they differ for a rename).
struct KernelToCompare {
  std::string base_expression;
  std::string head_expression;
};

// both_failed: neither side compiles (the detail is the head's error).
enum class CodeComparison { identical, different, base_failed, head_failed, both_failed };

struct KernelCodeResult {
  CodeComparison comparison = CodeComparison::different;
  std::string detail;  // the compile error, or which side lacked the kernel
};

struct CompareOptions {
  std::string arch = "sm_90";  // the code compared is for this target
  const PtxCache* cache = nullptr;
};

// Compiles both units (in parallel) once for all kernels and compares each.
std::vector<KernelCodeResult> compare_kernel_code(const cuda::Compiler& compiler, const CompileUnit& base,
                                                  const CompileUnit& head, std::span<const KernelToCompare> kernels,
                                                  const CompareOptions& options);

}  // namespace kforecast::policy
