// SPDX-License-Identifier: Apache-2.0
#include "kernels/file_scope.hpp"

#include <algorithm>

#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

bool is_tag_keyword(std::string_view word) {
  return word == "struct" || word == "class" || word == "union" || word == "enum";
}

struct DeclaredNames {
  std::vector<std::string> names;
  std::vector<std::string> classes;
};

void sort_unique(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
}

// What a statement (tokens at its own top level, braces balanced) declares.
DeclaredNames declared_names(std::span<const Token> statement) {
  std::vector<std::string> names, classes;
  // using X = ...; and typedef ... X; declare one name: the one before '=', or the last one.
  // Only where they stand before any brace: a class's member alias is not what the class
  // statement declares.
  const auto head =
      std::span(statement.begin(), std::ranges::find_if(statement, [](const Token& t) { return t.is_punct("{"); }));
  const auto alias = std::ranges::find_if(head, [](const Token& t) { return t.is_identifier("using"); });
  if (alias != head.end() && alias + 2 < statement.end() && (alias + 2)->is_punct("=") && (alias + 1)->is_identifier())
    return {{std::string((alias + 1)->text())}, {}};
  if (std::ranges::any_of(head, [](const Token& t) { return t.is_identifier("typedef"); })) {
    for (auto it = statement.rbegin(); it != statement.rend(); ++it)
      if (it->is_identifier()) return {{std::string(it->text())}, {}};
    return {};
  }
  int depth = 0;  // parentheses, brackets and braces
  // Angle brackets at the top, apart: `class T` in `template <class T> struct tag {};` names a
  // template parameter, not a type the statement declares (a kernel's own `T` would otherwise
  // pull in every such template, and all that those name). Inside braces a '<' or '>' is as
  // likely a comparison (`if (n > m_size)`), so they are not counted there.
  int angles = 0;
  bool base_clause = false;  // between `struct X :` and its brace: base classes, named, not declared
  for (std::size_t i = 0; i < statement.size(); ++i) {
    const Token& token = statement[i];
    if (depth == 0 && token.is_punct("{")) {
      angles = 0;
      base_clause = false;
    }
    if (depth == 0 && token.is_punct("<")) ++angles;
    if (depth == 0 && token.is_punct(">")) angles = std::max(angles - 1, 0);
    if (depth == 0 && token.is_punct(">>")) angles = std::max(angles - 2, 0);
    if (token.is_punct("(") || token.is_punct("[") || token.is_punct("{")) ++depth;
    if ((token.is_punct(")") || token.is_punct("]") || token.is_punct("}")) && depth > 0) --depth;
    if (!token.is_identifier()) continue;
    // A nested class (`friend class detail::parser;` too) is the enclosing class's business.
    if (is_tag_keyword(token.text()) && (angles > 0 || depth > 0)) continue;
    if (is_tag_keyword(token.text()) && i + 1 < statement.size()) {
      std::size_t k = i + 1;
      const bool enumeration = token.is_identifier("enum");
      if (statement[k].is_identifier("class") || statement[k].is_identifier("struct")) ++k;  // enum class
      // `struct X {`, `struct X;`, `struct X : Base`, `struct X<T*> {` declare X; `struct X* f(...)`
      // and `struct X x;` only name it. ggml's prototypes returning `struct ggml_tensor *` were
      // each taken for a declaration of ggml_tensor, so every kernel reaching ggml_tensor changed
      // with any prototype added to ggml.h.
      const auto declares = [&](std::size_t after) {
        if (after >= statement.size()) return true;
        const Token& next = statement[after];
        return next.is_punct("{") || next.is_punct(";") || next.is_punct(":") || next.is_punct("<") ||
               next.is_identifier("final");
      };
      if (k < statement.size() && statement[k].is_identifier() && declares(k + 1)) {
        names.emplace_back(statement[k].text());
        if (!enumeration) classes.emplace_back(statement[k].text());
        base_clause = !enumeration && k + 1 < statement.size() && statement[k + 1].is_punct(":");
      }
      if (enumeration) i = k - 1;  // past `class` of `enum class`, which is no class
      continue;
    }
    if (depth != 0 || angles != 0 || base_clause || is_keyword(token.text()) || i + 1 >= statement.size()) continue;
    // `X<T>::value` defines or names another scope's member, not a name of this statement's.
    if (i > 0 && statement[i - 1].is_punct("::")) continue;
    const Token& next = statement[i + 1];
    if (next.is_punct("=") || next.is_punct("[") || next.is_punct(";") || next.is_punct(",") || next.is_punct("{") ||
        next.is_punct("("))
      names.emplace_back(token.text());
  }
  sort_unique(names);
  sort_unique(classes);
  return {std::move(names), std::move(classes)};
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
      auto declared = declared_names(statement);
      if (!declared.names.empty()) {
        const std::size_t begin = offset_of(source, tokens[start]);
        const std::size_t end = offset_of(source, tokens[last]) + tokens[last].text().size();
        declarations.push_back({std::move(declared.names),
                                std::move(declared.classes),
                                {begin, end, tokens[start].line, tokens[last].line}});
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

std::vector<std::string> identifiers_outside_function_bodies(std::string_view source, Span declaration,
                                                             std::span<const Span> members) {
  const std::vector<Token> tokens = lex(source.substr(declaration.begin, declaration.end - declaration.begin));
  // Tokens and members are both in source order: one pass over each, however many methods.
  std::size_t member = 0;
  const auto in_member = [&](const Token& t) {
    const auto at = static_cast<std::size_t>(t.text().data() - source.data());
    while (member < members.size() && members[member].end <= at) ++member;
    return member < members.size() && members[member].begin <= at;
  };
  const auto opens_body = [&](std::size_t i) {
    if (i == 0 || !tokens[i].is_punct("{")) return false;
    const Token& before = tokens[i - 1];
    return before.is_punct(")") || before.is_punct("}") || before.is_identifier("const") ||
           before.is_identifier("noexcept") || before.is_identifier("override") || before.is_identifier("final");
  };
  std::vector<std::string> names;
  int depth = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].is_punct("{")) ++depth;
    if (tokens[i].is_punct("}")) --depth;
    // Inside the class (a brace deep at least), a brace after a parameter list opens a body:
    // skipped to its close. At the top, `= [](int x) { ... }` is the declaration's own value.
    if (depth >= 2 && opens_body(i)) {
      for (int braces = 1; braces > 0 && i + 1 < tokens.size();) {
        ++i;
        if (tokens[i].is_punct("{")) ++braces;
        if (tokens[i].is_punct("}")) --braces;
      }
      --depth;
      continue;
    }
    if (tokens[i].is_identifier() && !in_member(tokens[i])) names.emplace_back(tokens[i].text());
  }
  sort_unique(names);
  return names;
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
