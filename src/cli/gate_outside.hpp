// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real outside world handed to the gate (gate/outside.hpp), from cli/real_world.hpp's pieces,
// and the caches it points into. Built once per command, here and nowhere else.

#include "base/sandbox_status.hpp"
#include "cli/command.hpp"
#include "cli/real_world.hpp"
#include "config/config.hpp"
#include "gate/outside.hpp"

namespace kforecast::cli {

// What confines code under review on this machine (base/sandbox_status.hpp), probed the first
// time it is asked for and kept for the rest of the command.
const SandboxStatus& this_machine_sandbox();

// One command's gate::Outside and what it points to. `config` and `context` must outlive it.
class RealOutside {
 public:
  RealOutside(const config::Config& config, Context& context);
  RealOutside(const RealOutside&) = delete;
  RealOutside& operator=(const RealOutside&) = delete;

  gate::Outside& outside() { return m_outside; }

 private:
  OpenedCaches m_caches;
  gate::Outside m_outside;
};

}  // namespace kforecast::cli
