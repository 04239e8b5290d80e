// SPDX-License-Identifier: Apache-2.0
#pragma once

// The body of `kforecast lint`: the files and lines to lint (lint_run/lint_inputs.hpp), the rules
// in force (lint_run/lint_rules.hpp) over each file with the compiler facts NVRTC gives
// (lint_run/lint_compiler_facts.hpp) and the launch facts the specs give
// (lint_run/lint_launch_facts.hpp), the offline forecast of each changed kernel
// (lint_run/lint_forecast.hpp), all through the same suppressions, in one report ordered by file
// and line. cli opens the repository, loads the compiler, builds the forecaster and writes the
// report.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "base/sandbox_status.hpp"
#include "config/config.hpp"
#include "cuda/compiler.hpp"
#include "forecasters/forecaster.hpp"
#include "git/repository.hpp"
#include "lint/diagnostic_writer.hpp"
#include "lint/rule_set.hpp"

namespace kforecast::lint_run {

struct LintRequest {
  // --staged: the repository whose index is linted, on its added lines. nullptr: `files` are
  // linted whole, as the disk has them.
  const git::Repository* staged = nullptr;
  std::vector<std::string> files;
  // For the named files' forecast: the repository around the config's root, whose HEAD is the
  // earlier version; nullptr outside one (a note says so). Unused with `staged`.
  const git::Repository* files_repository = nullptr;
  // What forecasts the changed kernels (lint_forecaster()); nullptr: no forecast (--no-forecast).
  const forecasters::Forecaster* forecaster = nullptr;
  // NVRTC, confined, reading missing headers from `work_tree` where given (cli loads it only when
  // a file is compiled); empty: no compiler facts.
  std::function<cuda::LoadedCompiler(std::optional<std::filesystem::path> work_tree)> compiler;
  std::string cuda_include_dir;                 // CUDA's own headers, or ""
  std::optional<std::filesystem::path> facts_cache;  // where compiler facts are kept; nullopt: not kept
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

}  // namespace kforecast::lint_run
