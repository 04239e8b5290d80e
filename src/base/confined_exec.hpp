// SPDX-License-Identifier: Apache-2.0
#pragma once

// Running a program that cannot confine itself (nvcc, and the programs it starts: cudafe++, cicc,
// ptxas, the host compiler) on code under review. kforecast re-executes itself as
//   kforecast __confined-exec --read PATH ... --write PATH --memory N --cpu-seconds N --sockets none|unix
//       -- PROGRAM ARGS...
// confines itself (process_confinement.hpp) and then replaces itself with PROGRAM: the Landlock
// rules, the network filter and namespace and the limits pass to it and to everything it starts, and nothing it is handed can undo
// them. The caller gives the child an environment without secrets (ProcessOptions::environment).

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "base/process_confinement.hpp"

namespace kforecast {

inline constexpr std::string_view confined_exec_command = "__confined-exec";

// The arguments after `kforecast __confined-exec` that run `program` (argv, argv[0] an absolute
// path) under `confinement`.
std::vector<std::string> confined_exec_arguments(const Confinement& confinement, const std::vector<std::string>& program);

struct ConfinedExec {
  Confinement confinement;
  std::vector<std::string> program;
};
Result<ConfinedExec> parse_confined_exec_arguments(std::span<const std::string> arguments);

// The child's whole life: confines, then execs the program. Returns only when that failed (the
// status to exit with; the reason is written to `err`).
int run_confined_exec(std::span<const std::string> arguments, std::ostream& err);

}  // namespace kforecast
