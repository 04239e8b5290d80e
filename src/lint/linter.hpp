// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runs the rules over one CUDA source: every function body the rule's scope covers, the
// compiler and launch facts the caller supplies, and the inline suppressions. In changed-line
// mode only findings on added lines are kept, and findings about a whole kernel (its signature,
// its registers) are kept when any of the kernel's lines was added.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lint/facts.hpp"
#include "lint/rule.hpp"

namespace kforecast::lint {

struct Diagnostic {
  std::string path;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  const Rule* rule = nullptr;  // points into the rule set, which outlives the diagnostics
  Severity severity = Severity::warning;
  std::string message;   // the rule's message with "{match}" filled in
  std::string function;  // the qualified name of the function it is in; empty at file scope
  // Lines that follow the diagnostic as notes at the same place (the forecast's rationale).
  std::vector<std::string> notes;
  // The source line with its runs of spaces and tabs collapsed and its ends trimmed: with the
  // rule and the path, what identifies a finding across edits that move it (SARIF fingerprints).
  std::string line_text;
};

struct LintOptions {
  const FactsByKernel* facts = nullptr;
  // Added lines (ascending) to report on; nullptr reports on the whole file.
  const std::vector<std::uint32_t>* changed_lines = nullptr;
};

// Diagnostics sorted by line, column and rule id. Rules that are not enabled (opt-in) do not run.
std::vector<Diagnostic> lint_source(std::string_view path, std::string_view text, std::span<const Rule> rules,
                                    const LintOptions& options = {});

// The message with "{match}" replaced by `detail`.
std::string render_message(std::string_view message, std::string_view detail);
// The message with every `placeholder` replaced by `value`.
std::string render_placeholder(std::string_view message, std::string_view placeholder, std::string_view value);
// Diagnostic::line_text of a source line.
std::string normalised_line(std::string_view line);

}  // namespace kforecast::lint
