// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast pr --post`: the report as one sticky comment on the pull request (GitHub Actions)
// or merge request (GitLab CI), and in GitHub Actions also the step summary ($GITHUB_STEP_SUMMARY)
// and the step's outputs ($GITHUB_OUTPUT: verdict, needs_gpu). Where the run is comes from the
// CI's own variables; tokens only from the environment.

#include "base/error.hpp"
#include "cli/command.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

// Whether any kernel still needs a GPU: its code changed and nothing settled it.
bool report_needs_gpu(const report::Report& report);

Result<void> post_report(const report::Report& report, Context& context);

}  // namespace kforecast::cli
