// SPDX-License-Identifier: Apache-2.0
#include "context/shell_words.hpp"

namespace kforecast::context {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Characters a backslash escapes inside double quotes; before any other it stays a backslash.
bool escapable_in_double_quotes(char c) { return c == '$' || c == '`' || c == '"' || c == '\\' || c == '\n'; }

}  // namespace

Result<std::vector<std::string>> split_shell_words(std::string_view command) {
  enum class Quote { none, single, double_ };
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // "" is a word of its own, so quotes start a word as a character does
  Quote quote = Quote::none;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    switch (quote) {
      case Quote::single:
        if (c == '\'')
          quote = Quote::none;
        else
          word += c;
        continue;
      case Quote::double_:
        if (c == '"') {
          quote = Quote::none;
        } else if (c == '\\' && i + 1 < command.size() && escapable_in_double_quotes(command[i + 1])) {
          if (command[i + 1] != '\n') word += command[i + 1];
          ++i;
        } else {
          word += c;
        }
        continue;
      case Quote::none:
        break;
    }
    if (is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    if (c == '\\' && i + 1 < command.size() && command[i + 1] == '\n') {  // a line continuation
      ++i;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      quote = Quote::single;
    } else if (c == '"') {
      quote = Quote::double_;
    } else if (c == '\\') {
      if (i + 1 == command.size()) return usage_error("a backslash at the end of the command");
      word += command[++i];
    } else {
      word += c;
    }
  }
  if (quote == Quote::single) return usage_error("an unterminated single quote");
  if (quote == Quote::double_) return usage_error("an unterminated double quote");
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace kforecast::context
