// SPDX-License-Identifier: Apache-2.0
#pragma once

// The files a GitHub Actions step hands kforecast: $GITHUB_STEP_SUMMARY (Markdown shown on the
// run's page) and $GITHUB_OUTPUT (name=value lines for later steps). `pr` (every mode) and
// `report --merge` write them whenever the variables are set, with or without --post, so a job
// whose token may not comment still shows the report. append_step_file is the one place that
// writes them: a writer that redacts or bounds what leaves kforecast goes there.

#include <string_view>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "report/report.hpp"

namespace kforecast::report {

// Appends `text` to the file the variable `variable` names ("GITHUB_STEP_SUMMARY"); nothing where
// it is unset or empty. Each write is whole.
Result<void> append_step_file(const EnvLookup& env, std::string_view variable, std::string_view text);

// Whether any kernel still needs a GPU: its code changed and nothing settled it.
bool report_needs_gpu(const report::Report& report);

// The final report of `pr` and `report --merge`: its Markdown to the summary, `verdict` and
// `needs_gpu` to the outputs.
Result<void> write_step_report(const report::Report& report, const EnvLookup& env);

}  // namespace kforecast::report
