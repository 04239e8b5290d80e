// SPDX-License-Identifier: Apache-2.0
#pragma once

// The first evidence tier: a kernel whose code did not change cannot have changed speed. NVRTC's
// PTX is split into its functions and module variables, and each kernel gets a canonical text:
// its body and everything it reaches (called functions, module-scope variables with their
// initialisers), with debug information dropped and compiler-chosen local names (labels, local
// depots, demoted shared variables, the kernel's own name and parameter names) renamed in order
// of first use. Equal canonical texts mean equal code, so the kernel's machine code is identical
// (ptxas is deterministic for equal PTX and options). Unequal texts claim nothing.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::policy {

struct PtxFunction {
  bool entry = false;               // .entry (a kernel) or .func (a device function)
  std::vector<std::string> tokens;  // the whole definition, comments and debug lines removed
};

struct PtxModule {
  std::string header;  // .version/.target/.address_size, normalised
  std::map<std::string, PtxFunction, std::less<>> functions;
  std::map<std::string, std::string, std::less<>> variables;  // name -> definition text
};

// Never fails: text that is not PTX gives a module with fewer (or no) functions.
PtxModule parse_ptx(std::string_view ptx);

// The canonical code of the kernel `entry_name` (its lowered name), or nullopt when the module
// has no such entry.
std::optional<std::string> canonical_kernel_code(const PtxModule& module, std::string_view entry_name);

}  // namespace kforecast::policy
