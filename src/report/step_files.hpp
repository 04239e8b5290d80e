// SPDX-License-Identifier: Apache-2.0
#pragma once

// The files a GitHub Actions step hands kforecast: $GITHUB_STEP_SUMMARY (Markdown shown on the
// run's page) and $GITHUB_OUTPUT (name=value lines for later steps). `pr` (every mode) and
// `report --merge` write them whenever the variables are set, with or without --post, so a job
// whose token may not comment still shows the report. This is the one place that writes them:
// everything passes redaction, and the summary is cut to stay within GitHub's limit.

#include <cstddef>
#include <string_view>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "report/report.hpp"

namespace kforecast::report {

// GitHub takes at most 1 MiB (1,048,576 bytes) of summary per step and drops a bigger one whole;
// kforecast keeps what it appends, with what the file already holds, within this.
inline constexpr std::size_t github_summary_limit = 1'000'000;

// Where the full report is when the summary had to be cut, unless the caller knows better.
inline constexpr std::string_view full_report_elsewhere =
    "the job's log; to keep it whole, also write it with `--format json --output FILE` and upload FILE as an "
    "artifact";

// Appends `text` to the file the variable `variable` names ("GITHUB_OUTPUT"); nothing where it is
// unset or empty. Each write is whole. Text for GITHUB_STEP_SUMMARY goes through
// append_step_summary, with full_report_elsewhere.
Result<void> append_step_file(const EnvLookup& env, std::string_view variable, std::string_view text);

// Appends `markdown` to $GITHUB_STEP_SUMMARY, cut (comment_fit.hpp) so that the file stays within
// `limit` bytes, with a note saying how many lines were cut and that the full report is in
// `full_report`. Where the file is already too full for even the note, nothing is appended.
Result<void> append_step_summary(const EnvLookup& env, std::string_view markdown, std::string_view full_report,
                                 std::size_t limit = github_summary_limit);

// Whether any kernel still needs a GPU: its code changed and nothing settled it.
bool report_needs_gpu(const report::Report& report);

// The final report of `pr` and `report --merge`: its Markdown to the summary (cut to fit, naming
// `full_report`), `verdict` and `needs_gpu` to the outputs.
Result<void> write_step_report(const report::Report& report, const EnvLookup& env,
                               std::string_view full_report = full_report_elsewhere);

}  // namespace kforecast::report
