// SPDX-License-Identifier: Apache-2.0
#pragma once

// Whether a kernel's machine code, or anything else that decides how it runs, changed between
// the base and the head revision of a pull request: when nothing did, the kernel needs no
// benchmark ("identical_code").

#include <optional>
#include <string>
#include <vector>

#include "cubin/cubin_kernel.hpp"

namespace kforecast::cubin {

// nullopt where the two builds of a kernel are identical in everything CubinKernel holds;
// else what differs, most telling first, separated by "; ": "registers 32 → 40; code differs
// (52 → 60 instructions)", "launch bounds 256 → 128 threads", "static shared memory 1536 → 2048
// bytes", "callee _Z6helperf changed". Code identical with different attributes is a
// difference: a __launch_bounds__ or shared memory change can leave the instructions alone.
// Code that differs only in the offsets at which it reads module data, each naming the same
// variable, string or function in both builds, is the same code (module_reference.hpp): the
// data moved, which `compare` below reports as module data.
// Whether the data every kernel of the unit may read (constant banks, initialised globals) is
// compared: `compare` for a verdict (a change there may change any kernel: never "identical"),
// `ignore` to ask whether the kernel's own code, callees, attributes and sections changed.
enum class ModuleData { compare, ignore };

std::optional<std::string> kernel_difference(const CubinKernel& base, const CubinKernel& head,
                                             ModuleData module_data = ModuleData::compare);

// Base and head kernels paired by normalized_symbol. Pointers into the vectors given, valid
// while they are. Where a name occurs more than once on a side (a malformed cubin), the n-th
// occurrence pairs with the n-th.
struct KernelPairs {
  struct Pair {
    const CubinKernel* base = nullptr;
    const CubinKernel* head = nullptr;
  };
  std::vector<Pair> paired;                 // in the order of the head kernels
  std::vector<const CubinKernel*> removed;  // only in the base build
  std::vector<const CubinKernel*> added;    // only in the head build
};

KernelPairs pair_kernels(const std::vector<CubinKernel>& base, const std::vector<CubinKernel>& head);

}  // namespace kforecast::cubin
