// SPDX-License-Identifier: Apache-2.0
#pragma once

// Fakes the gate's tests share: a compiler whose machine code is a function of the source's
// length, and a measurement built as a value.

#include <string>

#include "bench/measurement.hpp"
#include "cuda/compiler.hpp"

namespace kforecast::test {

// Every requested name becomes an entry whose body is the source's length, so the code differs
// exactly when the unit's text does.
inline Result<cuda::CompileOutput> compile_by_length(const cuda::CompileRequest& request) {
  cuda::CompileOutput output;
  output.ptx = ".version 9.0\n.target sm_90\n";
  for (const auto& expression : request.name_expressions) {
    const std::string lowered = "_Z" + std::to_string(output.lowered_names.size());
    output.ptx += ".visible .entry " + lowered + "(\n)\n{\nlen" + std::to_string(request.source.size()) + ";\n}\n";
    output.lowered_names.push_back({expression, lowered});
  }
  return output;
}

// A measurement of `speedup` on an H100 with a ±2% interval.
inline bench::Measurement measured(bench::Verdict verdict, double speedup, double gpu_seconds) {
  bench::Measurement m;
  m.verdict = verdict;
  m.interval = {speedup, speedup * 0.98, speedup * 1.02, 8};
  m.t_base_us = 100;
  m.t_head_us = 100 / speedup;
  m.gpu = "NVIDIA H100 80GB HBM3";
  m.driver = "550.54.15 (CUDA 12.4)";
  m.gpu_seconds = gpu_seconds;
  return m;
}

}  // namespace kforecast::test
