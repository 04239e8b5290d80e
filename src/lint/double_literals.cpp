// SPDX-License-Identifier: Apache-2.0
#include "lint/double_literals.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "kernels/token_text.hpp"
#include "lint/cuda_types.hpp"

namespace kforecast::lint {
namespace {

using kernels::TokenKind;

// A token of a constant arithmetic expression: a number, a constant's name (a macro, or a
// SCREAMING_CASE name such as M_PI), an arithmetic operator or a parenthesis.
bool constant_operand(const SourceView& view, const Token& token) {
  if (token.kind == TokenKind::number) return true;
  if (token.is_identifier())
    return view.macro_number(token.text()).has_value() ||
           std::ranges::none_of(token.text(), [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; });
  for (std::string_view op : {"+", "-", "*", "/", "(", ")"})
    if (token.is_punct(op)) return true;
  return false;
}

bool operand_start(const Token& t) { return t.kind == TokenKind::number || t.is_identifier() || t.is_punct("("); }

bool all_constant(const SourceView& view, std::span<const Token> tokens, std::size_t begin, std::size_t end) {
  for (std::size_t k = begin; k < end; ++k)
    if (!constant_operand(view, tokens[k])) return false;
  return true;
}

// The constant expression around `at`, [left, right): numbers, constants' names, arithmetic
// operators and parenthesised constant groups. A parenthesised group followed at once by an
// operand is a cast ((T)0.5), and stays outside.
std::pair<std::size_t, std::size_t> constant_extent(const SourceView& view, std::span<const Token> tokens,
                                                    std::size_t at) {
  std::size_t left = at;
  while (left > 0) {
    const Token& t = tokens[left - 1];
    if (t.is_punct(")")) {
      if (operand_start(tokens[left])) break;  // (TYPE) operand
      std::size_t open = left - 1;
      for (int depth = 0; open > 0; --open) {
        if (tokens[open].is_punct(")")) ++depth;
        if (tokens[open].is_punct("(") && --depth == 0) break;
      }
      if (!tokens[open].is_punct("(") || !all_constant(view, tokens, open + 1, left - 1)) break;
      left = open;
      continue;
    }
    if (t.is_punct("(") || !constant_operand(view, t)) break;
    if (t.kind != TokenKind::punctuation && operand_start(tokens[left])) break;  // two operands side by side
    --left;
  }
  std::size_t right = at + 1;
  while (right < tokens.size()) {
    const Token& t = tokens[right];
    if (t.is_punct("(")) {
      const std::size_t close = kernels::matching_close(tokens, right);
      if (close >= tokens.size() || !all_constant(view, tokens, right + 1, close)) break;
      right = close + 1;
      continue;
    }
    if (t.is_punct(")") || !constant_operand(view, t)) break;
    ++right;
  }
  return {left, right};
}

bool exact_in_float(const Token& token) {
  std::string text(token.text());
  std::erase(text, '\'');
  if (!text.empty() && (text.back() == 'l' || text.back() == 'L')) return false;  // long double
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(value)) return false;
  return static_cast<double>(static_cast<float>(value)) == value;
}

bool is_comparison(const Token& t) {
  return t.is_punct("<") || t.is_punct(">") || t.is_punct("<=") || t.is_punct(">=") || t.is_punct("==") ||
         t.is_punct("!=");
}

bool is_arithmetic(const Token& t) { return t.is_punct("+") || t.is_punct("-") || t.is_punct("*") || t.is_punct("/"); }

// The end of the primary expression starting at `at` (a name with its calls, subscripts and
// members, a parenthesised expression, a number), or `at` where none starts.
std::size_t primary_end(std::span<const Token> tokens, std::size_t at, std::size_t limit) {
  std::size_t k = at;
  if (k >= limit) return at;
  if (tokens[k].kind == TokenKind::number) return k + 1;
  if (tokens[k].is_punct("(")) {
    k = kernels::matching_close(tokens, k) + 1;
  } else if (tokens[k].is_identifier()) {
    ++k;
  } else {
    return at;
  }
  while (k < limit) {
    if (tokens[k].is_punct("(") || tokens[k].is_punct("[")) {
      k = kernels::matching_close(tokens, k) + 1;
    } else if ((tokens[k].is_punct(".") || tokens[k].is_punct("->") || tokens[k].is_punct("::")) && k + 1 < limit &&
               tokens[k + 1].is_identifier()) {
      k += 2;
    } else {
      break;
    }
  }
  return std::min(k, limit);
}

bool holds_double(std::span<const Token> tokens, std::size_t begin, std::size_t end) {
  for (std::size_t k = begin; k < end; ++k)
    if (is_double_literal(tokens[k]) || tokens[k].is_identifier("double")) return true;
  return false;
}

// The slot an expression fills: from the token after the delimiter before `at` to the delimiter
// after it, at the same bracket depth. Returns {begin, end}.
std::pair<std::size_t, std::size_t> slot(std::span<const Token> tokens, std::size_t at) {
  const auto left_stop = [](const Token& t) {
    return t.is_punct("=") || t.is_punct("(") || t.is_punct(",") || t.is_punct("?") || t.is_punct(":") ||
           t.is_punct("{") || t.is_punct(";") || t.is_punct("&&") || t.is_punct("||") || t.is_punct("[") ||
           t.is_identifier("return") ||
           (t.kind == TokenKind::punctuation && t.text().size() >= 2 && t.text().back() == '=' && !is_comparison(t));
  };
  std::size_t begin = at;
  for (int depth = 0; begin > 0; --begin) {
    const Token& t = tokens[begin - 1];
    if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) {
      ++depth;
      continue;
    }
    if ((t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) && depth > 0) {
      --depth;
      continue;
    }
    if (depth == 0 && left_stop(t)) break;
  }
  std::size_t end = at + 1;
  for (int depth = 0; end < tokens.size(); ++end) {
    const Token& t = tokens[end];
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) ++depth;
    if ((t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) && depth-- == 0) break;
    if (depth == 0 && (t.is_punct(";") || t.is_punct(",") || t.is_punct("?") || t.is_punct(":") || t.is_punct("&&") ||
                       t.is_punct("||")))
      break;
  }
  return {begin, end};
}

// Whether the slot [begin, end) is one operation between the literal (with its sign) and one
// primary: `P op L`, `L op P`. `ops` tells which operators count.
template <class Ops>
bool single_operation(std::span<const Token> tokens, std::size_t begin, std::size_t end, std::size_t at, Ops ops) {
  std::size_t literal_begin = at;
  if (literal_begin > begin && tokens[literal_begin - 1].is_punct("-") &&
      (literal_begin - 1 == begin || ops(tokens[literal_begin - 2])))
    --literal_begin;
  if (literal_begin == begin) {  // L op P
    if (at + 2 > end || !ops(tokens[at + 1])) return false;
    const std::size_t p = primary_end(tokens, at + 2, end);
    return p == end && p > at + 2 && !holds_double(tokens, at + 2, end);
  }
  if (at + 1 != end || literal_begin < begin + 2 || !ops(tokens[literal_begin - 1])) return false;  // P op L
  const std::size_t p = primary_end(tokens, begin, end);
  return p == literal_begin - 1 && p > begin && !holds_double(tokens, begin, p);
}

// The function's token index of `at` in its body, where `tokens` are the function's tokens.
std::size_t body_index(const FunctionUnderLint& unit, std::span<const Token> tokens, std::size_t at) {
  if (unit.body.empty()) return Variables::none;
  const Token* token = &tokens[at];
  if (token < unit.body.data() || token >= unit.body.data() + unit.body.size()) return Variables::none;
  return static_cast<std::size_t>(token - unit.body.data());
}

bool float_type(std::string_view type, bool element) {
  const bool pointer = type.find('*') != std::string_view::npos || type.find('[') != std::string_view::npos;
  if (pointer != element) return false;
  std::size_t at = type.find("float");
  if (at == std::string_view::npos) return false;
  const std::size_t after = at + 5;
  return after >= type.size() || !(std::isalnum(static_cast<unsigned char>(type[after])) || type[after] == '_');
}

// Whether what is assigned at the '=' (or op=) at body index `equals` is a float: a float variable, an
// element of a float pointer or array, or a component of a float2/float3/float4.
bool float_destination(const FunctionUnderLint& unit, std::size_t equals) {
  const auto tokens = unit.body;
  const auto& variables = unit.analysis.variables();
  if (equals == 0) return false;
  std::size_t name = equals - 1;
  bool element = false, component = false;
  if (tokens[name].is_punct("]")) {
    std::size_t open = name;
    for (int depth = 0; open > 0; --open) {
      if (tokens[open].is_punct("]")) ++depth;
      if (tokens[open].is_punct("[") && --depth == 0) break;
    }
    if (open == 0) return false;
    name = open - 1;
    element = true;
  } else if (name >= 2 && tokens[name].is_identifier() && tokens[name - 1].is_punct(".")) {
    const std::string_view member = tokens[name].text();
    if (member != "x" && member != "y" && member != "z" && member != "w") return false;
    name -= 2;
    component = true;
  }
  if (!tokens[name].is_identifier()) return false;
  const std::size_t id = variables.at(name);
  if (id == Variables::none) return false;
  const Variable& v = variables[id];
  std::string type;
  if (v.free()) {
    for (const auto& parameter : unit.function.parameters)
      if (parameter.name == v.name) type = parameter.type;
  } else {
    type = unit.view.text_of(tokens, v.type_begin, v.type_end);
    if (v.array) type += "[]";
  }
  if (type.empty()) return false;
  if (component) {
    for (std::string_view vector : {"float2", "float3", "float4"})
      if (type.find(vector) != std::string::npos && type.find('*') == std::string::npos) return true;
    return false;
  }
  return float_type(type, element);
}

// The '(' of the call whose argument list holds `begin` (the token after an '(' or ','), and
// the callee's name, or {none, ""}.
std::pair<std::size_t, std::string_view> enclosing_call(std::span<const Token> tokens, std::size_t begin) {
  std::size_t k = begin;
  for (int depth = 0; k > 0; --k) {
    const Token& t = tokens[k - 1];
    if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) ++depth;
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) {
      if (depth == 0) break;
      --depth;
    }
    if (depth == 0 && t.is_punct(";")) return {Variables::none, {}};
  }
  if (k == 0 || !(tokens[k - 1].is_punct("(") || tokens[k - 1].is_punct("{"))) return {Variables::none, {}};
  const std::size_t open = k - 1;
  if (open == 0) return {open, {}};
  std::size_t callee = open - 1;
  if (tokens[callee].is_punct(">")) {  // f<T>(...): the name before the template arguments
    for (int depth = 0; callee > 0; --callee) {
      if (tokens[callee].is_punct(">")) ++depth;
      if (tokens[callee].is_punct("<") && --depth == 0) break;
    }
    if (callee == 0) return {open, {}};
    --callee;
  }
  return {open, tokens[callee].is_identifier() ? tokens[callee].text() : std::string_view()};
}

}  // namespace

bool is_double_literal(const Token& token) {
  if (token.kind != TokenKind::number) return false;
  const std::string_view text = token.text();
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return false;
  const bool floating = text.find('.') != std::string_view::npos || text.find_first_of("eE") != std::string_view::npos;
  return floating && text.back() != 'f' && text.back() != 'F';
}

bool converted_at_compile_time(const SourceView& view, std::span<const Token> tokens, std::size_t at) {
  std::size_t left = at, right = at + 1;
  while (left > 0 && constant_operand(view, tokens[left - 1])) --left;
  while (right < tokens.size() && constant_operand(view, tokens[right])) ++right;
  if (left == 0 || right == tokens.size()) return false;
  const Token& before = tokens[left - 1];
  const Token& after = tokens[right];
  const bool whole = before.is_punct("=") || before.is_identifier("return");
  if (whole) return after.is_punct(";") || (before.is_punct("=") && after.is_punct(","));
  // An element of a braced initialiser: float acc[TM] = {0.0}; float w[]{0.5, 0.25};
  if (!(before.is_punct("{") || before.is_punct(",")) || !(after.is_punct("}") || after.is_punct(","))) return false;
  int depth = 0;
  for (std::size_t k = left; k-- > 0;) {
    if (tokens[k].is_punct(")") || tokens[k].is_punct("]") || tokens[k].is_punct("}")) ++depth;
    if (tokens[k].is_punct("(") || tokens[k].is_punct("[")) {
      if (depth-- == 0) return false;  // a call's or subscript's argument
    }
    if (tokens[k].is_punct("{") && depth-- == 0)
      return k > 0 && (tokens[k - 1].is_punct("=") || tokens[k - 1].is_punct("]"));
    if (depth == 0 && tokens[k].is_punct(";")) return false;
  }
  return false;
}

bool folded_to_float(const SourceView& view, std::span<const Token> tokens, std::size_t at,
                     const FunctionUnderLint* unit) {
  if (converted_at_compile_time(view, tokens, at)) return true;
  const auto [left, right] = constant_extent(view, tokens, at);
  if (left == 0 || right >= tokens.size()) return false;
  const Token& before = tokens[left - 1];
  const Token& after = tokens[right];

  // A cast of the constant: (TYPE)0.5, (TYPE)-1.0. The parentheses hold a type alone.
  const bool signed_literal = left == at || (left + 1 == at && tokens[left].is_punct("-"));
  if (before.is_punct(")") && signed_literal) {
    std::size_t open = left - 1;
    for (int depth = 0; open > 0; --open) {
      if (tokens[open].is_punct(")")) ++depth;
      if (tokens[open].is_punct("(") && --depth == 0) break;
    }
    const bool call = open > 0 && (tokens[open - 1].is_identifier() || tokens[open - 1].is_punct(")") ||
                                   tokens[open - 1].is_punct("]"));
    const bool type_only = std::all_of(tokens.begin() + static_cast<std::ptrdiff_t>(open + 1),
                                       tokens.begin() + static_cast<std::ptrdiff_t>(left - 1), [](const Token& t) {
                                         return t.is_identifier() || t.is_punct("::") || t.is_punct("*") ||
                                                t.is_punct("<") || t.is_punct(">");
                                       });
    if (!call && type_only && open + 1 < left - 1 && tokens[left - 2].is_identifier())
      return folded_cast_to(tokens[left - 2].text(), unit);
  }
  // A whole argument of a call, a constructor or a functional cast.
  if ((before.is_punct("(") || before.is_punct(",") || before.is_punct("{")) &&
      (after.is_punct(")") || after.is_punct(",") || after.is_punct("}"))) {
    const auto [open, callee] = enclosing_call(tokens, left);
    if (open != Variables::none && callee == "static_cast") {
      const std::size_t angle = open - 1;
      return tokens[angle].is_punct(">") && angle > 0 && folded_cast_to(tokens[angle - 1].text(), unit);
    }
    if (open != Variables::none && (callee == "float" || callee == "int")) return true;  // float(2.0)
    if (open != Variables::none && !callee.empty() && !kernels::is_keyword(callee) && callee != "return") {
      if (half_taking(callee) || double_overloaded(callee)) return false;
      return folded_cast_to(callee, unit);
    }
  }

  if (!exact_in_float(tokens[at])) return false;
  const auto [begin, end] = slot(tokens, at);
  if (begin == 0 || end >= tokens.size()) return false;
  // A comparison with one primary: fcmp of a widened float against a constant that is exact in
  // float is done in float.
  if (single_operation(tokens, begin, end, at, is_comparison)) return true;
  if (unit == nullptr) return false;
  const Token& opener = tokens[begin - 1];
  const std::size_t opener_body = body_index(*unit, tokens, begin - 1);
  // x op= L on a float x is the one operation x op L, narrowed back.
  const bool compound =
      opener.is_punct("+=") || opener.is_punct("-=") || opener.is_punct("*=") || opener.is_punct("/=");
  const bool lone = begin == at || (begin + 1 == at && tokens[begin].is_punct("-"));
  if (compound && lone && end == at + 1 && tokens[end].is_punct(";") && opener_body != Variables::none)
    return float_destination(*unit, opener_body);
  // One + - * / narrowed to float at once: assigned to a float, or a float function's argument.
  if (single_operation(tokens, begin, end, at, is_arithmetic)) {
    if (opener.is_punct("=") && opener_body != Variables::none && tokens[end].is_punct(";"))
      return float_destination(*unit, opener_body);
    if ((opener.is_punct("(") || opener.is_punct(",")) && (tokens[end].is_punct(")") || tokens[end].is_punct(","))) {
      const auto [open, callee] = enclosing_call(tokens, begin);
      return open != Variables::none && float_taking(callee);
    }
    return false;
  }
  // A whole branch of a ?: that is narrowed to float at once.
  if (begin == at && end == at + 1 && (opener.is_punct("?") || opener.is_punct(":"))) {
    std::size_t k = begin - 1;
    for (int depth = 0; k > 0; --k) {
      const Token& t = tokens[k - 1];
      if (t.is_punct(")") || t.is_punct("]")) ++depth;
      if ((t.is_punct("(") || t.is_punct("[")) && depth-- == 0) return false;
      if (depth == 0 && (t.is_punct("=") || t.is_punct(";") || t.is_punct("{"))) break;
    }
    const std::size_t equals_body = k > 0 ? body_index(*unit, tokens, k - 1) : Variables::none;
    if (k == 0 || !tokens[k - 1].is_punct("=") || equals_body == Variables::none) return false;
    // The branches (not the condition) hold no other double: the select is of floats.
    std::size_t question = k, stop = end;
    for (int depth = 0; question < at; ++question) {
      if (tokens[question].is_punct("(") || tokens[question].is_punct("[")) ++depth;
      if (tokens[question].is_punct(")") || tokens[question].is_punct("]")) --depth;
      if (depth == 0 && tokens[question].is_punct("?")) break;
    }
    while (stop < tokens.size() && !tokens[stop].is_punct(";")) ++stop;
    if (question >= at && !opener.is_punct("?")) return false;
    const std::size_t branches = opener.is_punct("?") ? begin : question + 1;
    return !holds_double(tokens, branches, at) && !holds_double(tokens, at + 1, stop) &&
           float_destination(*unit, equals_body);
  }
  return false;
}

}  // namespace kforecast::lint
