// SPDX-License-Identifier: Apache-2.0
#pragma once

// The body of `kforecast lint`: the files and lines to lint (gate/lint_inputs.hpp), the rules in
// force (gate/lint_rules.hpp) over each file with the compiler facts NVRTC gives
// (gate/lint_compiler_facts.hpp) and the launch facts the specs give (gate/lint_launch_facts.hpp),
// the offline forecast of each changed kernel (gate/lint_forecast.hpp), all through the same
// suppressions, in one report ordered by file and line. cli opens the repository, builds the
// forecaster and writes the report.

#include <string>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "base/sandbox_status.hpp"
#include "config/config.hpp"
#include "gate/forecaster.hpp"
#include "git/repository.hpp"
#include "lint/diagnostic_writer.hpp"
#include "lint/rule_set.hpp"

namespace kforecast::gate {

struct LintRequest {
  // --staged: the repository whose index is linted, on its added lines. nullptr: `files` are
  // linted whole, as the disk has them.
  const git::Repository* staged = nullptr;
  std::vector<std::string> files;
  // For the named files' forecast: the repository around the config's root, whose HEAD is the
  // earlier version; nullptr outside one (a note says so). Unused with `staged`.
  const git::Repository* files_repository = nullptr;
  // What forecasts the changed kernels (lint_forecaster()); nullptr: no forecast (--no-forecast).
  const Forecaster* forecaster = nullptr;
  EnvLookup env;  // where NVRTC, the CUDA headers and the compile cache are found
  // What confines NVRTC here (base/sandbox_status.hpp), probed by cli: the user's own files are
  // compiled whatever it says, and the report notes what was not confined. nullptr: not said.
  const SandboxStatus* sandbox = nullptr;
};

// The report and what it points into: its diagnostics point at rules of `rules` (or at the
// built-in pseudo-rules), and report.rules spans `every_rule`. Both are vectors, whose elements
// keep their addresses when a LintRun is moved.
struct LintRun {
  lint::RuleSet rules;
  std::vector<lint::Rule> every_rule;  // the rules in force, then the forecast's and the specs' pseudo-rules
  lint::LintReport report;
};

// Errors: a config whose lint settings or [[kernel]] specs do not read, a file that cannot be
// read, git failing, a forecaster failing before any kernel.
Result<LintRun> run_lint(const config::Config& config, const LintRequest& request);

}  // namespace kforecast::gate
