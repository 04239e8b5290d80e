// SPDX-License-Identifier: Apache-2.0
#pragma once

// Confining a process that works on hostile input (a compiler child reading a pull request's
// code): which files it may touch, how much memory and CPU time it may take, and no network. The
// process confines itself, after it started and before it reads the input, so nothing it is
// handed later can undo it. In order: limits; no descriptor inherited but standard input, output
// and error; an empty network namespace where one can be had (base/network_confinement.hpp); no
// capability (a root process keeps none, nor gains any by running a program); no_new_privs; the
// seccomp network filter; Landlock (Linux 5.13 and later, no privileges needed) over files, and
// from its ABI 4 TCP, from ABI 6 abstract UNIX sockets and signals to processes outside. Where
// the kernel lacks a layer the result says so; whether that is enough to run code of an
// untrusted author is the caller's decision (base/sandbox_status.hpp).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/network_confinement.hpp"

namespace kforecast {

struct Confinement {
  std::vector<std::filesystem::path> readable;  // folders or files it may read and run (missing ones are skipped)
  std::vector<std::filesystem::path> writable;  // folders it may also write in
  std::uint64_t max_memory_bytes = 0;           // address space; 0: no limit
  std::uint64_t max_cpu_seconds = 0;            // 0: no limit
  SocketAccess sockets = SocketAccess::unix_only;
};

struct ConfinementApplied {
  bool files_confined = false;  // Landlock is in force
  std::string detail;           // "Landlock ABI 7", or why file access could not be confined
  NetworkStep network_filter;
  NetworkStep network_namespace;
  bool capabilities_dropped = false;  // it held some (root) and holds none now
};

// Confines the calling process, which must have one thread, for the rest of its life (and its
// children's). An Error where a limit, no_new_privs or a Landlock ruleset the kernel supports
// could not be set; a layer the kernel lacks is reported in the result.
Result<ConfinementApplied> confine_this_process(const Confinement& confinement);

// Whether this kernel can confine file access, in a form `doctor` prints.
ConfinementApplied file_confinement_support();

// Whether max_memory_bytes is enforced: not in the sanitizer build (tests only), whose runtime
// needs more address space than any limit.
bool address_space_limit_enforced();

// Makes this process's memory and /proc entries (environ, cmdline, mem) unreadable by other
// processes of the same user, children included: its environment holds the CI's tokens.
void protect_this_process_from_its_children();

}  // namespace kforecast
