// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading a plan's JSON document into a Plan (plan/plan_file.hpp's parse_plan_json is the way in).
// Every field is checked and bounded by the PlanLimits; a malformed field throws
// json_read::JsonFieldError, a field past a limit json_read::JsonLimitError, each naming the field.

#include "base/json_document.hpp"
#include "plan/plan_file.hpp"

namespace kforecast::plan {

Plan read_plan(const Json& root, const PlanLimits& limits);

}  // namespace kforecast::plan
