// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a kernel's source says about its performance, read from tokens (the scanner's lexer), so
// it works on code that does not compile and on any bytes: loops and their nesting, unrolling,
// shared memory, barriers, atomics, shuffles, vector types, tensor-core code, how subscripts use
// the thread index, per-thread arrays, FP64, math calls, branches. The kernel's body is read
// together with the bodies of the device functions it reaches in the same source.

#include <array>
#include <memory>
#include <string_view>

#include "kernels/scanner.hpp"

namespace kforecast::kernels {
class CallGraph;
}

namespace kforecast::embedded {

struct SourceFeatures {
  bool kernel_found = false;  // false: the kernel is not in the source; every count is 0
  double loops = 0;
  double loop_depth = 0;
  double unroll_pragmas = 0;
  double shared_arrays = 0;
  double padded_shared_arrays = 0;  // a dimension padded ("[TILE + 1]", "[PAD(N)]"): against bank conflicts
  double barriers = 0;
  double atomics = 0;
  double warp_shuffles = 0;
  double vector_accesses = 0;
  double tensor_core_code = 0;
  double thread_linear_accesses = 0;
  double thread_strided_accesses = 0;
  double thread_strided_stores = 0;
  double local_arrays = 0;
  double fp64_code = 0;
  double math_calls = 0;
  double branches = 0;
  double source_tokens = 0;
};

// `kernel` is the __global__ function's name, qualified or not, with or without template
// arguments ("sgemm<64, 64>" reads the template sgemm). The first definition with that name wins.
SourceFeatures extract_source_features(std::string_view source, std::string_view kernel);

// A source scanned once for the features of any number of its kernels: extracting each kernel of
// a file from the raw text scans the whole file again, which made a file of 1,000 kernels
// quadratic. The source must outlive it.
class ScannedKernelSource {
 public:
  explicit ScannedKernelSource(std::string_view source);
  ~ScannedKernelSource();
  ScannedKernelSource(const ScannedKernelSource&) = delete;
  ScannedKernelSource& operator=(const ScannedKernelSource&) = delete;

  // What extract_source_features(source, kernel) gives.
  SourceFeatures features(std::string_view kernel) const;

 private:
  std::string_view m_source;
  kernels::ScannedSource m_scanned;
  std::unique_ptr<kernels::CallGraph> m_graph;  // refers to m_scanned
};

// The counts of one piece of code (a body), without looking up a kernel: what the extractor
// applies to each body it reads. Exposed for tests.
SourceFeatures count_source_features(std::string_view code);

}  // namespace kforecast::embedded
