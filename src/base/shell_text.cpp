// SPDX-License-Identifier: Apache-2.0
#include "base/shell_text.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace kforecast {

std::optional<char> shell_active_character(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '$' || c == '`' || c == '\\' || byte < 0x20 || byte == 0x7f) return c;
  }
  return std::nullopt;
}

std::optional<char> shell_active_or_quote(std::string_view text) {
  if (auto active = shell_active_character(text)) return active;
  if (text.find('"') != std::string_view::npos) return '"';
  return std::nullopt;
}

namespace {

bool is_identifier(std::string_view text) {
  if (text.empty() || (std::isdigit(static_cast<unsigned char>(text.front())) != 0)) return false;
  for (const char c : text)
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  return true;
}

// "(a, b)", "()", "(a, ...)": a function-like macro's parameters.
bool is_parameter_list(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return false;
  text = text.substr(1, text.size() - 2);
  if (text.find_first_not_of(' ') == std::string_view::npos) return true;  // "()"
  while (true) {
    const std::size_t comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (!is_identifier(part) && part != "...") return false;
    if (comma == std::string_view::npos) return true;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace

std::optional<std::string> define_refusal(std::string_view name, std::string_view value) {
  const std::size_t open = name.find('(');
  if (!is_identifier(name.substr(0, open)) || (open != std::string_view::npos && !is_parameter_list(name.substr(open))))
    return fmt::format("'{}' is not a macro name", name);
  if (auto c = shell_active_character(name)) return fmt::format("its name holds {}", describe_character(*c));
  if (auto c = shell_active_character(value))
    return fmt::format("its value holds {}, which the shell nvcc runs its steps in would act on",
                       describe_character(*c));
  // nvcc pairs the quotes of an argument itself and stops at one left open ("Stray '\"'").
  if (std::ranges::count(value, '"') % 2 != 0)
    return std::string("its value holds an unbalanced double quote, which nvcc refuses");
  return std::nullopt;
}

std::string shell_word(std::string_view text) {
  const bool plain = !text.empty() && std::ranges::all_of(text, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("_./:=+,@%-").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(text);
  std::string word = "'";
  for (const char c : text) word += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return word + "'";
}

std::string describe_character(char c) {
  switch (c) {
    case '`':
      return "a backquote";
    case '\\':
      return "a backslash";
    case '\n':
      return "a newline";
    case '\r':
      return "a carriage return";
    case '\t':
      return "a tab";
    case '"':
      return "a double quote";
    default:
      break;
  }
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte == 0x7f) return fmt::format("control character 0x{:02x}", byte);
  return fmt::format("'{}'", c);
}

}  // namespace kforecast
