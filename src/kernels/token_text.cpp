// SPDX-License-Identifier: Apache-2.0
#include "kernels/token_text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>

namespace kforecast::kernels {
namespace {

constexpr auto sorted_keywords = [] {
  auto words = std::to_array<std::string_view>({
      "__align__",
      "__asm__",
      "__attribute__",
      "__cluster_dims__",
      "__constant__",
      "__declspec",
      "__device__",
      "__forceinline__",
      "__global__",
      "__grid_constant__",
      "__host__",
      "__inline__",
      "__launch_bounds__",
      "__managed__",
      "__maxnreg__",
      "__noinline__",
      "__restrict",
      "__restrict__",
      "__shared__",
      "__volatile__",
      "alignas",
      "alignof",
      "and",
      "asm",
      "auto",
      "bool",
      "break",
      "case",
      "catch",
      "char",
      "char16_t",
      "char32_t",
      "char8_t",
      "class",
      "co_await",
      "co_return",
      "co_yield",
      "concept",
      "const",
      "const_cast",
      "consteval",
      "constexpr",
      "constinit",
      "continue",
      "decltype",
      "default",
      "delete",
      "do",
      "double",
      "dynamic_cast",
      "else",
      "enum",
      "explicit",
      "export",
      "extern",
      "false",
      "float",
      "for",
      "friend",
      "goto",
      "if",
      "inline",
      "int",
      "long",
      "mutable",
      "namespace",
      "new",
      "noexcept",
      "not",
      "nullptr",
      "operator",
      "or",
      "private",
      "protected",
      "public",
      "register",
      "reinterpret_cast",
      "requires",
      "restrict",
      "return",
      "short",
      "signed",
      "sizeof",
      "static",
      "static_assert",
      "static_cast",
      "struct",
      "switch",
      "template",
      "this",
      "thread_local",
      "throw",
      "true",
      "try",
      "typedef",
      "typeid",
      "typename",
      "union",
      "unsigned",
      "using",
      "virtual",
      "void",
      "volatile",
      "wchar_t",
      "while",
      "xor",
  });
  std::sort(words.begin(), words.end());
  return words;
}();

// Keywords in an open-addressing table keyed by a hash of the length and three bytes, so that
// a lookup compares with one or two candidates, most of them by length alone: this runs for
// every distinct name of every function.
constexpr std::size_t keyword_slots = 512;  // a power of two, about five times the keywords

constexpr std::size_t keyword_hash(std::string_view word) {
  const auto byte = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(word[i])); };
  return (word.size() * 151 + byte(0) * 59 + byte(word.size() - 1) * 17 + byte(word.size() / 2) * 7) &
         (keyword_slots - 1);
}

struct KeywordTable {
  std::array<std::string_view, keyword_slots> slots{};  // empty: a free slot
};

constexpr KeywordTable make_keyword_table() {
  KeywordTable table;
  for (const std::string_view word : sorted_keywords) {
    std::size_t slot = keyword_hash(word);
    while (!table.slots[slot].empty()) slot = (slot + 1) & (keyword_slots - 1);
    table.slots[slot] = word;
  }
  return table;
}
constexpr KeywordTable keyword_table = make_keyword_table();

}  // namespace

bool is_keyword(std::string_view word) {
  if (word.empty()) return false;
  for (std::size_t slot = keyword_hash(word);; slot = (slot + 1) & (keyword_slots - 1)) {
    const std::string_view candidate = keyword_table.slots[slot];
    if (candidate.empty()) return false;
    if (candidate.size() == word.size() && candidate == word) return true;
  }
}

std::string spaced_text(std::span<const Token> tokens) {
  std::string text;
  append_spaced_text(text, tokens);
  return text;
}

void append_spaced_text(std::string& text, std::span<const Token> tokens) {
  if (tokens.empty()) return;
  // One allocation: the text is at most the bytes the tokens cover. Addresses as integers,
  // since tokens of a copy may lie anywhere.
  const auto first = reinterpret_cast<std::uintptr_t>(tokens.front().text().data());
  const auto last = reinterpret_cast<std::uintptr_t>(tokens.back().text().data() + tokens.back().text().size());
  if (last >= first && last - first < (std::uintptr_t{1} << 20)) text.reserve(text.size() + (last - first));
  // Most token runs (a parameter's type, a macro's body) are written with single spaces: then
  // the text is the source's own bytes, copied at once rather than token by token.
  bool as_written =
      tokens.front().kind != TokenKind::directive_begin && tokens.front().kind != TokenKind::directive_end;
  for (std::size_t i = 1; i < tokens.size() && as_written; ++i) {
    const auto end = reinterpret_cast<std::uintptr_t>(tokens[i - 1].text().data() + tokens[i - 1].text().size());
    const auto begin = reinterpret_cast<std::uintptr_t>(tokens[i].text().data());
    as_written = tokens[i].kind != TokenKind::directive_begin && tokens[i].kind != TokenKind::directive_end &&
                 (begin == end || (begin == end + 1 && tokens[i].text().data()[-1] == ' '));
  }
  if (as_written) {
    // NOLINTNEXTLINE(bugprone-suspicious-stringview-data-usage): the length goes with it
    text.append(tokens.front().text().data(), last - first);
    return;
  }
  const std::size_t start = text.size();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::directive_begin || tokens[i].kind == TokenKind::directive_end) continue;
    if (text.size() > start && tokens[i].text().data() != tokens[i - 1].text().data() + tokens[i - 1].text().size())
      text += ' ';
    text += tokens[i].text();
  }
}

Span span_of(std::string_view source, const Token& first, const Token& last) {
  const std::less<const char*> before;
  const char* const source_end = source.data() + source.size();
  if (before(first.text().data(), source.data()) || before(source_end, last.text().data() + last.text().size()))
    return Span{};
  const auto begin = static_cast<std::size_t>(first.text().data() - source.data());
  const auto end = std::max(begin, static_cast<std::size_t>(last.text().data() + last.text().size() - source.data()));
  const auto newlines = static_cast<std::uint32_t>(std::count(last.text().begin(), last.text().end(), '\n'));
  return Span{begin, end, first.line, std::max(first.line, last.line + newlines)};
}

std::size_t matching_close(std::span<const Token> tokens, std::size_t open) {
  std::size_t depth = 0;
  for (std::size_t i = open; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::punctuation || tokens[i].text().size() != 1) continue;
    const char c = tokens[i].text()[0];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth <= 1) return i;
      --depth;
    }
  }
  return tokens.size();
}

std::size_t matching_angle(std::span<const Token> tokens, std::size_t open, std::size_t limit) {
  std::size_t depth = 0;
  const std::size_t stop = std::min(tokens.size(), open + limit);
  for (std::size_t i = open; i < stop; ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::punctuation) continue;
    if (t.text() == "<") {
      ++depth;
    } else if (t.text() == ">" || t.text() == ">>") {
      const std::size_t closes = t.text().size();
      if (depth <= closes) return i;
      depth -= closes;
    } else if (t.text() == "(" || t.text() == "[") {
      const std::size_t close = matching_close(tokens, i);
      if (close >= stop) return tokens.size();
      i = close;
    } else if (t.text() == ";" || t.text() == "{" || t.text() == "}" || t.text() == ")" || t.text() == "]") {
      return tokens.size();
    }
  }
  return tokens.size();
}

}  // namespace kforecast::kernels
