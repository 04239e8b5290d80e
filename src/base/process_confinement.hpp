// SPDX-License-Identifier: Apache-2.0
#pragma once

// Confining a process that works on hostile input (a compiler child reading a pull request's
// code): which files it may touch, how much memory and CPU time it may take. The process confines
// itself, after it started and before it reads the input, so nothing it is handed later can undo
// it. File access is confined with Landlock (Linux 5.13 and later, no privileges needed); where
// the kernel lacks it the result says so and the caller reports it, since the only defence left
// is what the caller did before starting the process.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace kforecast {

struct Confinement {
  std::vector<std::filesystem::path> readable;  // folders or files it may read and run (missing ones are skipped)
  std::vector<std::filesystem::path> writable;  // folders it may also write in
  std::uint64_t max_memory_bytes = 0;           // address space; 0: no limit
  std::uint64_t max_cpu_seconds = 0;            // 0: no limit
};

struct ConfinementApplied {
  bool files_confined = false;  // Landlock is in force
  std::string detail;           // "Landlock ABI 7", or why file access could not be confined
};

// Confines the calling process for the rest of its life (and its children's). An Error where a
// limit could not be set.
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
