// SPDX-License-Identifier: Apache-2.0
#include "kernels/declaration.hpp"

#include <algorithm>
#include <array>

#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

bool is_closing_angle(const Token& t) { return t.is_punct(">") || t.is_punct(">>"); }
bool is_name(const Token& t) { return t.is_identifier() && !is_keyword(t.text()); }

// Words that may follow a function's parameter list. Any other word there means the "function"
// was an attribute macro before the return type: __global__ BOUNDS(256) void k(...).
bool may_follow_parameters(const Token& t) {
  static constexpr auto words = std::to_array<std::string_view>(
      {"noexcept", "override", "final", "throw", "requires", "try", "mutable", "__attribute__", "asm", "__asm__"});
  return !t.is_identifier() || std::find(words.begin(), words.end(), t.text()) != words.end();
}

// The '<' that opens the template argument list closed at `close`, or nothing.
std::optional<std::size_t> matching_open_angle(std::span<const Token> tokens, std::size_t floor, std::size_t close) {
  std::size_t depth = 0;
  for (std::size_t i = close + 1; i-- > floor;) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::punctuation) continue;
    if (is_closing_angle(t)) {
      depth += t.text().size();
    } else if (t.text() == "<") {
      if (depth <= 1) return i;
      --depth;
    } else if (t.text() == ";" || t.text() == "{" || t.text() == "}") {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Widens a declarator name backwards over its qualification: ns :: S <T> :: f, ::f, ~S.
std::size_t qualification_start(std::span<const Token> head, std::size_t floor, std::size_t first) {
  while (first > floor) {
    if (head[first - 1].is_punct("~")) return first - 1;
    if (!head[first - 1].is_punct("::")) return first;
    if (first - 1 == floor) return first - 1;
    const Token& qualifier = head[first - 2];
    if (is_name(qualifier)) {
      first -= 2;
    } else if (is_closing_angle(qualifier)) {
      const auto open = matching_open_angle(head, floor, first - 2);
      if (!open || *open == floor || !is_name(head[*open - 1])) return first;
      first = *open - 1;
    } else {
      return first - 1;  // a leading '::'
    }
  }
  return first;
}

Parameter make_parameter(std::span<const Token> declaration, std::span<const Token> default_value) {
  Parameter parameter;
  parameter.default_value = spaced_text(default_value);
  std::optional<std::size_t> name_at;
  // A pointer or reference to a function or array: ( * name ) ( ... )
  for (std::size_t i = 0; i + 2 < declaration.size(); ++i) {
    if (declaration[i].is_punct("(") && (declaration[i + 1].is_punct("*") || declaration[i + 1].is_punct("&")) &&
        is_name(declaration[i + 2])) {
      name_at = i + 2;
      break;
    }
  }
  if (!name_at) {
    // The last word, followed by nothing but array bounds, after at least one type token.
    std::size_t i = declaration.size();
    while (i > 0 && declaration[i - 1].is_punct("]")) {
      std::size_t depth = 0;
      std::size_t k = i;
      while (k-- > 0) {
        if (declaration[k].is_punct("]")) ++depth;
        if (declaration[k].is_punct("[") && --depth == 0) break;
      }
      if (k >= declaration.size()) break;  // unbalanced
      i = k;
    }
    if (i > 1 && is_name(declaration[i - 1]) && !declaration[i - 2].is_punct("::") && !declaration[i - 2].is_punct("."))
      name_at = i - 1;
  }
  if (!name_at) {
    parameter.type = spaced_text(declaration);
    return parameter;
  }
  parameter.name = std::string(declaration[*name_at].text());
  parameter.type = spaced_text(declaration.first(*name_at));
  append_spaced_text(parameter.type, declaration.subspan(*name_at + 1));
  return parameter;
}

}  // namespace

bool is_attribute_word(std::string_view word) {
  static constexpr auto words = std::to_array<std::string_view>(
      {"__attribute__", "__declspec", "alignas", "__align__", "__launch_bounds__", "__maxnreg__", "__cluster_dims__",
       "decltype", "noexcept", "throw", "requires", "_Alignas", "__asm__", "asm"});
  return std::find(words.begin(), words.end(), word) != words.end();
}

bool is_device_macro_name(std::string_view word) {
  if (word.size() > 64 || word.find("DEVICE") == std::string_view::npos) return false;
  return std::ranges::all_of(word, [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::optional<FunctionHead> find_function_head(std::span<const Token> head, std::size_t from) {
  // The last name with a parameter list that a word follows, kept in case no later one comes:
  // `BOUNDS(256) void k() const` ends with k, `BOUNDS(256) const float* k()` goes on to k.
  std::optional<FunctionHead> before_a_word;
  for (std::size_t i = from; i < head.size(); ++i) {
    const Token& t = head[i];
    if (t.is_punct("[") && i + 1 < head.size() && head[i + 1].is_punct("[")) {
      i = matching_close(head, i);
      continue;
    }
    if (t.is_identifier() && is_attribute_word(t.text()) && i + 1 < head.size() && head[i + 1].is_punct("(")) {
      i = matching_close(head, i + 1);
      continue;
    }
    if (t.is_punct("=") || t.is_punct(";")) return before_a_word;
    if (!t.is_punct("(")) continue;

    FunctionHead found;
    found.params_open = i;
    std::optional<std::size_t> operator_at;
    for (std::size_t k = i > from + 3 ? i - 3 : from; k < i; ++k)
      if (head[k].is_identifier("operator")) operator_at = k;
    if (operator_at) {
      // operator() has two pairs of parentheses; the second is the parameter list.
      if (*operator_at + 1 == i && i + 2 < head.size() && head[i + 1].is_punct(")") && head[i + 2].is_punct("(")) {
        found.params_open = i + 2;
        found.name_last = i + 1;
      } else {
        found.name_last = i - 1;
      }
      found.name_first = qualification_start(head, from, *operator_at);
    } else if (i > from && is_name(head[i - 1])) {
      found.name_last = i - 1;
      found.name_first = qualification_start(head, from, i - 1);
    } else if (i > from && is_closing_angle(head[i - 1])) {
      const auto open = matching_open_angle(head, from, i - 1);
      if (!open || *open == from || !is_name(head[*open - 1])) {
        i = matching_close(head, i);
        continue;
      }
      found.name_last = *open - 1;
      found.name_first = qualification_start(head, from, *open - 1);
    } else {
      i = matching_close(head, i);  // (*fp), a cast, a macro's arguments: not a declarator
      continue;
    }
    found.params_close = matching_close(head, found.params_open);
    const std::size_t after = found.params_close + 1;
    if (operator_at || after >= head.size() || may_follow_parameters(head[after])) return found;
    before_a_word = found;
    i = found.params_close;
  }
  return before_a_word;
}

std::string declarator_name(std::span<const Token> head, const FunctionHead& found) {
  std::string name;
  for (std::size_t i = found.name_first; i <= found.name_last && i < head.size(); ++i) {
    if (head[i].is_punct("<") && !(i > 0 && head[i - 1].is_identifier("operator"))) {
      const std::size_t close = matching_angle(head, i);
      if (close < found.name_last) {
        i = close;
        continue;
      }
    }
    name += head[i].text();
  }
  return name;
}

std::string qualified_type_name(std::span<const Token> tokens) {
  std::size_t i = 0;
  while (i < tokens.size() &&
         (tokens[i].is_identifier("typename") || tokens[i].is_identifier("struct") ||
          tokens[i].is_identifier("class") || tokens[i].is_identifier("const") || tokens[i].is_identifier("volatile")))
    ++i;
  std::string name;
  if (i < tokens.size() && tokens[i].is_punct("::")) ++i;
  while (i < tokens.size() && is_name(tokens[i])) {
    if (!name.empty()) name += "::";
    name += tokens[i++].text();
    if (i < tokens.size() && tokens[i].is_punct("<")) i = matching_angle(tokens, i) + 1;
    if (i + 1 < tokens.size() && tokens[i].is_punct("::")) {
      ++i;
      if (i < tokens.size() && tokens[i].is_identifier("template")) ++i;
      continue;
    }
    break;
  }
  return name;
}

std::size_t skip_template_headers(std::span<const Token> head, std::size_t from) {
  while (from + 1 < head.size() && head[from].is_identifier("template") && head[from + 1].is_punct("<")) {
    const std::size_t close = matching_angle(head, from + 1);
    if (close >= head.size()) return head.size();
    from = close + 1;
  }
  return from;
}

std::vector<Parameter> parse_parameters(std::span<const Token> inside) {
  std::vector<Parameter> parameters;
  if (inside.empty() || (inside.size() == 1 && inside[0].is_identifier("void"))) return parameters;
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::size_t depth = 0;
  std::size_t angles = 0;
  std::size_t start = 0;
  std::size_t equals = none;  // the '=' of a default value
  for (std::size_t i = 0; i <= inside.size(); ++i) {
    if (i < inside.size()) {
      const Token& t = inside[i];
      if (t.kind != TokenKind::punctuation) continue;
      // Angle brackets count only before a default value: there '<' may be a comparison.
      if (t.text() == "(" || t.text() == "[" || t.text() == "{") {
        ++depth;
      } else if (t.text() == ")" || t.text() == "]" || t.text() == "}") {
        if (depth > 0) --depth;
      } else if (t.text() == "<" && equals == none && i > start && inside[i - 1].is_identifier()) {
        ++angles;
      } else if (is_closing_angle(t) && equals == none && angles > 0) {
        angles -= std::min(angles, t.text().size());
      } else if (t.text() == "=" && depth == 0 && angles == 0 && equals == none) {
        equals = i;
      }
      if (!(t.text() == "," && depth == 0 && angles == 0)) continue;
    }
    const std::size_t declaration_end = equals == none ? i : equals;
    const auto declaration = inside.subspan(start, declaration_end - start);
    const auto default_value = equals == none ? std::span<const Token>{} : inside.subspan(equals + 1, i - equals - 1);
    parameters.push_back(make_parameter(declaration, default_value));
    start = i + 1;
    equals = none;
    angles = 0;
  }
  return parameters;
}

std::string launch_bounds_of(std::span<const Token> head) {
  for (std::size_t i = 0; i + 1 < head.size(); ++i) {
    if (!head[i].is_identifier("__launch_bounds__") || !head[i + 1].is_punct("(")) continue;
    const std::size_t close = matching_close(head, i + 1);
    return spaced_text(head.subspan(i + 2, std::min(close, head.size()) - (i + 2)));
  }
  return {};
}

}  // namespace kforecast::kernels
