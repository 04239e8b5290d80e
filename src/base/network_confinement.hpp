// SPDX-License-Identifier: Apache-2.0
#pragma once

// Keeping a confined process (a compiler, a harness command: code under review) off the network,
// so that what it may have read cannot be sent anywhere. Two layers, each applied where the
// machine allows it (base/sandbox_status.hpp says which do here):
// - a seccomp-BPF filter, which needs no privilege and works inside containers: `socket` and
//   `socketpair` are refused (EACCES) for every address family but AF_UNIX (or for all of them),
//   io_uring (which can open sockets without those calls) does not exist (ENOSYS), another
//   process's descriptors cannot be taken (`pidfd_getfd`, EPERM), and system calls of another ABI
//   than the binary's own (x32, or 32-bit `int 0x80` with its `socketcall`) are refused (ENOSYS),
//   so no second system-call table reaches around the rules;
// - an empty network namespace (no interface but a loopback that is down): as root directly, else
//   inside a new user namespace whose only mapping is the process's own user and group, so files
//   keep the owners they had.

#include <string>

namespace kforecast {

enum class SocketAccess {
  unix_only,  // AF_UNIX stays (the CUDA driver's daemons, a build tool's local IPC)
  none,       // no socket at all: compilers need none
};

struct NetworkStep {
  bool applied = false;
  std::string detail;  // what was applied, or why it was not (the system's reason)
};

// Installs the filter on the calling process (every thread) for the rest of its life and its
// children's. Needs no_new_privs (PR_SET_NO_NEW_PRIVS) set first.
NetworkStep install_network_filter(SocketAccess sockets);

// Moves the calling process, which must have one thread, into a new, empty network namespace.
// Where neither way works the process is left where it was.
NetworkStep enter_empty_network_namespace();

}  // namespace kforecast
