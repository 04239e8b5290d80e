// SPDX-License-Identifier: Apache-2.0
#include "diff/git_path.hpp"

#include <fmt/format.h>

namespace kforecast::diff {
namespace {

std::optional<char> simple_escape(char c) {
  switch (c) {
    case 'a':
      return '\a';
    case 'b':
      return '\b';
    case 't':
      return '\t';
    case 'n':
      return '\n';
    case 'v':
      return '\v';
    case 'f':
      return '\f';
    case 'r':
      return '\r';
    case '"':
      return '"';
    case '\\':
      return '\\';
    default:
      return std::nullopt;
  }
}

bool is_octal(char c) { return c >= '0' && c <= '7'; }

// The text after the first '/', or nullopt without one.
std::optional<std::string_view> after_first_component(std::string_view name) {
  const auto slash = name.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  return name.substr(slash + 1);
}

}  // namespace

std::expected<UnquotedName, std::string> unquote_c_path(std::string_view text) {
  if (text.empty() || text.front() != '"') return std::unexpected(std::string("a quoted name must start with '\"'"));
  std::string name;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') return UnquotedName{std::move(name), i + 1};
    if (c != '\\') {
      name += c;
      continue;
    }
    if (++i == text.size()) break;
    if (auto plain = simple_escape(text[i])) {
      name += *plain;
    } else if (text[i] >= '0' && text[i] <= '3' && i + 2 < text.size() && is_octal(text[i + 1]) &&
               is_octal(text[i + 2])) {
      name += static_cast<char>(((text[i] - '0') << 6) | ((text[i + 1] - '0') << 3) | (text[i + 2] - '0'));
      i += 2;
    } else {
      return std::unexpected(fmt::format("unknown escape '\\{}' in a quoted name", text[i]));
    }
  }
  return std::unexpected(std::string("a quoted name has no closing '\"'"));
}

std::expected<std::string, std::string> parse_path_field(std::string_view field) {
  if (field.starts_with('"')) {
    auto unquoted = unquote_c_path(field);
    if (!unquoted) return std::unexpected(unquoted.error());
    if (unquoted->name.empty()) return std::unexpected(std::string("the file name is empty"));
    return std::move(unquoted->name);
  }
  std::string_view name = field.substr(0, field.find('\t'));
  if (name.empty()) return std::unexpected(std::string("the file name is missing"));
  return std::string(name);
}

std::optional<std::string> shared_path(std::string_view old_name, std::string_view new_name) {
  if (old_name.empty() || new_name.empty()) return std::nullopt;
  if (old_name == new_name) return std::string(old_name);
  auto old_rest = after_first_component(old_name);
  auto new_rest = after_first_component(new_name);
  if (!old_rest || !new_rest || old_rest->empty() || *old_rest != *new_rest) return std::nullopt;
  return std::string(*old_rest);
}

std::expected<std::pair<std::string, std::string>, std::string> split_git_names(std::string_view text) {
  if (text.starts_with('"')) {
    auto old_name = unquote_c_path(text);
    if (!old_name) return std::unexpected(old_name.error());
    std::string_view rest = text.substr(old_name->length);
    if (!rest.starts_with(' ')) return std::unexpected(std::string("expected a space after the old name"));
    auto new_name = parse_path_field(rest.substr(1));
    if (!new_name) return std::unexpected(new_name.error());
    return std::pair{std::move(old_name->name), std::move(*new_name)};
  }
  if (text.ends_with('"')) {
    // A bare old name and a quoted new one. Inside a quoted name every '"' but the closing one
    // follows a backslash, so the new name opens at the last ' "' of the line, or at the one
    // before it when the name ends in a space: at most two tries.
    auto at = text.rfind(" \"");
    for (int tries = 0; tries < 2 && at != std::string_view::npos && at > 0; ++tries, at = text.rfind(" \"", at - 1)) {
      auto new_name = unquote_c_path(text.substr(at + 1));
      if (new_name && at + 1 + new_name->length == text.size())
        return std::pair{std::string(text.substr(0, at)), std::move(new_name->name)};
    }
    return std::unexpected(std::string("cannot find where the quoted new name starts"));
  }
  // Bare names: "OLD NEW" with OLD == NEW (no prefixes), or "P/REST Q/REST". The middle space is
  // the only candidate for the first form. For the second, REST's length grows with the split
  // point while the new name's tail after its first '/' shrinks, so at most one split has equal
  // lengths and gets compared: linear in the line, whatever it holds.
  if (text.size() % 2 == 1 && text[text.size() / 2] == ' ' &&
      text.substr(0, text.size() / 2) == text.substr(text.size() / 2 + 1)) {
    std::string name(text.substr(0, text.size() / 2));
    return std::pair{name, name};
  }
  const auto old_slash = text.find('/');
  if (old_slash != std::string_view::npos) {
    std::size_t next_slash = std::string_view::npos;
    for (std::size_t i = text.size(); i-- > old_slash + 1;) {
      if (text[i] == '/') next_slash = i;
      if (text[i] != ' ' || next_slash == std::string_view::npos) continue;
      const std::string_view rest = text.substr(old_slash + 1, i - old_slash - 1);
      const std::string_view new_rest = text.substr(next_slash + 1);
      if (!rest.empty() && rest == new_rest)
        return std::pair{std::string(text.substr(0, i)), std::string(text.substr(i + 1))};
    }
  }
  // Two different names with one space between them can only split there (a rename whose
  // "rename" lines are missing; the caller reports it).
  if (const auto space = text.find(' '); space != std::string_view::npos && space > 0 && space + 1 < text.size() &&
                                         text.find(' ', space + 1) == std::string_view::npos)
    return std::pair{std::string(text.substr(0, space)), std::string(text.substr(space + 1))};
  return std::unexpected(std::string("cannot tell where the old name ends and the new one starts"));
}

std::string_view strip_lone_prefix(std::string_view name, Side side) {
  const std::string_view prefix = side == Side::old_version ? "a/" : "b/";
  if (name.starts_with(prefix) && name.size() > prefix.size()) name.remove_prefix(prefix.size());
  return name;
}

}  // namespace kforecast::diff
