// SPDX-License-Identifier: Apache-2.0
#include "base/integer_expression.hpp"

#include <cctype>
#include <vector>

#include <fmt/format.h>

namespace kforecast {
namespace {

constexpr int max_depth = 64;
constexpr std::size_t max_length = 4096;

// A recursive-descent evaluator; the first problem found ends the evaluation.
class Evaluator {
 public:
  Evaluator(std::string_view text, const IntegerVariables& variables) : m_text(text), m_variables(variables) {}

  Result<std::int64_t> run() {
    if (m_text.size() > max_length) return failure(fmt::format("longer than {} characters", max_length));
    skip_space();
    if (at_end()) return failure("empty");
    auto value = expression(0);
    if (!value) return value;
    skip_space();
    if (!at_end()) return failure(fmt::format("unexpected '{}' at column {}", m_text[m_pos], m_pos + 1));
    return value;
  }

 private:
  std::unexpected<Error> failure(const std::string& what) const {
    return usage_error(fmt::format("expression '{}': {}", m_text, what));
  }
  bool at_end() const { return m_pos >= m_text.size(); }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }
  bool take(char c) {
    skip_space();
    if (at_end() || m_text[m_pos] != c) return false;
    ++m_pos;
    return true;
  }

  Result<std::int64_t> expression(int depth) {
    auto left = term(depth);
    if (!left) return left;
    for (;;) {
      skip_space();
      if (at_end() || (m_text[m_pos] != '+' && m_text[m_pos] != '-')) return left;
      const char op = m_text[m_pos++];
      auto right = term(depth);
      if (!right) return right;
      std::int64_t result = 0;
      const bool overflow =
          op == '+' ? __builtin_add_overflow(*left, *right, &result) : __builtin_sub_overflow(*left, *right, &result);
      if (overflow) return failure(fmt::format("{} {} {} overflows 64 bits", *left, op, *right));
      left = result;
    }
  }

  Result<std::int64_t> term(int depth) {
    auto left = unary(depth);
    if (!left) return left;
    for (;;) {
      skip_space();
      if (at_end() || (m_text[m_pos] != '*' && m_text[m_pos] != '/' && m_text[m_pos] != '%')) return left;
      const char op = m_text[m_pos++];
      auto right = unary(depth);
      if (!right) return right;
      auto result = apply(op, *left, *right);
      if (!result) return result;
      left = result;
    }
  }

  Result<std::int64_t> apply(char op, std::int64_t a, std::int64_t b) const {
    std::int64_t result = 0;
    if (op == '*') {
      if (__builtin_mul_overflow(a, b, &result)) return failure(fmt::format("{} * {} overflows 64 bits", a, b));
      return result;
    }
    if (b == 0) return failure(fmt::format("division by zero in {} {} 0", a, op));
    if (a == INT64_MIN && b == -1) return failure(fmt::format("{} {} -1 overflows 64 bits", a, op));
    return op == '/' ? a / b : a % b;
  }

  Result<std::int64_t> unary(int depth) {
    if (depth > max_depth) return failure(fmt::format("nested deeper than {}", max_depth));
    if (take('-')) {
      auto value = unary(depth + 1);
      if (!value) return value;
      if (*value == INT64_MIN) return failure("negation overflows 64 bits");
      return -*value;
    }
    if (take('+')) return unary(depth + 1);
    return primary(depth);
  }

  Result<std::int64_t> primary(int depth) {
    skip_space();
    if (at_end()) return failure("ends where a value was expected");
    const char c = m_text[m_pos];
    if (c == '(') {
      ++m_pos;
      auto value = expression(depth + 1);
      if (!value) return value;
      if (!take(')')) return failure(fmt::format("missing ')' at column {}", m_pos + 1));
      return value;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name(depth);
    return failure(fmt::format("unexpected '{}' at column {}", c, m_pos + 1));
  }

  Result<std::int64_t> number() {
    std::int64_t value = 0;
    const std::size_t start = m_pos;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
      if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, m_text[m_pos] - '0', &value))
        return failure(fmt::format("the number at column {} does not fit 64 bits", start + 1));
      ++m_pos;
    }
    if (!at_end() && (std::isalpha(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '.'))
      return failure(fmt::format("'{}' at column {} is not an integer (sizes are whole numbers)",
                                 m_text.substr(start, m_pos + 1 - start), start + 1));
    return value;
  }

  Result<std::int64_t> name(int depth) {
    const std::size_t start = m_pos;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_')) ++m_pos;
    const std::string_view word = m_text.substr(start, m_pos - start);
    skip_space();
    if (!at_end() && m_text[m_pos] == '(') {
      ++m_pos;
      return call(word, depth);
    }
    if (auto it = m_variables.find(word); it != m_variables.end()) return it->second;
    std::string known;
    for (const auto& [variable, value] : m_variables) known += (known.empty() ? "" : ", ") + variable;
    return failure(fmt::format("unknown size variable '{}' (known: {})", word, known.empty() ? "none" : known));
  }

  Result<std::int64_t> call(std::string_view function, int depth) {
    if (function != "ceil_div" && function != "min" && function != "max")
      return failure(fmt::format("unknown function '{}' (known: ceil_div, min, max)", function));
    std::vector<std::int64_t> arguments;
    if (!take(')')) {
      do {
        auto value = expression(depth + 1);
        if (!value) return value;
        arguments.push_back(*value);
      } while (take(','));
      if (!take(')')) return failure(fmt::format("missing ')' after the arguments of {}", function));
    }
    if (function == "ceil_div") {
      if (arguments.size() != 2) return failure("ceil_div takes 2 arguments");
      const auto [a, b] = std::pair(arguments[0], arguments[1]);
      if (b == 0) return failure(fmt::format("division by zero in ceil_div({}, 0)", a));
      if (a < 0 || b < 0) return failure(fmt::format("ceil_div({}, {}) needs non-negative arguments", a, b));
      return a / b + (a % b != 0 ? 1 : 0);
    }
    if (arguments.empty()) return failure(fmt::format("{} takes at least 1 argument", function));
    std::int64_t result = arguments.front();
    for (auto value : arguments) result = function == "min" ? std::min(result, value) : std::max(result, value);
    return result;
  }

  std::string_view m_text;
  const IntegerVariables& m_variables;
  std::size_t m_pos = 0;
};

}  // namespace

Result<std::int64_t> evaluate_integer_expression(std::string_view text, const IntegerVariables& variables) {
  return Evaluator(text, variables).run();
}

}  // namespace kforecast
