// SPDX-License-Identifier: Apache-2.0
#pragma once

// Sandbox statuses as a machine would report them (base/sandbox_status.hpp), for tests of what
// depends on them without probing the machine they run on.

#include "base/sandbox_status.hpp"

namespace kforecast::testing {

// Every layer in force, as on a Linux with Landlock run as root.
inline SandboxStatus sandbox_in_force() {
  return {{true, "Landlock ABI 7: files, TCP, abstract UNIX sockets and signals confined"},
          {true, "seccomp filter: no socket but AF_UNIX, no io_uring"},
          {true, "an empty network namespace"},
          {true, "no_new_privs set"},
          {true, "memory, CPU-time and core-dump limits set"}};
}

// A kernel without Landlock: the network is blocked, files are not confined.
inline SandboxStatus sandbox_without_landlock() {
  auto status = sandbox_in_force();
  status.files = {false, "Landlock unavailable (this kernel lacks it, or a container's seccomp profile refuses its "
                         "system calls)"};
  return status;
}

// Landlock, and nothing that keeps the network out.
inline SandboxStatus sandbox_without_network() {
  auto status = sandbox_in_force();
  status.network_filter = {false, "the kernel refused a seccomp filter (Operation not permitted)"};
  status.network_namespace = {false, "no network namespace: unshare refused it (Operation not permitted)"};
  return status;
}

}  // namespace kforecast::testing
