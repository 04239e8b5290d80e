// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every launch spec of a repository read at once, so a mistake shows when the spec is written
// (`kforecast config`), not when a benchmark first needs it in CI: the config's [[kernel]] tables
// and each `// kforecast:` block above a kernel in the work tree's CUDA sources. The readers are
// the ones `bench` uses, so a spec that passes here reads the same there.

#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "git/repository.hpp"

namespace kforecast::measure {

struct SpecCheck {
  int config_specs = 0;   // [[kernel]] tables that read
  int comment_specs = 0;  // `// kforecast:` blocks that read
  std::vector<std::string> problems;  // "FILE:LINE:COL: ...", each naming the key
  std::vector<std::string> notes;     // checks that could not run, and why
};

// `repository` may be null (no repository: only the config's tables are read).
SpecCheck check_launch_specs(const config::Config& config, const git::Repository* repository);

// The CUDA sources among `paths` whose specs are read: .cu, .cuh and the C++ header endings.
bool holds_cuda_kernels(std::string_view path);

}  // namespace kforecast::measure
