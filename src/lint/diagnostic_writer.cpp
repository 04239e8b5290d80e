// SPDX-License-Identifier: Apache-2.0
#include "lint/diagnostic_writer.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <ostream>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/json_string.hpp"
#include "base/plain_text.hpp"
#include "lint/rule_text.hpp"

namespace kforecast::lint {
namespace {

std::string_view sarif_level(Severity severity) {
  switch (severity) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "warning";
}

// GCC's diagnostic colours: bold location, magenta warning, red error, cyan note.
std::string_view colour_of(Severity severity) {
  switch (severity) {
    case Severity::note:
      return "\x1b[01;36m";
    case Severity::warning:
      return "\x1b[01;35m";
    case Severity::error:
      return "\x1b[01;31m";
  }
  return "";
}

std::string json_list(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + json_string(item);
  return text;
}

// SARIF has one message per result: the notes follow it on their own lines.
std::string with_notes(const Diagnostic& d) {
  std::string text = d.message;
  for (const auto& note : d.notes) text += "\n" + note;
  return text;
}

// A stable hash of rule, path and the line's normalised text, then ":N" for the Nth finding with
// the same hash in this run, as GitHub's primaryLocationLineHash does: code scanning tracks an
// alert across commits that move its line, and tells apart two identical lines.
std::vector<std::string> fingerprints(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  std::map<std::string, int> seen;
  for (const auto& d : diagnostics) {
    ContentHasher hasher;
    hasher.add(d.rule->id);
    hasher.add(d.path);
    hasher.add(d.line_text);
    const std::string hash = hasher.hex();
    out.push_back(fmt::format("{}:{}", hash, ++seen[hash]));
  }
  return out;
}

}  // namespace

Colour colour_for(bool terminal, bool no_color_set) { return terminal && !no_color_set ? Colour::on : Colour::off; }

std::string path_uri(std::string_view path) {
  std::string uri;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      uri.push_back(static_cast<char>(c));
    else
      uri += fmt::format("%{:02X}", c);
  }
  return uri;
}

// Paths, messages and notes can hold the change's text: each line is one line of printable text,
// and one that would start with it as a workflow command is quoted (base/plain_text.hpp).
void write_text(std::ostream& out, const LintReport& report, Colour colour) {
  const bool on = colour == Colour::on;
  const auto put = [&](const std::string& line) {
    bool at_line_start = true;
    out << neutralise_workflow_commands(line, at_line_start);
  };
  for (const auto& d : report.diagnostics) {
    const std::string path = printable_line(d.path), message = printable_line(d.message);
    if (on)
      put(fmt::format("\x1b[01m{}:{}:{}:\x1b[m {}{}:\x1b[m {} [\x1b[01m{}\x1b[m]\n", path, d.line, d.column,
                      colour_of(d.severity), to_string(d.severity), message, d.rule->id));
    else
      put(fmt::format("{}:{}:{}: {}: {} [{}]\n", path, d.line, d.column, to_string(d.severity), message, d.rule->id));
    for (const auto& raw_note : d.notes) {
      const std::string note = printable_line(raw_note);
      put(on ? fmt::format("\x1b[01m{}:{}:{}:\x1b[m {}note:\x1b[m {}\n", path, d.line, d.column,
                           colour_of(Severity::note), note)
             : fmt::format("{}:{}:{}: note: {}\n", path, d.line, d.column, note));
    }
  }
  for (const auto& skipped : report.rules_not_run)
    out << (on ? fmt::format("kforecast: {}note:\x1b[m {}\n", colour_of(Severity::note), printable_line(skipped))
               : fmt::format("kforecast: note: {}\n", printable_line(skipped)));
}

void write_json(std::ostream& out, const LintReport& report) {
  const auto count = [&](Severity severity) {
    return std::ranges::count(report.diagnostics, severity, &Diagnostic::severity);
  };
  out << fmt::format("{{\n  \"kforecast\": {},\n  \"counts\": {{\"error\": {}, \"warning\": {}, \"note\": {}}},\n",
                     json_string(report.version), count(Severity::error), count(Severity::warning),
                     count(Severity::note));
  out << "  \"diagnostics\": [";
  for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
    const auto& d = report.diagnostics[i];
    out << (i ? ",\n" : "\n")
        << fmt::format(
               "    {{\"file\": {}, \"line\": {}, \"column\": {}, \"rule\": {}, \"severity\": \"{}\", "
               "\"message\": {}, \"function\": {}, \"guide\": {}, \"notes\": [{}]}}",
               json_string(d.path), d.line, d.column, json_string(d.rule->id), to_string(d.severity),
               json_string(d.message), json_string(d.function), json_string(d.rule->guide), json_list(d.notes));
  }
  out << (report.diagnostics.empty() ? "],\n" : "\n  ],\n") << "  \"notes\": [";
  for (std::size_t i = 0; i < report.notes.size(); ++i) out << (i ? ", " : "") << json_string(report.notes[i]);
  out << "],\n  \"rules_not_run\": [" << json_list(report.rules_not_run) << "]\n}\n";
}

void write_sarif(std::ostream& out, const LintReport& report) {
  out << "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
         "  \"runs\": [{\n    \"tool\": {\"driver\": {\n      \"name\": \"kforecast\",\n"
      // No informationUri (optional in SARIF 2.1.0): kforecast is used from forks under other owners,
      // and a fixed owner's address would name a repository that may not exist.
      << fmt::format("      \"version\": {},\n", json_string(report.version)) << "      \"rules\": [";
  for (std::size_t i = 0; i < report.rules.size(); ++i) {
    const Rule& rule = report.rules[i];
    out << (i ? ",\n" : "\n")
        << fmt::format(
               "        {{\"id\": {}, \"shortDescription\": {{\"text\": {}}}, \"fullDescription\": "
               "{{\"text\": {}}}, \"helpUri\": {}, \"defaultConfiguration\": {{\"level\": \"{}\"{}}}}}",
               json_string(rule.id), json_string(rule.summary), json_string(rule_description(rule)),
               json_string(rule.guide), sarif_level(rule.severity), rule.enabled ? "" : ", \"enabled\": false");
  }
  out << (report.rules.empty() ? "]\n" : "\n      ]\n") << "    }},\n    \"results\": [";
  const auto fingerprint = fingerprints(report.diagnostics);
  for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
    const auto& d = report.diagnostics[i];
    const auto index = std::ranges::find(report.rules, d.rule->id, &Rule::id) - report.rules.begin();
    out << (i ? ",\n" : "\n")
        << fmt::format(
               "      {{\"ruleId\": {}, \"ruleIndex\": {}, \"level\": \"{}\", \"message\": {{\"text\": {}}}, "
               "\"locations\": [{{\"physicalLocation\": {{\"artifactLocation\": {{\"uri\": {}}}, "
               "\"region\": {{\"startLine\": {}, \"startColumn\": {}}}}}}}], "
               "\"partialFingerprints\": {{\"kforecastLint/v1\": {}}}}}",
               json_string(d.rule->id), index, sarif_level(d.severity), json_string(with_notes(d)),
               json_string(path_uri(d.path)), d.line, d.column, json_string(fingerprint[i]));
  }
  out << (report.diagnostics.empty() ? "]" : "\n    ]");
  // SARIF's place for what kept the tool from doing all of its work.
  if (!report.rules_not_run.empty()) {
    out << ",\n    \"invocations\": [{\"executionSuccessful\": true, \"toolExecutionNotifications\": [";
    for (std::size_t i = 0; i < report.rules_not_run.size(); ++i)
      out << (i ? ", " : "")
          << fmt::format("{{\"level\": \"warning\", \"message\": {{\"text\": {}}}}}",
                         json_string(report.rules_not_run[i]));
    out << "]}]";
  }
  out << "\n  }]\n}\n";
}

}  // namespace kforecast::lint
