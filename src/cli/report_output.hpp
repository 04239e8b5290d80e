// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writing the final report the way `kforecast pr` and `kforecast report --merge` both do:
// --format md|json|sarif (else the config's report.format) to --output or standard output, the
// GitHub Actions step summary and outputs wherever they are set (report/step_files.hpp), and with
// --post the comment (publish/report_comment.hpp); the exit code is the gate's.

#include "base/error.hpp"
#include "cli/command.hpp"
#include "config/config.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

Result<ExitCode> write_report(const report::Report& report, const config::Config& config, const Invocation& invocation,
                              Context& context);

// write_report, then publish::deliver_report.
Result<ExitCode> deliver_report(const report::Report& report, const config::Config& config,
                                const Invocation& invocation, Context& context);

}  // namespace kforecast::cli
