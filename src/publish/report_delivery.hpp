// SPDX-License-Identifier: Apache-2.0
#pragma once

// What follows a written report, the same for `pr` and `report --merge`: the warning that names
// kernels the gate could not judge (where a CI log shows it, not only in the report), the GitHub
// Actions step summary and outputs wherever they are set (report/step_files.hpp), and with a
// transport the pull request's comment (publish/report_comment.hpp). Each only once the one
// before it worked.

#include <ostream>
#include <string>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "http/http_transport.hpp"
#include "report/report.hpp"

namespace kforecast::publish {

struct Delivery {
  std::string on_unverified;  // policy.on_unverified, named in the warning
  std::string full_report;    // where the whole report is, when the summary must be cut
  const http::HttpTransport* post = nullptr;  // --post: the comment goes through it; nullptr: none
};

Result<void> deliver_report(const report::Report& report, const Delivery& delivery, const EnvLookup& env,
                            std::ostream& err);

}  // namespace kforecast::publish
