// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compile arguments a plan carries for a kernel to measure (MeasureSide::build_arguments: the
// project's context, which the GPU job hands nvcc) pass the project's flag allow-list again when
// the plan is read (context/flag_filter.hpp): a plan written where a pull request may have had a
// hand in it must not smuggle in an argument that runs a program (-ccbin), reads a file
// (--options-file, -include, @file) or writes one (-o), nor an input file. kforecast writes them in
// one spelling (context::nvcc_arguments), so anything else is refused too.

#include <span>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "plan/plan_file.hpp"

namespace kforecast::plan {

// Nothing when every argument of `arguments` passes the allow-list as kforecast writes it; else why
// not, naming each argument refused ("-ccbin /tmp/x (runs a program)").
Result<void> check_build_arguments(std::span<const std::string> arguments);

// check_build_arguments over every kernel of the plan; the error names the plan (`name`), the
// field, the kernel and the arguments refused.
Result<void> check_plan_arguments(const Plan& plan, std::string_view name);

}  // namespace kforecast::plan
