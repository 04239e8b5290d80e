// SPDX-License-Identifier: Apache-2.0
#pragma once

// Launch facts for the lint's launch rules (low-occupancy, launch-bounds-contradicted): each
// kernel's launch spec — the '// kforecast:' block above it, else a [[kernel]] table of the
// config — read by the benchmark runner's reader and evaluated by resolve_launch() for every
// problem size; the theoretical occupancy of that launch on forecast.hardware from the embedded
// per-architecture table, with the registers NVRTC reported where it ran (else an assumption the
// message states). A spec that does not read or bind is a diagnostic naming the spec's place.

#include <map>
#include <string>
#include <vector>

#include "embedded/kernel_features.hpp"
#include "lint/facts.hpp"
#include "lint/linter.hpp"

namespace kforecast::lint_run {

struct LaunchFile {
  std::string shown;     // the name diagnostics use
  std::string relative;  // repository-relative: what a [[kernel]] table's `file` matches
  std::string text;
  const lint::FactsByKernel* compiler = nullptr;  // NVRTC facts for the file's kernels, if gathered
};

struct LaunchSettings {
  std::string config_text;  // the config file's TOML ("" without one), for its [[kernel]] tables
  std::string config_name;  // its name in messages
  std::string hardware;     // forecast.hardware: the GPU whose limits the occupancy uses
};

struct LaunchFactsResult {
  std::map<std::string, lint::FactsByKernel, std::less<>> by_path;  // launch facts only
  // The launch of each kernel with a spec (its first size), for the forecast's launch features.
  std::map<std::pair<std::string, std::string>, embedded::LaunchGeometry> geometry;  // (relative, kernel)
  std::vector<lint::Diagnostic> diagnostics;                                         // specs that do not read or bind
  std::vector<std::string> notes;
};

// The registers assumed per thread when NVRTC gave none: a typical simple kernel's count.
inline constexpr int assumed_registers = 32;

// Specs in the config that do not read are an Error (the config names the place).
Result<LaunchFactsResult> gather_launch_facts(const std::vector<LaunchFile>& files, const LaunchSettings& settings);

// The pseudo-rule a spec problem carries ("launch-spec").
const lint::Rule& launch_spec_rule();

}  // namespace kforecast::lint_run
