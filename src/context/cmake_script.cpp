// SPDX-License-Identifier: Apache-2.0
#include "context/cmake_script.hpp"

#include <cctype>

#include <fmt/format.h>

namespace kforecast::context {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

class ScriptReader {
 public:
  explicit ScriptReader(std::string_view text) : m_text(text) {}

  std::expected<std::vector<CMakeCommand>, std::string> commands() {
    std::vector<CMakeCommand> result;
    while (true) {
      if (auto skipped = skip_space_and_comments(); !skipped) return std::unexpected(skipped.error());
      if (at_end()) return result;
      if (!is_name_start(peek())) return fail(fmt::format("unexpected '{}'", peek()));
      if (result.size() == max_cmake_commands) return fail(fmt::format("more than {} commands", max_cmake_commands));
      CMakeCommand command;
      command.line = m_line;
      while (!at_end() && is_name_char(peek()))
        command.name += static_cast<char>(std::tolower(static_cast<unsigned char>(next())));
      while (!at_end() && (peek() == ' ' || peek() == '\t')) next();
      if (at_end() || peek() != '(') return fail(fmt::format("'{}' without '('", command.name));
      next();
      if (auto arguments = read_arguments(command.arguments); !arguments) return std::unexpected(arguments.error());
      result.push_back(std::move(command));
    }
  }

 private:
  bool at_end() const { return m_at >= m_text.size(); }
  char peek(std::size_t ahead = 0) const { return m_at + ahead < m_text.size() ? m_text[m_at + ahead] : '\0'; }
  char next() {
    const char c = m_text[m_at++];
    if (c == '\n') ++m_line;
    return c;
  }
  std::unexpected<std::string> fail(std::string_view what) const {
    return std::unexpected(fmt::format("line {}: {}", m_line, what));
  }

  // The number of '=' of a bracket opening "[==[" at the cursor, or -1 where there is none.
  int bracket_level() const {
    if (peek() != '[') return -1;
    std::size_t at = 1;
    while (peek(at) == '=') ++at;
    return peek(at) == '[' ? static_cast<int>(at - 1) : -1;
  }

  // Past a bracket "[==[...]==]" at the cursor; its contents.
  std::expected<std::string, std::string> read_bracket(int level) {
    const std::string close = "]" + std::string(static_cast<std::size_t>(level), '=') + "]";
    for (int i = 0; i < level + 2; ++i) next();
    const std::size_t end = m_text.find(close, m_at);
    if (end == std::string_view::npos) return fail("unterminated bracket argument or comment");
    std::string contents(m_text.substr(m_at, end - m_at));
    while (m_at < end + close.size()) next();
    if (contents.starts_with('\n')) contents.erase(0, 1);
    return contents;
  }

  std::expected<void, std::string> skip_comment() {
    next();  // '#'
    if (const int level = bracket_level(); level >= 0) {
      if (auto skipped = read_bracket(level); !skipped) return std::unexpected(skipped.error());
      return {};
    }
    while (!at_end() && peek() != '\n') next();
    return {};
  }

  std::expected<void, std::string> skip_space_and_comments() {
    while (!at_end()) {
      if (is_space(peek())) {
        next();
      } else if (peek() == '#') {
        if (auto skipped = skip_comment(); !skipped) return skipped;
      } else {
        break;
      }
    }
    return {};
  }

  std::expected<std::string, std::string> read_quoted() {
    next();  // '"'
    std::string text;
    while (!at_end() && peek() != '"') {
      const char c = next();
      if (c != '\\') {
        text += c;
        continue;
      }
      if (at_end()) break;
      const char escaped = next();
      switch (escaped) {
        case '\n':  // a line continuation
          break;
        case 'n':
          text += '\n';
          break;
        case 't':
          text += '\t';
          break;
        case 'r':
          text += '\r';
          break;
        case ';':  // a literal ';', which CMake keeps escaped in the value
          text += "\\;";
          break;
        default:
          text += escaped;
      }
    }
    if (at_end()) return fail("unterminated quoted argument");
    next();
    return text;
  }

  // An unquoted argument, with a legacy quoted part inside it (-DNAME="a b") kept as written.
  std::string read_unquoted() {
    std::string text;
    while (!at_end() && !is_space(peek()) && peek() != '(' && peek() != ')' && peek() != '#') {
      const char c = next();
      if (c == '\\' && !at_end()) {
        text += c;
        text += next();
      } else if (c == '"') {
        text += c;
        while (!at_end() && peek() != '"') text += next();
        if (!at_end()) text += next();
      } else {
        text += c;
      }
    }
    return text;
  }

  std::expected<void, std::string> read_arguments(std::vector<CMakeArgument>& arguments) {
    std::size_t depth = 0;
    while (true) {
      if (auto skipped = skip_space_and_comments(); !skipped) return skipped;
      if (at_end()) return fail("unterminated argument list");
      const char c = peek();
      if (c == ')') {
        next();
        if (depth == 0) return {};
        --depth;
        arguments.push_back({")", CMakeArgument::Kind::unquoted});
      } else if (c == '(') {
        next();
        ++depth;
        arguments.push_back({"(", CMakeArgument::Kind::unquoted});
      } else if (c == '"') {
        auto text = read_quoted();
        if (!text) return std::unexpected(text.error());
        arguments.push_back({std::move(*text), CMakeArgument::Kind::quoted});
      } else if (const int level = bracket_level(); level >= 0) {
        auto text = read_bracket(level);
        if (!text) return std::unexpected(text.error());
        arguments.push_back({std::move(*text), CMakeArgument::Kind::bracket});
      } else {
        arguments.push_back({read_unquoted(), CMakeArgument::Kind::unquoted});
      }
    }
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  std::size_t m_line = 1;
};

}  // namespace

std::expected<std::vector<CMakeCommand>, std::string> parse_cmake_script(std::string_view text) {
  return ScriptReader(text).commands();
}

}  // namespace kforecast::context
