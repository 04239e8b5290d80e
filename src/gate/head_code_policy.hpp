// SPDX-License-Identifier: Apache-2.0
#pragma once

// Whether the change's head, code its author wrote, may be compiled and run on this machine: by
// nvcc and NVRTC (the identical-code tier, the forecasters' compiler facts), and by the measuring
// step (the benchmark child, the project's harness, capture.command). An untrusted author's head
// (git/change_author.hpp: a fork's pull request, say) only where the sandbox holds
// (base/sandbox_status.hpp: file access confined, and no network), for a compile that reads the
// runner's secrets must have nowhere to send them. Where it does not hold, each kernel is
// forecast from its source alone, and the report says once, at its top, why and how to fix it.
// A trusted author's head (a local run, a branch of the repository) is compiled and run all the
// same, and the report notes what was not confined.

#include <string>

#include "base/sandbox_status.hpp"
#include "gate/pr_bench.hpp"
#include "git/change_author.hpp"
#include "report/report.hpp"

namespace kforecast::gate {

struct HeadCodePolicy {
  bool runs = true;
  report::RunWarning refusal;   // !runs: why the head was neither compiled nor run, and the fix
  std::string unconfined_note;  // runs with a layer missing: "not confined: ..."; else ""

  // The measuring step's switch where the head does not run: each kernel's reason refers to
  // the refusal rather than repeating it.
  NoBench no_bench() const;
};

HeadCodePolicy head_code_policy(const git::ChangeAuthor& author, const SandboxStatus& sandbox);

}  // namespace kforecast::gate
