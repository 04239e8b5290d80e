// SPDX-License-Identifier: Apache-2.0
#include "kernels/canonical_tokens.hpp"

#include <algorithm>
#include <array>

#include "kernels/canonical_passes.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

// Keywords of a decl-specifier-seq, CUDA's among them, whose order carries no meaning.
constexpr auto movable_specifiers = [] {
  auto words = std::to_array<std::string_view>({
      "__constant__",
      "__device__",
      "__forceinline__",
      "__global__",
      "__grid_constant__",
      "__host__",
      "__inline__",
      "__managed__",
      "__noinline__",
      "__shared__",
      "auto",
      "bool",
      "char",
      "char16_t",
      "char32_t",
      "char8_t",
      "const",
      "consteval",
      "constexpr",
      "constinit",
      "double",
      "explicit",
      "extern",
      "float",
      "friend",
      "inline",
      "int",
      "long",
      "mutable",
      "register",
      "short",
      "signed",
      "static",
      "thread_local",
      "typedef",
      "unsigned",
      "virtual",
      "void",
      "volatile",
      "wchar_t",
  });
  std::ranges::sort(words);
  return words;
}();

// Per first byte, the range of movable_specifiers that start with it: most names are looked up
// with no comparison at all (this runs for every name of every fingerprinted piece).
constexpr auto specifiers_by_first_byte = [] {
  std::array<std::pair<std::uint8_t, std::uint8_t>, 256> ranges{};
  for (std::size_t i = 0; i < movable_specifiers.size(); ++i) {
    auto& range = ranges[static_cast<unsigned char>(movable_specifiers[i][0])];
    if (range.first == range.second) range.first = static_cast<std::uint8_t>(i);
    range.second = static_cast<std::uint8_t>(i + 1);
  }
  return ranges;
}();

bool is_movable_specifier(const Token& t) {
  if (t.kind != TokenKind::identifier) return false;
  const std::string_view text = t.text();
  const auto [first, last] = specifiers_by_first_byte[static_cast<unsigned char>(text[0])];
  for (std::size_t i = first; i < last; ++i)
    if (movable_specifiers[i] == text) return true;
  return false;
}

bool is_cv(const Token& t) { return t.is_identifier("const") || t.is_identifier("volatile"); }

bool is_plain_name(const Token& t) { return t.kind == TokenKind::identifier && !is_keyword(t.text()); }

constexpr std::string_view one_angle = ">";

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_octal_digit(char c) { return c >= '0' && c <= '7'; }

// Whether "a" "b" reads as "ab": both plain literals (no prefix, not raw), and no escape at the
// end of the first that the second's first character would extend ("\x1" "2" is not "\x12").
bool joins(const Token& first, const Token& second) {
  const auto plain = [](const Token& t) {
    const std::string_view s = t.text();
    return t.kind == TokenKind::string_literal && s.size() >= 2 && s.front() == '"' && s.back() == '"';
  };
  if (!plain(first) || !plain(second)) return false;
  const std::string_view a = first.text().substr(1, first.text().size() - 2);
  const std::string_view b = second.text().substr(1, second.text().size() - 2);
  if (b.empty()) return true;
  bool open_hex = false, open_octal = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    open_hex = open_octal = false;
    if (a[i] != '\\' || i + 1 >= a.size()) continue;
    std::size_t k = i + 1;
    if (a[k] == 'x') {
      while (k + 1 < a.size() && is_hex_digit(a[k + 1])) ++k;
      open_hex = k + 1 == a.size();
    } else if (is_octal_digit(a[k])) {
      std::size_t digits = 1;
      while (digits < 3 && k + 1 < a.size() && is_octal_digit(a[k + 1])) ++k, ++digits;
      open_octal = k + 1 == a.size() && digits < 3;
    }
    i = k;
  }
  return !(open_hex && is_hex_digit(b.front())) && !(open_octal && is_octal_digit(b.front()));
}

}  // namespace

// Pass one: `>>` as two `>`; adjacent string literals as one (BreakStringLiterals).
void CanonicalTokens::split_and_join(std::span<const Token> tokens, std::vector<Token>& out) {
  out.clear();
  out.reserve(tokens.size() + tokens.size() / 16);
  for (const Token& t : tokens) {
    if (t.is_punct(">>")) {
      out.emplace_back(one_angle, t.line, TokenKind::punctuation);
      out.emplace_back(one_angle, t.line, TokenKind::punctuation);
    } else if (!out.empty() && joins(out.back(), t)) {
      const std::string_view a = out.back().text(), b = t.text();
      std::string& joined = m_joined.emplace_back();
      joined.reserve(a.size() + b.size() - 2);
      joined.append(a.substr(0, a.size() - 1)).append(b.substr(1));
      out.back() = Token(joined, out.back().line, TokenKind::string_literal);
    } else {
      out.push_back(t);
    }
  }
}

namespace {

// Pass two: in each run of specifier keywords and names, the keywords move to the front, sorted;
// const and volatile only to the front of their part of the run between upper-case names.
class SpecifierOrder {
 public:
  SpecifierOrder(std::span<const Token> tokens, std::vector<Token>& out) : m_tokens(tokens), m_out(out) {}

  void reorder(std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end;) {
      // Most names stand alone, an operator or a bracket after them: a run of one, nothing to move.
      const bool alone = m_tokens[i].kind == TokenKind::identifier && i + 1 < end &&
                         m_tokens[i + 1].kind == TokenKind::punctuation && !m_tokens[i + 1].is_punct("<") &&
                         !m_tokens[i + 1].is_punct("::") && !is_movable_specifier(m_tokens[i]);
      if (!alone && (is_movable_specifier(m_tokens[i]) || starts_name(i, end))) {
        i = run(i, end);
      } else {
        m_out.push_back(m_tokens[i++]);
      }
    }
  }

 private:
  struct Keyword {
    std::size_t segment = 0;
    Token token;
    bool cv = false;
  };

  bool starts_name(std::size_t i, std::size_t end) const {
    if (is_plain_name(m_tokens[i])) return true;
    return m_tokens[i].is_punct("::") && i + 1 < end && is_plain_name(m_tokens[i + 1]);
  }

  // A name, qualified and with template arguments (ns::View<const T>::type), written to the
  // output with its arguments' own runs reordered; returns the index after it.
  std::size_t name(std::size_t i, std::size_t end) {
    if (m_tokens[i].is_punct("::")) m_out.push_back(m_tokens[i++]);
    while (true) {
      m_out.push_back(m_tokens[i++]);
      // `a < b` is read as template arguments only where a '>' may close it: a comparison
      // followed by `;` or `)` costs no search.
      if (i + 2 < end && m_tokens[i].is_punct("<") && !m_tokens[i + 2].is_punct(";") &&
          !m_tokens[i + 2].is_punct(")")) {
        const std::size_t close = matching_angle(m_tokens.first(end), i, 64);
        if (close < end) {
          m_out.push_back(m_tokens[i]);
          reorder(i + 1, close);
          m_out.push_back(m_tokens[close]);
          i = close + 1;
        }
      }
      if (i + 1 < end && m_tokens[i].is_punct("::") && is_plain_name(m_tokens[i + 1])) {
        m_out.push_back(m_tokens[i++]);
        continue;
      }
      return i;
    }
  }

  // Runs nest (a template argument's own run inside a name): each keeps its keywords and
  // segments at the end of the shared vectors, from its own base.
  std::size_t run(std::size_t i, std::size_t end) {
    const std::size_t run_start = m_out.size();
    const std::size_t keywords_base = m_keywords.size();
    const std::size_t segments_base = m_segment_starts.size();
    m_segment_starts.push_back(run_start);
    while (i < end) {
      const Token& t = m_tokens[i];
      if (is_movable_specifier(t)) {
        m_keywords.push_back({m_segment_starts.size() - 1 - segments_base, t, is_cv(t)});
        ++i;
      } else if (starts_name(i, end)) {
        const bool macro = is_plain_name(t) && looks_like_macro(t.text());
        i = name(i, end);
        if (macro) m_segment_starts.push_back(m_out.size());
      } else {
        break;
      }
    }
    const auto keywords = std::span(m_keywords).subspan(keywords_base);
    const auto segments = std::span(m_segment_starts).subspan(segments_base);
    if (!keywords.empty()) place(keywords, segments, run_start);
    m_keywords.resize(keywords_base);
    m_segment_starts.resize(segments_base);
    return i;
  }

  // The run's keywords into the output: const and volatile, sorted, at the start of their
  // segment; the others, sorted, at the start of the run.
  void place(std::span<Keyword> keywords, std::span<const std::size_t> segments, std::size_t run_start) {
    std::ranges::stable_sort(keywords, [](const Keyword& a, const Keyword& b) {
      if (a.cv != b.cv) return !a.cv;
      if (a.cv && a.segment != b.segment) return a.segment < b.segment;
      return a.token.text() < b.token.text();
    });
    // Later segments first, so that the positions of earlier ones hold.
    for (std::size_t segment = segments.size(); segment-- > 0;) {
      std::size_t at = segments[segment];
      for (const Keyword& k : keywords)
        if (k.cv && k.segment == segment) m_out.insert(m_out.begin() + static_cast<std::ptrdiff_t>(at++), k.token);
    }
    std::size_t at = run_start;
    for (const Keyword& k : keywords)
      if (!k.cv) m_out.insert(m_out.begin() + static_cast<std::ptrdiff_t>(at++), k.token);
  }

  std::span<const Token> m_tokens;
  std::vector<Token>& m_out;
  std::vector<Keyword> m_keywords;
  std::vector<std::size_t> m_segment_starts;  // output positions
};

}  // namespace

void MacroStatements::add(const Macro& macro) {
  const std::vector<Token> body = lex(macro.body);
  const auto one = [&] {
    if (body.empty()) return true;
    // do { ... } while (0): one statement, whatever is inside.
    if (body.front().is_identifier("do") && body.back().is_punct(")")) {
      for (std::size_t k = body.size(); k-- > 1;)
        if (body[k].is_identifier("while"))
          return body[k - 1].is_punct("}") && matching_close(body, k + 1) == body.size() - 1;
      return false;
    }
    return std::ranges::none_of(body, [](const Token& t) {
      return t.is_punct(";") || t.is_punct("{") || t.is_punct("}") || t.is_identifier("if") ||
             t.is_identifier("else") || t.is_identifier("for") || t.is_identifier("while") || t.is_identifier("do") ||
             t.is_identifier("switch") || t.is_identifier("case") || t.is_identifier("default") ||
             t.is_identifier("return") || t.is_identifier("goto") || t.is_identifier("break") ||
             t.is_identifier("continue");
    });
  }();
  if (!one) {
    one_statement.erase(macro.name);
    several.insert(macro.name);
  } else if (!several.contains(macro.name)) {
    one_statement.insert(macro.name);
  }
}

void CanonicalTokens::read(std::span<const Token> tokens, const MacroStatements* macros) {
  m_joined.clear();
  split_and_join(tokens, m_split);
  m_ordered.clear();
  m_ordered.reserve(m_split.size());
  SpecifierOrder(m_split, m_ordered).reorder(0, m_split.size());
  drop_redundant_parentheses(m_ordered, m_split, macros);
  drop_body_braces(m_split, m_tokens, macros);
}

std::string canonical_text(std::span<const Token> tokens) {
  thread_local CanonicalTokens canonical;
  canonical.read(tokens);
  std::string text;
  for (const Token& t : canonical.tokens()) {
    if (is_directive(t)) continue;
    if (!text.empty()) text += ' ';
    for_each_canonical_byte(t, [&](char c) { text += c; });
  }
  return text;
}

}  // namespace kforecast::kernels
