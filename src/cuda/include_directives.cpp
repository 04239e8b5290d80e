// SPDX-License-Identifier: Apache-2.0
#include "cuda/include_directives.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <tuple>

namespace kforecast::cuda {
namespace {

// The text after translation phases 1 and 2 as one reading of them sees it, with the original
// line of every character kept so that findings name the line a person sees.
struct PhysicalText {
  std::string text;
  std::vector<std::size_t> line_of;
};

enum class Splices { strict, lenient };
enum class Trigraphs { kept, replaced };

char trigraph(char third) {
  switch (third) {
    case '=':
      return '#';
    case '/':
      return '\\';
    case '(':
      return '[';
    case ')':
      return ']';
    case '!':
      return '|';
    case '<':
      return '{';
    case '>':
      return '}';
    case '-':
      return '~';
    case '\'':
      return '^';
    default:
      return '\0';
  }
}

PhysicalText physical_text(std::string_view source, Splices splices, Trigraphs trigraphs) {
  // Line ends become '\n' (a bare CR too: a compiler that reads it as one must not hide a
  // directive from us), and trigraphs are replaced where asked.
  PhysicalText lines;
  std::size_t line = 1;
  for (std::size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    if (c == '\r') {
      if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
      c = '\n';
    } else if (trigraphs == Trigraphs::replaced && c == '?' && i + 2 < source.size() && source[i + 1] == '?' &&
               trigraph(source[i + 2]) != '\0') {
      c = trigraph(source[i + 2]);
      i += 2;
    }
    lines.text.push_back(c);
    lines.line_of.push_back(line);
    if (c == '\n') ++line;
  }
  // Splices: backslash, line end (lenient: blanks may stand between them, as GCC allows).
  PhysicalText spliced;
  for (std::size_t i = 0; i < lines.text.size(); ++i) {
    if (lines.text[i] == '\\') {
      std::size_t j = i + 1;
      if (splices == Splices::lenient)
        while (j < lines.text.size() && (lines.text[j] == ' ' || lines.text[j] == '\t')) ++j;
      if (j < lines.text.size() && lines.text[j] == '\n') {
        i = j;
        continue;
      }
    }
    spliced.text.push_back(lines.text[i]);
    spliced.line_of.push_back(lines.line_of[i]);
  }
  return spliced;
}

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

bool include_like(std::string_view directive) {
  static constexpr std::array<std::string_view, 4> names = {"include", "include_next", "import", "embed"};
  return std::ranges::find(names, directive) != names.end();
}

bool probe_like(std::string_view identifier) {
  static constexpr std::array<std::string_view, 3> names = {"__has_include", "__has_include_next", "__has_embed"};
  return std::ranges::find(names, identifier) != names.end();
}

class Reader {
 public:
  Reader(const PhysicalText& text, std::vector<IncludeDirective>& found) : m_text(text), m_found(found) {}

  void read() {
    bool line_start = true;
    while (m_at < size()) {
      const char c = peek();
      if (c == '\n') {
        line_start = true;
        ++m_at;
      } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
        ++m_at;
      } else if (skip_comment(line_start)) {
      } else if (line_start && (c == '#' || (c == '%' && peek(1) == ':'))) {
        m_at += c == '#' ? 1 : 2;
        directive();
        line_start = true;  // directive() stops at the line end
      } else {
        line_start = false;
        token();
      }
    }
  }

 private:
  std::size_t size() const { return m_text.text.size(); }
  char peek(std::size_t ahead = 0) const { return m_at + ahead < size() ? m_text.text[m_at + ahead] : '\0'; }
  std::size_t line() const { return m_text.line_of[std::min(m_at, size() - 1)]; }

  // A comment at m_at is skipped whole. A block comment that spans lines leaves the reader at a
  // line start (stricter than the standard, which makes it one space).
  bool skip_comment(bool& line_start) {
    if (peek() == '/' && peek(1) == '/') {
      while (m_at < size() && peek() != '\n') ++m_at;
      return true;
    }
    if (peek() == '/' && peek(1) == '*') {
      // An unterminated comment is read on as code: what follows must still be seen.
      const auto end = std::string_view(m_text.text).find("*/", m_at + 2);
      if (end == std::string_view::npos) return false;
      if (std::string_view(m_text.text).substr(m_at, end - m_at).find('\n') != std::string_view::npos)
        line_start = true;
      m_at = end + 2;
      return true;
    }
    return false;
  }

  void skip_blanks() {
    bool ignored = false;
    while (m_at < size()) {
      if (peek() == ' ' || peek() == '\t' || peek() == '\f' || peek() == '\v')
        ++m_at;
      else if (!(peek() == '/' && peek(1) == '*' && skip_comment(ignored)))
        break;
    }
  }

  std::string identifier() {
    std::string name;
    while (m_at < size() && identifier_char(peek())) name.push_back(m_text.text[m_at++]);
    return name;
  }

  // After `#`: the directive's name, and for one that reads a file, its operand.
  void directive() {
    skip_blanks();
    const std::size_t at_line = line();
    const std::string name = identifier();
    if (include_like(name)) {
      skip_blanks();
      m_found.push_back(header_name(name, at_line, Delimiters::line));
    }
    // The rest of the line may still hold a __has_include probe (#if __has_include(...)).
    while (m_at < size() && peek() != '\n') {
      bool ignored = false;
      if (!skip_comment(ignored)) token();
    }
  }

  enum class Delimiters { line, parenthesis };

  // A header name at m_at: "name" or <name> on this line; anything else is computed, and its raw
  // text (to the line end, or to the closing parenthesis of a probe) is kept for the message.
  IncludeDirective header_name(std::string directive, std::size_t at_line, Delimiters until) {
    IncludeDirective found{std::move(directive), IncludeForm::computed, "", at_line};
    const char open = peek();
    if (open == '"' || open == '<') {
      const char close = open == '"' ? '"' : '>';
      const std::size_t start = m_at + 1;
      std::size_t end = start;
      while (end < size() && m_text.text[end] != close && m_text.text[end] != '\n') ++end;
      if (end < size() && m_text.text[end] == close) {
        found.form = open == '"' ? IncludeForm::quoted : IncludeForm::angled;
        found.name = m_text.text.substr(start, end - start);
        m_at = end + 1;
        return found;
      }
    }
    const std::size_t start = m_at;
    int depth = 0;
    while (m_at < size() && peek() != '\n') {
      if (until == Delimiters::parenthesis) {
        if (peek() == '(') ++depth;
        if (peek() == ')' && depth-- == 0) break;
      }
      ++m_at;
    }
    found.name = m_text.text.substr(start, m_at - start);
    while (!found.name.empty() && std::isspace(static_cast<unsigned char>(found.name.back()))) found.name.pop_back();
    return found;
  }

  // One token outside a directive's name: literals are skipped whole so that their text is never
  // read as a comment or a directive; identifiers are checked for probes.
  void token() {
    const char c = peek();
    if (identifier_start(c)) {
      const std::size_t at_line = line();
      const std::string name = identifier();
      if (peek() == '"' && (name == "R" || name == "u8R" || name == "uR" || name == "UR" || name == "LR")) {
        raw_string();
      } else if (probe_like(name)) {
        skip_blanks();
        if (peek() != '(') return;  // `defined(__has_include)`: asks whether the probe exists
        ++m_at;
        skip_blanks();
        m_found.push_back(header_name(name, at_line, Delimiters::parenthesis));
      }
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      number();
      return;
    }
    if (c == '"' || c == '\'') {
      quoted(c);
      return;
    }
    ++m_at;
  }

  // A preprocessing number, whose digit separators (1'000) are not character literals.
  void number() {
    while (m_at < size()) {
      const char c = peek();
      if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(1) == '+' || peek(1) == '-'))
        m_at += 2;  // NOLINT(bugprone-branch-clone): as a digit separator below, two characters
      else if (identifier_char(c) || c == '.')
        ++m_at;
      else if (c == '\'' && identifier_char(peek(1)))
        m_at += 2;
      else
        break;
    }
  }

  // A string or character literal; an unterminated one ends at the line end, as it does for the
  // compiler's lexer.
  void quoted(char close) {
    ++m_at;
    while (m_at < size() && peek() != close && peek() != '\n') m_at += peek() == '\\' ? 2 : 1;
    if (m_at < size() && peek() == close) ++m_at;
  }

  void raw_string() {
    ++m_at;  // the opening quote
    std::string delimiter;
    while (m_at < size() && peek() != '(' && delimiter.size() <= 16 && peek() != '\n')
      delimiter.push_back(m_text.text[m_at++]);
    if (peek() != '(') return;  // not a raw string after all: read on from here
    const std::string closing = ")" + delimiter + "\"";
    // Unterminated, it is read on as code, so nothing after it hides.
    const auto end = std::string_view(m_text.text).find(closing, m_at);
    if (end != std::string_view::npos) m_at = end + closing.size();
  }

  const PhysicalText& m_text;
  std::vector<IncludeDirective>& m_found;
  std::size_t m_at = 0;
};

}  // namespace

std::vector<IncludeDirective> find_include_directives(std::string_view source) {
  std::vector<IncludeDirective> found;
  for (const auto& [splices, trigraphs] :
       {std::pair{Splices::strict, Trigraphs::kept}, std::pair{Splices::lenient, Trigraphs::kept},
        std::pair{Splices::lenient, Trigraphs::replaced}}) {
    const auto text = physical_text(source, splices, trigraphs);
    Reader(text, found).read();
  }
  // The readings mostly agree; keep each finding once, in order of appearance.
  std::set<std::tuple<std::size_t, std::string, int, std::string>> seen;
  std::vector<IncludeDirective> unique;
  for (auto& directive : found)
    if (seen.emplace(directive.line, directive.directive, static_cast<int>(directive.form), directive.name).second)
      unique.push_back(std::move(directive));
  std::ranges::stable_sort(unique, {}, &IncludeDirective::line);
  return unique;
}

const std::vector<IncludeDirective>& IncludeDirectiveMemo::of(const std::string& text) {
  {
    const std::lock_guard lock(m_mutex);
    if (const auto found = m_found.find(&text); found != m_found.end()) return found->second;
  }
  auto directives = find_include_directives(text);  // outside the lock: two threads may both read it
  const std::lock_guard lock(m_mutex);
  return m_found.emplace(&text, std::move(directives)).first->second;
}

}  // namespace kforecast::cuda
