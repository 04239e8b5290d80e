// SPDX-License-Identifier: Apache-2.0
#pragma once

// Resource usage per function from ptxas' verbose report (`--ptxas-options=--verbose`, which
// NVRTC prints into the program log). These are the compiler facts the forecaster reads:
// registers, spills, stack, shared memory, barriers.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::cuda {

enum class FunctionKind {
  kernel,           // "Compiling entry function 'NAME' for 'ARCH'"
  device_function,  // a non-inlined __device__ function: "Function properties for NAME" only
};

// Sizes are bytes. ptxas omits a field when it is zero (smem, barriers), so zero is the default;
// ptxas 11.8 omits barriers and the cumulative stack always (compiled_resources.hpp fills them).
struct KernelResources {
  std::string name;         // as ptxas prints it: mangled (_Z...) unless the kernel is extern "C"
  std::string source_name;  // the name expression that lowered to `name`, when one was given
  std::string arch;         // "sm_90"
  FunctionKind kind = FunctionKind::kernel;
  int registers = 0;
  int barriers = 0;
  std::int64_t stack_frame_bytes = 0;
  std::int64_t spill_store_bytes = 0;
  std::int64_t spill_load_bytes = 0;
  std::int64_t cumulative_stack_bytes = 0;
  std::int64_t shared_bytes = 0;    // static shared memory ("smem")
  std::int64_t constant_bytes = 0;  // all constant banks together ("cmem[0]", "cmem[2]", ...)
  std::int64_t local_bytes = 0;     // "lmem", printed by older ptxas instead of a stack frame
  friend bool operator==(const KernelResources&, const KernelResources&) = default;
};

// Parses every function the report describes, in the order it names them. Lines it does not
// recognise are skipped, so any input is safe (this is a fuzz target) and newer ptxas wording
// degrades to fewer facts, not to an error.
std::vector<KernelResources> parse_ptxas_report(std::string_view log);

// The function called `name` (mangled or its source name), or nullptr.
const KernelResources* find_function(std::span<const KernelResources> functions, std::string_view name);

}  // namespace kforecast::cuda
