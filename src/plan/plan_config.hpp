// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a plan may decide in the jobs that read it. `bench --plan` (a GPU job) and
// `report --merge` (which may post with a token) are trusted; the plan they read comes from
// `pr --plan` in a job a pull request may control. So the plan's config is data, not
// configuration: it decides only how a result is judged. Every setting that loads code, names a
// program or a file to read or write, reaches the network or runs a command comes from the
// reading job's own config (--config, else the current directory's .kforecast.toml, and its
// environment), never from the plan. docs/security.md lists the keys.

#include <span>
#include <string_view>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "config/config.hpp"
#include "plan/plan_file.hpp"

namespace kforecast::plan {

// Judgement the plan decides where its config sets it: the policy's thresholds, what an
// unverified or inconclusive kernel does to the gate, the benchmark's tolerance and confidence,
// the report's format. Also its [[kernel]] launch specs (the problem a kernel is measured on: the
// same trust as a `// kforecast:` block in the kernel's own text, which the plan carries anyway).
std::span<const std::string_view> plan_judgement_keys();

// Limits of the reading job the plan may lower and never raise: the GPU budget, a pair's GPU time
// and a measurement's wall-clock time.
std::span<const std::string_view> plan_limit_keys();

// The config a job reading `plan` (the file `plan_path`) runs with: `own`, with the plan's
// judgement keys and launch specs, and its limits where they are lower; then `env`.
Result<config::Config> plan_config(const Plan& plan, std::string_view plan_path, const config::Config& own,
                                   const EnvLookup& env);

// The limits a plan is read with: PlanLimits, its size from security.max_plan_mib of `own`.
PlanLimits plan_limits(const config::Config& own);

}  // namespace kforecast::plan
