// SPDX-License-Identifier: Apache-2.0
#include "builds/compile_failure.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "kernels/lexer.hpp"

namespace kforecast::builds {
namespace {

bool is_error_line(std::string_view line) {
  return line.find(": error") != std::string_view::npos || line.find(": catastrophic error") != std::string_view::npos ||
         line.find(": fatal error") != std::string_view::npos;
}

// Where the first error of `log` lies, "path(line): error: ..." → (path, line); nullopt where it
// names no repository file with a line.
std::optional<std::pair<std::string, std::uint32_t>> error_location(std::string_view log) {
  const std::string line = first_error(log);
  const std::size_t close = line.find("): ");
  const std::size_t open = close == std::string::npos ? std::string::npos : line.rfind('(', close);
  if (open == std::string::npos || open == 0 || close - open < 2 || close - open > 10) return std::nullopt;
  std::uint32_t number = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    if (line[i] < '0' || line[i] > '9') return std::nullopt;
    number = number * 10 + static_cast<std::uint32_t>(line[i] - '0');
  }
  return std::pair{line.substr(0, open), number};
}

// Whether `line` of `text` lies inside a function's body: some brace block open at its start was
// opened after a parameter list (`) {`, `) const {`, `] {` for a lambda).
bool inside_function_body(std::string_view text, std::uint32_t line) {
  const auto tokens = kernels::lex(text);
  std::vector<bool> function_bodies;  // the open brace blocks, innermost last
  std::string_view before;            // the last token's text before a '{'
  for (const auto& token : tokens) {
    if (token.line >= line || token.kind == kernels::TokenKind::end) break;
    const std::string_view word = token.text();
    if (token.kind == kernels::TokenKind::punctuation && word == "{") {
      function_bodies.push_back(before == ")" || before == "]" || before == "const" || before == "noexcept" ||
                                before == "override" || before == "mutable");
    } else if (token.kind == kernels::TokenKind::punctuation && word == "}") {
      if (!function_bodies.empty()) function_bodies.pop_back();
    }
    before = word;
  }
  return std::ranges::find(function_bodies, true) != function_bodies.end();
}

}  // namespace

std::string first_error(std::string_view log) {
  while (!log.empty()) {
    const std::size_t end = log.find('\n');
    const std::string_view line = log.substr(0, end);
    if (is_error_line(line)) return std::string(line);
    if (end == std::string_view::npos) break;
    log.remove_prefix(end + 1);
  }
  return {};
}

std::optional<std::string> missing_context(std::string_view log) {
  const std::string line = first_error(log);
  if (line.empty()) return std::nullopt;
  // A header the compiler cannot find: a C or C++ library header NVRTC does not have, or a
  // folder the project's build adds to the include path.
  constexpr std::string_view cannot_open = "cannot open source file ";
  if (const auto at = line.find(cannot_open); at != std::string::npos)
    return fmt::format("cannot open {}", line.substr(at + cannot_open.size()));
  // The same as nvcc's host compiler says it: "k.cu:1:10: fatal error: dep/x.h: No such file or directory".
  constexpr std::string_view fatal = ": fatal error: ";
  constexpr std::string_view no_such_file = ": No such file or directory";
  if (const auto at = line.find(fatal); at != std::string::npos && line.ends_with(no_such_file))
    return fmt::format("missing <{}>", line.substr(at + fatal.size(), line.size() - no_such_file.size() - at - fatal.size()));
  // An error located in a file outside the repository: kforecast hands the project's own files to
  // the compiler by their repository paths, so an absolute path is the toolkit's or the system's
  // header, rejecting the context it was given rather than anything the change wrote.
  if (line.starts_with('/')) {
    const std::size_t location_end = line.find('(');
    return fmt::format("an error inside {}", line.substr(0, location_end));
  }
  return std::nullopt;
}

std::string first_lines(std::string_view text, std::size_t count) {
  std::size_t end = 0;
  for (std::size_t i = 0; i < count && end != std::string::npos; ++i) end = text.find('\n', end + (i ? 1 : 0));
  return std::string(end == std::string_view::npos ? text : text.substr(0, end));
}

// The log from its first error on (warnings before it, such as a project's `#warning`s about
// defines it expects, would fill the note), `count` lines of it.
std::string from_first_error(std::string_view log, std::size_t count) {
  const std::string first = first_error(log);
  const std::size_t at = first.empty() ? std::string_view::npos : log.find(first);
  return first_lines(at == std::string_view::npos ? log : log.substr(at), count);
}

// Whether the first error of `log` lies in the host code of one of the head's files: inside a
// function body, outside every function that device code runs. An error at file scope (a
// declaration the compiler cannot read) is not host code: it breaks device code as much.
bool error_in_host_code(std::string_view log, const kernels::RevisionSources* head) {
  if (head == nullptr) return false;
  const auto location = error_location(log);
  if (!location || !head->files().contains(location->first)) return false;
  for (const auto& function : head->scanned(location->first).functions)
    if ((function.kind == kernels::FunctionKind::global || function.kind == kernels::FunctionKind::device) &&
        function.whole.first_line <= location->second && location->second <= function.whole.last_line)
      return false;
  return inside_function_body(head->files().at(location->first), location->second);
}

}  // namespace kforecast::builds
