// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading a plan's JSON document into a Plan (gate/plan_file.hpp's parse_plan_json is the way in).
// Every field is checked and bounded by the PlanLimits; a malformed field throws
// json_read::JsonFieldError, a field past a limit json_read::JsonLimitError, each naming the field.

#include "base/json_document.hpp"
#include "gate/plan_file.hpp"

namespace kforecast::gate {

Plan read_plan(const Json& root, const PlanLimits& limits);

}  // namespace kforecast::gate
