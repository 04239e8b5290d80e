// SPDX-License-Identifier: Apache-2.0
#pragma once

// One GPU job of a plan (`kforecast bench --plan PLAN --shard I/N`): shard I of N of the plan's
// kernels (positions I-1, I-1+N, ... of its riskiest-first list) measured exactly as `kforecast
// pr` would (gate/pr_bench.hpp: one measuring process for the shard's pairs, the plan's config, ledger lines), and
// what came of each as results (plan/shard_results.hpp). Without a GPU every kernel of the shard
// is recorded unmeasured with the reason.

#include <cstddef>
#include <string>

#include "gate/outside.hpp"
#include "plan/plan_file.hpp"
#include "gate/settings.hpp"
#include "plan/shard_results.hpp"
#include "git/change_author.hpp"

namespace kforecast::plan {

// `hash`: the plan's (plan_hash), so report --merge can refuse results of another plan;
// `settings`: the plan's config read; `author`: the change's, as this job's CI says: an untrusted
// author's kernels are measured only where this machine's sandbox holds (gate/head_code_policy.hpp).
ShardResults measure_shard(const Plan& plan, std::string hash, std::size_t index, std::size_t count,
                           const gate::Settings& settings, const git::ChangeAuthor& author, gate::Outside& outside);

}  // namespace kforecast::plan
