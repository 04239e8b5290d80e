// SPDX-License-Identifier: Apache-2.0
#pragma once

// Compiler facts for the LLM prompt: one revision's kernel compiled by NVRTC for the target GPU
// (machine code, so ptxas reports its resources), summarised as a few lines of text: registers,
// spills, stack, shared/local/constant memory, barriers, and the PTX instruction mix.

#include <string>

#include "cuda/compiler.hpp"
#include "policy/identical_code.hpp"

namespace kforecast::forecasters {

// "" when the unit does not compile or the kernel is not found: facts are optional.
std::string compiler_facts(const cuda::Compiler& compiler, const policy::CompileUnit& unit,
                           const std::string& name_expression, const std::string& arch);

// The instruction mix of one .entry in PTX text: counts of global/shared loads and stores,
// FMAs, tensor-core mma, atomics, barriers, branches. Exposed for tests.
std::string ptx_instruction_mix(const std::string& ptx, const std::string& entry_name);

}  // namespace kforecast::forecasters
