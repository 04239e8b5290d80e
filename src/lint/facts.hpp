// SPDX-License-Identifier: Apache-2.0
#pragma once

// Facts about a kernel that its source alone does not give, supplied by the caller: what the
// compiler made of it (NVRTC's ptxas report) and how it is launched (a launch spec). Either may
// be missing; rules over missing facts do not fire. lint stays pure: the gate gathers
// these (lint_run/lint_compiler_facts.cpp compiles with NVRTC; launch specs come with the benchmark
// runner's spec parser, src/bench/).

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace kforecast::lint {

struct CompilerFacts {
  std::string arch;  // "sm_90"
  int registers = 0;
  std::int64_t spill_bytes = 0;  // stores and loads together
  std::int64_t stack_frame_bytes = 0;
  std::int64_t shared_bytes = 0;  // static shared memory per block
  std::int64_t local_bytes = 0;
};

struct LaunchFacts {
  std::optional<std::int64_t> block_threads;         // threads per block (x*y*z)
  std::optional<std::int64_t> dynamic_shared_bytes;  // per block
  std::string origin;                                // where the spec was read, for messages
  // Theoretical occupancy of this launch on the target GPU (active warps over the SM's maximum),
  // computed by the caller from its per-architecture table, and what that rests on ("sm_90, 40
  // registers from NVRTC"); absent when it could not be computed.
  std::optional<double> occupancy;
  std::string occupancy_basis;
};

struct KernelFacts {
  std::optional<CompilerFacts> compiler;
  std::optional<LaunchFacts> launch;
};

// By the kernel's qualified name as the scanner reports it ("ns::k").
using FactsByKernel = std::map<std::string, KernelFacts, std::less<>>;

}  // namespace kforecast::lint
