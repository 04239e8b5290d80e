// SPDX-License-Identifier: Apache-2.0
#pragma once

// `--post` of `kforecast pr` and `kforecast report --merge`: the report as one sticky comment on
// the pull request (GitHub Actions) or merge request (GitLab CI). Where the run is comes from the
// CI's own variables; tokens only from the environment. On GitHub, a `pull_request` run posts to
// its pull request, and a `workflow_run` run (the fork recipe, docs/ci/github.md) to the open pull
// request whose head the run it follows ran on, refusing a report of any other commit. (The step
// summary and outputs are report/step_files.hpp's, written with or without --post.)

#include <iosfwd>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "http/http_transport.hpp"
#include "report/report.hpp"

namespace kforecast::publish {

// A token the forge refuses (a fork's read-only token: 403; 401; 404) is a warning on stderr
// naming the fix, not an error: the exit code stays the gate's. Every other failure is an error.
Result<void> post_report(const report::Report& report, const EnvLookup& env, const http::HttpTransport& transport,
                         std::ostream& warnings);

}  // namespace kforecast::publish
