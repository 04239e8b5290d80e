// SPDX-License-Identifier: Apache-2.0
#include "publish/report_delivery.hpp"

#include <fmt/format.h>

#include "publish/report_comment.hpp"
#include "report/step_files.hpp"

namespace kforecast::publish {

Result<void> deliver_report(const report::Report& report, const Delivery& delivery, const EnvLookup& env,
                            std::ostream& err) {
  if (const std::size_t unjudged = report::unjudged_kernels(report); unjudged > 0)
    err << fmt::format(
        "kforecast: warning: {} kernel{} could not be judged (policy.on_unverified = {}): the report's notes say why\n",
        unjudged, unjudged == 1 ? "" : "s", delivery.on_unverified);
  if (auto step = report::write_step_report(report, env, delivery.full_report); !step) return step;
  if (delivery.post == nullptr) return {};
  return post_report(report, env, *delivery.post, err);
}

}  // namespace kforecast::publish
