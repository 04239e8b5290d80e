// SPDX-License-Identifier: Apache-2.0
#pragma once

// How lint findings are written: compiler-style lines (file:line:col: warning: message [id]),
// the same as one JSON document, or SARIF 2.1.0 for code-scanning services.

#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "lint/linter.hpp"

namespace kforecast::lint {

enum class Colour { off, on };

struct LintReport {
  std::string version;  // kforecast's
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> notes;  // what was not done (no NVRTC, no forecast), for JSON and SARIF
  std::span<const Rule> rules;     // every rule in force, for SARIF's rule table
  // Rules that could not run, and why ("compiler facts unavailable for k.cu: ..."): every format
  // shows them, the text one too, so a rule that did not run is never mistaken for a clean file.
  std::vector<std::string> rules_not_run;
};

// "src/k.cu:12:7: warning: message [rule-id]" per diagnostic, GCC's colours when `colour` is on.
void write_text(std::ostream& out, const LintReport& report, Colour colour);
void write_json(std::ostream& out, const LintReport& report);
void write_sarif(std::ostream& out, const LintReport& report);

// Whether colour is wanted: on a terminal, unless NO_COLOR is set (https://no-color.org).
Colour colour_for(bool terminal, bool no_color_set);

// A relative path as a URI reference: bytes outside RFC 3986's unreserved set and '/' are
// percent-encoded.
std::string path_uri(std::string_view path);

}  // namespace kforecast::lint
