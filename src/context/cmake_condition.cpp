// SPDX-License-Identifier: Apache-2.0
#include "context/cmake_condition.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "context/found_define.hpp"

namespace kforecast::context {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool has_unknown(std::string_view value) { return value.find(unknown_open) != std::string_view::npos; }

std::optional<double> number(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// A CMake constant's truth, or nullopt where the word is not one.
std::optional<Truth> constant(std::string_view word) {
  const std::string u = upper(word);
  if (u == "ON" || u == "YES" || u == "TRUE" || u == "Y") return Truth::yes;
  if (u.empty() || u == "OFF" || u == "NO" || u == "FALSE" || u == "N" || u == "IGNORE" || u == "NOTFOUND" ||
      u.ends_with("-NOTFOUND"))
    return Truth::no;
  if (auto value = number(word)) return *value != 0 ? Truth::yes : Truth::no;
  return std::nullopt;
}

Truth negate(Truth truth) {
  return truth == Truth::unknown ? Truth::unknown : truth == Truth::yes ? Truth::no : Truth::yes;
}

class Condition {
 public:
  Condition(const std::vector<std::string>& words, const Variables& variables, std::optional<int> arch)
      : m_words(words), m_variables(variables), m_arch(arch) {}

  Truth evaluate() {
    const Truth truth = or_expression(0);
    return m_at == m_words.size() ? truth : Truth::unknown;
  }

 private:
  bool at(std::string_view word) const { return m_at < m_words.size() && m_words[m_at] == word; }

  Truth or_expression(int depth) {
    Truth truth = and_expression(depth);
    while (at("OR")) {
      ++m_at;
      const Truth right = and_expression(depth);
      if (truth == Truth::yes || right == Truth::yes)
        truth = Truth::yes;
      else if (truth == Truth::unknown || right == Truth::unknown)
        truth = Truth::unknown;
    }
    return truth;
  }

  Truth and_expression(int depth) {
    Truth truth = not_expression(depth);
    while (at("AND")) {
      ++m_at;
      const Truth right = not_expression(depth);
      if (truth == Truth::no || right == Truth::no)
        truth = Truth::no;
      else if (truth == Truth::unknown || right == Truth::unknown)
        truth = Truth::unknown;
    }
    return truth;
  }

  Truth not_expression(int depth) {
    if (at("NOT")) {
      ++m_at;
      return depth > 64 ? Truth::unknown : negate(not_expression(depth + 1));
    }
    return primary(depth);
  }

  Truth primary(int depth) {
    if (m_at >= m_words.size()) return Truth::unknown;
    if (at("(")) {
      ++m_at;
      const Truth truth = depth > 64 ? Truth::unknown : or_expression(depth + 1);
      if (!at(")")) {
        m_at = m_words.size();
        return Truth::unknown;
      }
      ++m_at;
      return truth;
    }
    static constexpr std::array<std::string_view, 9> unary_tests{
        "EXISTS", "COMMAND", "TARGET", "POLICY", "TEST", "IS_DIRECTORY", "IS_ABSOLUTE", "IS_SYMLINK", "DEFINED"};
    if (std::ranges::find(unary_tests, m_words[m_at]) != unary_tests.end()) {
      const bool defined = m_words[m_at] == "DEFINED";
      m_at += 2;
      if (m_at > m_words.size()) return Truth::unknown;
      if (defined && m_variables.contains(m_words[m_at - 1])) return Truth::yes;
      return Truth::unknown;
    }
    const std::string& left = m_words[m_at++];
    if (m_at < m_words.size() && is_binary(m_words[m_at])) {
      const std::string& op = m_words[m_at];
      m_at += 2;
      if (m_at > m_words.size()) return Truth::unknown;
      return compare(left, op, m_words[m_at - 1]);
    }
    return truth_of(left);
  }

  static bool is_binary(std::string_view word) {
    static constexpr std::array<std::string_view, 19> binary{"EQUAL",
                                                             "LESS",
                                                             "GREATER",
                                                             "LESS_EQUAL",
                                                             "GREATER_EQUAL",
                                                             "STREQUAL",
                                                             "STRLESS",
                                                             "STRGREATER",
                                                             "STRLESS_EQUAL",
                                                             "STRGREATER_EQUAL",
                                                             "MATCHES",
                                                             "VERSION_EQUAL",
                                                             "VERSION_LESS",
                                                             "VERSION_GREATER",
                                                             "VERSION_LESS_EQUAL",
                                                             "VERSION_GREATER_EQUAL",
                                                             "IN_LIST",
                                                             "PATH_EQUAL",
                                                             "IS_NEWER_THAN"};
    return std::ranges::find(binary, word) != binary.end();
  }

  // An operand's value: a variable's where it names one, else the word itself; nullopt where
  // not known.
  std::optional<std::string> operand(const std::string& word) const {
    std::string value = word;
    if (auto variable = m_variables.find(word); variable != m_variables.end())
      value = variable->second;
    else if (word == "CMAKE_SYSTEM_NAME" || word == "CMAKE_HOST_SYSTEM_NAME")
      value = "Linux";  // as platform_variable has it: the machine kforecast builds on
    else if (!number(word) && m_arch && names_an_architecture(word))
      value = arch_reference(word);
    return settle(value);
  }

  // `value` with an architecture reference made the target's number; nullopt where a part is not known.
  std::optional<std::string> settle(std::string value) const {
    if (has_unknown(value)) return std::nullopt;
    const auto open = value.find(arch_open);
    if (open == std::string::npos) return value;
    if (!m_arch) return std::nullopt;
    const auto close = value.find(arch_close, open);
    if (close == std::string::npos) return std::nullopt;
    value.replace(open, close - open + 1, std::to_string(*m_arch));
    return settle(std::move(value));
  }

  Truth compare(const std::string& left_word, const std::string& op, const std::string& right_word) const {
    const auto left = operand(left_word);
    const auto right = operand(right_word);
    if (!left || !right) return Truth::unknown;
    auto yes_if = [](bool condition) { return condition ? Truth::yes : Truth::no; };
    if (op == "STREQUAL") return yes_if(*left == *right);
    // A pattern without regular-expression syntax ("OpenBSD") matches where it occurs; any other
    // is not worked out (a project's pattern is not run through a regex engine here).
    if (op == "MATCHES") {
      if (right->find_first_of("^$.*+?()[]{}|\\") != std::string::npos) return Truth::unknown;
      return yes_if(left->find(*right) != std::string::npos);
    }
    const auto l = number(*left);
    const auto r = number(*right);
    if (op == "EQUAL" || op == "LESS" || op == "GREATER" || op == "LESS_EQUAL" || op == "GREATER_EQUAL") {
      if (!l || !r) return Truth::unknown;
      if (op == "EQUAL") return yes_if(*l == *r);
      if (op == "LESS") return yes_if(*l < *r);
      if (op == "GREATER") return yes_if(*l > *r);
      if (op == "LESS_EQUAL") return yes_if(*l <= *r);
      return yes_if(*l >= *r);
    }
    return Truth::unknown;
  }

  // if(<word>): a constant, or a variable's value that is not a false constant.
  Truth truth_of(const std::string& word) const {
    if (auto truth = constant(word)) return *truth;
    if (auto variable = m_variables.find(word); variable != m_variables.end()) {
      const auto value = settle(variable->second);
      if (!value) return Truth::unknown;
      const auto truth = constant(*value);
      return truth && *truth == Truth::no ? Truth::no : Truth::yes;
    }
    if (auto platform = platform_variable(word)) return *platform;
    if (m_arch && names_an_architecture(word)) return *m_arch != 0 ? Truth::yes : Truth::no;
    return Truth::unknown;
  }

  const std::vector<std::string>& m_words;
  const Variables& m_variables;
  std::optional<int> m_arch;
  std::size_t m_at = 0;
};

}  // namespace

std::optional<Truth> platform_variable(std::string_view name) {
  static constexpr std::array<std::string_view, 7> absent{"WIN32",  "MSVC", "APPLE",  "MINGW",
                                                          "CYGWIN", "IOS",  "ANDROID"};
  if (std::ranges::find(absent, name) != absent.end()) return Truth::no;
  if (name == "UNIX" || name == "LINUX") return Truth::yes;
  return std::nullopt;
}

Truth evaluate_condition(const std::vector<std::string>& words, const Variables& variables, std::optional<int> arch) {
  return Condition(words, variables, arch).evaluate();
}

}  // namespace kforecast::context
