// SPDX-License-Identifier: Apache-2.0
#include "kernels/device_source.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "kernels/lexer.hpp"

namespace kforecast::kernels {
namespace {

void blank(std::string& text, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end && i < text.size(); ++i)
    if (text[i] != '\n') text[i] = ' ';
}

std::size_t offset_of(std::string_view source, const Token& token) {
  return static_cast<std::size_t>(token.text().data() - source.data());
}

// Whether [begin, end) lies inside a function the scanner found (device code, kept).
bool inside_device_function(const ScannedSource& scanned, std::size_t offset) {
  return std::ranges::any_of(scanned.functions, [&](const Function& function) {
    return function.has_body && offset >= function.whole.begin && offset < function.whole.end;
  });
}

}  // namespace

DeviceSource device_source(std::string_view source, const ScannedSource& scanned,
                           const std::function<bool(std::string_view)>& available_header) {
  DeviceSource result{std::string(source), {}};
  for (const Include& include : scanned.includes) {
    if (!include.angled || available_header(include.path)) continue;
    // Blank the directive's line (found by line number: includes are one line each).
    std::size_t line_start = 0;
    for (std::uint32_t line = 1; line < include.line && line_start != std::string::npos; ++line)
      line_start = source.find('\n', line_start) == std::string_view::npos ? std::string::npos
                                                                           : source.find('\n', line_start) + 1;
    if (line_start == std::string::npos) continue;
    const std::size_t line_end = std::min(source.find('\n', line_start), source.size());
    blank(result.text, line_start, line_end);
    result.removed.push_back(fmt::format("#include <{}> (line {})", include.path, include.line));
  }

  // Host function definitions: at namespace scope, a parameter list followed by a body, not one
  // of the device functions the scanner found.
  std::set<std::string, std::less<>> used_by_device_code;
  for (const Function& function : scanned.functions)
    used_by_device_code.insert(function.referenced_identifiers.begin(), function.referenced_identifiers.end());
  const std::vector<Token> tokens = lex(source);
  int depth = 0;  // braces not opened by namespace / extern "C"
  std::size_t statement = 0;
  bool parenthesis = false;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind == TokenKind::directive_begin) {
      while (i < tokens.size() && tokens[i].kind != TokenKind::directive_end) ++i;
      if (depth == 0) statement = i + 1;
      continue;
    }
    if (depth > 0) {
      if (token.is_punct("{")) ++depth;
      if (token.is_punct("}")) --depth;
      if (depth == 0) statement = i + 1;
      continue;
    }
    if (token.is_punct(";") || token.is_punct("}")) {
      statement = i + 1;
      parenthesis = false;
      continue;
    }
    if (token.is_punct("(")) parenthesis = true;
    if (!token.is_punct("{")) continue;
    const bool opens_scope =
        i > statement && (tokens[statement].is_identifier("namespace") || tokens[statement].is_identifier("extern"));
    if (opens_scope || !parenthesis || tokens[i - 1].is_punct("=")) {
      if (!opens_scope) depth = 1;  // a class or an initialiser: skipped whole, kept
      statement = i + 1;
      parenthesis = false;
      continue;
    }
    const std::size_t begin = offset_of(source, tokens[statement]);
    int braces = 0;
    std::size_t k = i;
    for (; k < tokens.size(); ++k) {
      if (tokens[k].is_punct("{")) ++braces;
      if (tokens[k].is_punct("}") && --braces == 0) break;
    }
    const std::size_t end = k < tokens.size() ? offset_of(source, tokens[k]) + 1 : source.size();
    std::string name;
    for (std::size_t n = statement; n < i; ++n)
      if (tokens[n].is_identifier() && n + 1 < i && tokens[n + 1].is_punct("(")) name = std::string(tokens[n].text());
    // A function device code names (a constexpr helper, say) stays: compiled with
    // -default-device it becomes device code. Launch code and the rest of the host side go.
    if (!inside_device_function(scanned, offset_of(source, token)) && !used_by_device_code.contains(name)) {
      blank(result.text, begin, end);
      result.removed.push_back(
          fmt::format("host function {} (line {})", name.empty() ? "?" : name, tokens[statement].line));
    }
    i = k;
    statement = k + 1;
    parenthesis = false;
  }
  return result;
}

}  // namespace kforecast::kernels
