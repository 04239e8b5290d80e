// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which preprocessor branches a CUDA build compiles, so that no rule fires on code nvcc never
// sees. The scanner honours only #if 0 and #if 1; lint also decides the conditions a CUDA build
// settles the same way everywhere:
//   - HIP and ROCm macros are not defined: USE_ROCM, __HIP_PLATFORM_AMD__, __HIPCC__, and any
//     upper-case macro with HIP, ROCM, HCC or AMD as one of its '_'-separated words (a project's
//     own BNB_HIP), so `#ifdef USE_ROCM` is dead and its `#else` live;
//   - __CUDACC__ is defined;
//   - __CUDA_ARCH__ compared with numbers is the device pass of a GPU of sm_70 (Volta) or later:
//     `__CUDA_ARCH__ < 700` is dead, `__CUDA_ARCH__ >= 800` may go either way; whether
//     __CUDA_ARCH__ is defined at all (host or device pass) is not decided;
//   - the toolkit is CUDA 11 or later (CUDA_VERSION, CUDART_VERSION, __CUDACC_VER_MAJOR__), so
//     `#if CUDA_VERSION < 9000` (before the _sync intrinsics) is dead;
//   - object-like macros this file defines with a value (#define USE_SHARED 1), until #undef.
// Anything else (a macro from the build or a header) is unknown, and all of its branches stay
// live, as the scanner keeps them.

#include <cstddef>
#include <string_view>
#include <vector>

#include "kernels/token.hpp"

namespace kforecast::lint {

struct LiveCode {
  std::vector<kernels::Token> code;  // the code tokens of live branches, outside directives
  // Byte ranges [begin, end) of dead branches, in order: from the directive that starts one to
  // the directive that ends it.
  std::vector<std::pair<std::size_t, std::size_t>> dead;
  // The live branches of each conditional this file cannot settle, as byte ranges [begin, end):
  // code in two of them is never compiled together (#ifdef FAST ... #else ... #endif).
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> alternatives;
};

LiveCode cuda_live_code(std::string_view text);

// Whether byte `offset` lies in a dead branch.
bool in_dead_branch(const LiveCode& live, std::size_t offset);
// Whether bytes `a` and `b` lie in two different branches of one unsettled conditional.
bool in_alternative_branches(const LiveCode& live, std::size_t a, std::size_t b);

}  // namespace kforecast::lint
