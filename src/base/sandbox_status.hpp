// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which layers of the sandbox (base/process_confinement.hpp) hold on this machine, found by
// applying them in a child exactly as a compiler child applies them, and checking each took (an
// Internet socket refused, a UNIX one allowed, io_uring absent, no interface with an address, a
// folder outside the rules unreadable): a kernel may have a layer and a container still refuse
// it. The child is kforecast started afresh
// as `kforecast __sandbox-probe` with an empty environment, as the compiler child is: a fork of
// kforecast would hold a copy of its memory (the CI's tokens) and, to write its user namespace's
// id maps, would have to make itself readable by the same user. Probed once per command, by the
// command itself (cli), and handed to what decides whether code under review may run here (an
// untrusted author's needs files confined and the network out of reach) and to `doctor`.

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "base/status_line.hpp"

namespace kforecast {

struct Protection {
  bool in_force = false;
  std::string detail;  // what holds ("Landlock ABI 7: ..."), or why it does not
};

struct SandboxStatus {
  Protection files;              // Landlock
  Protection network_filter;     // the seccomp filter
  Protection network_namespace;  // an empty network namespace
  Protection no_new_privs;       // and no capability kept
  Protection limits;             // memory, CPU time, core dumps

  // What code of an untrusted author needs: file access confined, and no network (the filter or
  // the namespace, either suffices).
  bool confines_untrusted_code() const;
  // The layers that code of an untrusted author needs and that are missing, with the system's
  // reason ("Landlock unavailable (...)"), joined by "; "; "" where none is.
  std::string missing() const;
  // How to get the missing layers, one sentence; "" where none is.
  std::string how_to_fix() const;
};

inline constexpr std::string_view sandbox_probe_command = "__sandbox-probe";

// Runs `kforecast_program __sandbox-probe` and reads back what held. Never fails: a child that
// could not be started is a status with nothing in force, which says so.
SandboxStatus probe_sandbox(const std::string& kforecast_program);

// The probing child's whole life: applies every layer, checks each and writes one line per layer
// to `out`. Returns the exit status.
int run_sandbox_probe(std::ostream& out);

// `doctor`'s lines: a label ("sandbox", "landlock", ...) and a plain sentence, with what to do
// where a layer is missing.
std::vector<StatusLine> describe_sandbox(const SandboxStatus& status);

}  // namespace kforecast
