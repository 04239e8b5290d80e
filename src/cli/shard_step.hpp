// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast bench --plan PLAN --shard I/N` (a GPU runner): measures shard I of N of the plan's
// kernels (positions I-1, I-1+N, ... of its riskiest-first list) exactly as `kforecast pr`
// would (gate/pr_bench.hpp: one measuring process for the shard's pairs, the plan's config, ledger lines), and writes
// the results (plan/shard_results.hpp) to --output or standard output. Without a GPU every kernel
// of the shard is recorded unmeasured with the reason. Exit 0 once the results are written: the
// verdict is report --merge's.

#include "base/error.hpp"
#include "cli/command.hpp"

namespace kforecast::cli {

Result<ExitCode> bench_shard_command(const Invocation& invocation, Context& context);

}  // namespace kforecast::cli
