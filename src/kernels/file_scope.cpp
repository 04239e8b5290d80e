// SPDX-License-Identifier: Apache-2.0
#include "kernels/file_scope.hpp"

#include <algorithm>

#include "kernels/lexer.hpp"

namespace kforecast::kernels {
namespace {

bool is_tag_keyword(std::string_view word) {
  return word == "struct" || word == "class" || word == "union" || word == "enum";
}

// What a statement (tokens at its own top level, braces balanced) declares.
std::vector<std::string> declared_names(std::span<const Token> statement) {
  std::vector<std::string> names;
  // using X = ...; and typedef ... X; declare one name: the one before '=', or the last one.
  const auto alias = std::ranges::find_if(statement, [](const Token& t) { return t.is_identifier("using"); });
  if (alias != statement.end() && alias + 2 < statement.end() && (alias + 2)->is_punct("=") &&
      (alias + 1)->is_identifier())
    return {std::string((alias + 1)->text())};
  if (std::ranges::any_of(statement, [](const Token& t) { return t.is_identifier("typedef"); })) {
    for (auto it = statement.rbegin(); it != statement.rend(); ++it)
      if (it->is_identifier()) return {std::string(it->text())};
    return {};
  }
  int depth = 0;
  for (std::size_t i = 0; i < statement.size(); ++i) {
    const Token& token = statement[i];
    if (token.is_punct("(") || token.is_punct("[") || token.is_punct("{") || token.is_punct("<")) ++depth;
    if (token.is_punct(")") || token.is_punct("]") || token.is_punct("}") || token.is_punct(">")) --depth;
    if (!token.is_identifier()) continue;
    if (is_tag_keyword(token.text()) && i + 1 < statement.size()) {
      std::size_t k = i + 1;
      if (statement[k].is_identifier("class") || statement[k].is_identifier("struct")) ++k;  // enum class
      if (k < statement.size() && statement[k].is_identifier()) names.emplace_back(statement[k].text());
      continue;
    }
    if (depth != 0 || i + 1 >= statement.size()) continue;
    const Token& next = statement[i + 1];
    if (next.is_punct("=") || next.is_punct("[") || next.is_punct(";") || next.is_punct(",") || next.is_punct("{") ||
        next.is_punct("("))
      names.emplace_back(token.text());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::size_t offset_of(std::string_view source, const Token& token) {
  return static_cast<std::size_t>(token.text().data() - source.data());
}

}  // namespace

std::vector<FileScopeDeclaration> file_scope_declarations(std::string_view source) {
  return file_scope_declarations(source, lex(source));
}

std::vector<FileScopeDeclaration> file_scope_declarations(std::string_view source, std::span<const Token> tokens) {
  std::vector<FileScopeDeclaration> declarations;
  std::size_t start = 0;  // first token of the statement being read
  int depth = 0;          // braces, parentheses and brackets inside the statement
  int transparent = 0;    // open namespace / extern "C" blocks
  bool saw_parenthesis = false;
  auto finish = [&](std::size_t last, bool record) {
    if (record && last >= start) {
      const std::span<const Token> statement(tokens.data() + start, last - start + 1);
      auto names = declared_names(statement);
      if (!names.empty()) {
        const std::size_t begin = offset_of(source, tokens[start]);
        const std::size_t end = offset_of(source, tokens[last]) + tokens[last].text().size();
        declarations.push_back({std::move(names), {begin, end, tokens[start].line, tokens[last].line}});
      }
    }
    start = last + 1;
    depth = 0;
    saw_parenthesis = false;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind == TokenKind::directive_begin) {
      while (i < tokens.size() && tokens[i].kind != TokenKind::directive_end) ++i;
      if (depth == 0) start = i + 1;
      continue;
    }
    if (depth == 0 && i == start && (token.is_identifier("namespace") || token.is_identifier("extern"))) {
      // namespace a::b { ... } and extern "C" { ... }: the block's contents are file scope.
      std::size_t k = i + 1;
      while (k < tokens.size() && !tokens[k].is_punct("{") && !tokens[k].is_punct(";") && k - i < 8) ++k;
      if (k < tokens.size() && tokens[k].is_punct("{")) {
        ++transparent;
        i = k;
        start = k + 1;
        continue;
      }
    }
    if (depth == 0 && token.is_punct("}") && transparent > 0) {
      --transparent;
      start = i + 1;
      continue;
    }
    if (token.is_punct("(") && depth == 0) saw_parenthesis = true;
    if (token.is_punct("{") && depth == 0 && saw_parenthesis && i > start && !tokens[i - 1].is_punct("=")) {
      // A function definition (its parameter list came before the brace): skip the body.
      int braces = 0;
      for (; i < tokens.size(); ++i) {
        if (tokens[i].is_punct("{")) ++braces;
        if (tokens[i].is_punct("}") && --braces == 0) break;
      }
      finish(std::min(i, tokens.size() - 1), false);
      continue;
    }
    if (token.is_punct("(") || token.is_punct("[") || token.is_punct("{")) ++depth;
    if ((token.is_punct(")") || token.is_punct("]") || token.is_punct("}")) && depth > 0) --depth;
    if (token.is_punct(";") && depth == 0) finish(i, true);
  }
  return declarations;
}

std::vector<std::string> identifiers_in(std::string_view text) {
  std::vector<std::string> names;
  for (const Token& token : lex(text))
    if (token.is_identifier()) names.emplace_back(token.text());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace kforecast::kernels
