// SPDX-License-Identifier: Apache-2.0
#include "context/python_tokens.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <span>

#include "context/found_define.hpp"

namespace kforecast::context {
namespace {

using Kind = PythonToken::Kind;

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// An f-string's value with each {expression} a reference not known ("{{" is a brace).
std::string f_string_value(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if ((raw[i] == '{' || raw[i] == '}') && i + 1 < raw.size() && raw[i + 1] == raw[i]) {
      out += raw[i++];
    } else if (raw[i] == '{') {
      const std::size_t close = raw.find('}', i);
      if (close == std::string_view::npos) return out + unknown_reference(raw.substr(i + 1));
      out += unknown_reference(raw.substr(i + 1, close - i - 1));
      i = close;
    } else {
      out += raw[i];
    }
  }
  return out;
}

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : m_text(text) {}

  std::vector<PythonToken> tokens() {
    std::vector<PythonToken> out;
    bool at_line_start = true;
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '\n') {
        ++m_line;
        ++m_at;
        m_line_begin = m_at;
        if (m_depth == 0) at_line_start = true;
        continue;
      }
      if (c == '#') {
        while (m_at < m_text.size() && m_text[m_at] != '\n') ++m_at;
        continue;
      }
      if (c == '\\' && m_at + 1 < m_text.size() && m_text[m_at + 1] == '\n') {  // an explicit line join
        m_at += 2;
        ++m_line;
        m_line_begin = m_at;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        ++m_at;
        continue;
      }
      const std::size_t column = m_at - m_line_begin;
      const std::size_t line = m_line;
      PythonToken token;
      if (auto prefix = string_prefix(); prefix >= 0) {
        token = read_string(static_cast<std::size_t>(prefix));
      } else if (is_name_char(c)) {
        token.kind = std::isdigit(static_cast<unsigned char>(c)) != 0 ? Kind::number : Kind::name;
        while (m_at < m_text.size() && (is_name_char(m_text[m_at]) || m_text[m_at] == '.')) token.text += m_text[m_at++];
      } else {
        token.text = std::string(1, c);
        if (c == '(' || c == '[' || c == '{') ++m_depth;
        if ((c == ')' || c == ']' || c == '}') && m_depth > 0) --m_depth;
        ++m_at;
      }
      token.line = line;
      token.column = column;
      token.line_start = at_line_start;
      at_line_start = false;
      out.push_back(std::move(token));
    }
    return out;
  }

 private:
  // The length of a string's prefix (f, rb, ...) where a string starts at the cursor, else -1.
  int string_prefix() const {
    std::size_t at = m_at;
    while (at < m_text.size() && at - m_at < 2 && std::string_view("rRbBfFuU").find(m_text[at]) != std::string_view::npos)
      ++at;
    if (at < m_text.size() && (m_text[at] == '"' || m_text[at] == '\'')) return static_cast<int>(at - m_at);
    return -1;
  }

  PythonToken read_string(std::size_t prefix_length) {
    const std::string_view prefix = m_text.substr(m_at, prefix_length);
    const bool formatted = prefix.find_first_of("fF") != std::string_view::npos;
    const bool raw = prefix.find_first_of("rR") != std::string_view::npos;
    m_at += prefix_length;
    const char quote = m_text[m_at];
    const bool triple = m_text.substr(m_at, 3) == std::string(3, quote);
    m_at += triple ? 3 : 1;
    PythonToken token;
    token.kind = Kind::string;
    std::string value;
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '\\' && !raw && m_at + 1 < m_text.size()) {
        value += m_text[m_at + 1];
        if (m_text[m_at + 1] == '\n') new_line(m_at + 2);
        m_at += 2;
        continue;
      }
      if (c == '\n') {
        if (!triple) break;  // an unterminated one-line string ends at the line
        new_line(m_at + 1);
      }
      if (c == quote && (!triple || m_text.substr(m_at, 3) == std::string(3, quote))) {
        m_at += triple ? 3 : 1;
        break;
      }
      value += c;
      ++m_at;
    }
    token.text = formatted ? f_string_value(value) : value;
    return token;
  }

  void new_line(std::size_t begin) {
    ++m_line;
    m_line_begin = begin;
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  std::size_t m_line = 1;
  std::size_t m_line_begin = 0;
  int m_depth = 0;
};

// Whether a condition holds in a CUDA build whose environment sets none of the build's opt-in
// variables: yes, no, or not known; with the reason a branch it decides against is not taken.
struct Decision {
  enum class Value { yes, no, unknown };
  Value value = Value::unknown;
  std::string reason;  // why a branch taken only where the condition holds (or fails) is not
};

Decision known(bool value, std::string reason) {
  return {value ? Decision::Value::yes : Decision::Value::no, std::move(reason)};
}

Decision negated(Decision decision) {
  if (decision.value == Decision::Value::yes) decision.value = Decision::Value::no;
  else if (decision.value == Decision::Value::no) decision.value = Decision::Value::yes;
  return decision;
}

std::string upper(std::string_view text) {
  std::string out(text);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// A name's parts (split at '.' and '_') include HIP or ROCM: torch.version.hip, IS_ROCM, HIP_BUILD.
bool names_rocm(std::string_view name) {
  const std::string text = upper(name);
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find_first_of("._", begin), text.size());
    const std::string_view part = std::string_view(text).substr(begin, end - begin);
    if (part == "HIP" || part == "ROCM" || part == "HIPIFY") return true;
    begin = end + 1;
  }
  return false;
}

// Python's truth of a default an environment read falls back to, as build scripts test it
// (int(os.getenv("X", "0")), os.getenv("X", "1") == "1").
bool truthy(const PythonToken& value) {
  if (value.kind == Kind::name) return value.text == "True";
  const std::string text = upper(value.text);
  return !(text.empty() || text == "0" || text == "FALSE" || text == "OFF" || text == "NO" || text == "N");
}

bool is_text(const PythonToken& token, Kind kind, std::string_view text) { return token.kind == kind && token.text == text; }

// One operand of a condition (no `and` or `or` at its top level), decided for a CUDA build with
// no opt-in environment. `known_names`: names assigned such a condition earlier in the file.
Decision decide_atom(std::span<const PythonToken> tokens, const std::map<std::string, Decision>& known_names) {
  if (tokens.empty()) return {};
  if (is_text(tokens.front(), Kind::name, "not")) return negated(decide_atom(tokens.subspan(1), known_names));
  // bool(...) and int(...) wrappers change nothing this reads.
  while (tokens.size() > 2 && tokens.front().kind == Kind::name &&
         (tokens.front().text == "bool" || tokens.front().text == "int") && is_text(tokens[1], Kind::punctuation, "("))
    tokens = tokens.subspan(2);
  const bool compares_equal = std::ranges::any_of(tokens, [](const PythonToken& t) { return t.text == "="; }) &&
                              std::ranges::none_of(tokens, [](const PythonToken& t) { return t.text == "!"; });
  const bool compares_unequal = std::ranges::any_of(tokens, [](const PythonToken& t) { return t.text == "!"; });
  // An environment read: os.getenv("X"[, default]), os.environ.get(...), "X" in os.environ.
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    const PythonToken& token = tokens[at];
    if (token.kind != Kind::name) continue;
    const bool call = token.text.ends_with("getenv") || token.text.ends_with("environ.get");
    if (call && at + 2 < tokens.size() && is_text(tokens[at + 1], Kind::punctuation, "(") &&
        tokens[at + 2].kind == Kind::string) {
      const std::string variable = tokens[at + 2].text;
      const std::string reason = "in a branch not taken unless the environment sets " + variable;
      std::optional<PythonToken> fallback;
      if (at + 4 < tokens.size() && is_text(tokens[at + 3], Kind::punctuation, ",") &&
          tokens[at + 4].kind != Kind::punctuation)
        fallback = tokens[at + 4];
      // The first string after the call's closing parenthesis, for == and !=.
      std::optional<std::string> compared;
      for (std::size_t after = at + 3; after < tokens.size(); ++after)
        if (is_text(tokens[after], Kind::punctuation, ")")) {
          for (std::size_t next = after + 1; next < tokens.size(); ++next)
            if (tokens[next].kind == Kind::string) {
              compared = tokens[next].text;
              break;
            }
          break;
        }
      if (compared && (compares_equal || compares_unequal)) {
        const bool equal = fallback && fallback->kind == Kind::string && fallback->text == *compared;
        return known(compares_equal ? equal : !equal, reason);
      }
      if (compares_equal || compares_unequal) return {};
      return known(fallback && truthy(*fallback), reason);
    }
    if (token.text == "os.environ" && at >= 2 && is_text(tokens[at - 1], Kind::name, "in") &&
        tokens[at - 2].kind == Kind::string)
      return known(false, "in a branch not taken unless the environment sets " + tokens[at - 2].text);
  }
  for (const PythonToken& token : tokens) {
    if ((token.kind == Kind::name && names_rocm(token.text)) ||
        (token.kind == Kind::string && (upper(token.text) == "ROCM" || upper(token.text) == "HIP")))
      return known(compares_unequal, "in a ROCm (HIP) branch");
  }
  if (tokens.size() == 1 && tokens.front().kind == Kind::name)
    if (const auto found = known_names.find(tokens.front().text); found != known_names.end()) return found->second;
  return {};
}

// The parts of `tokens` between the top-level (outside brackets) names `word`.
std::vector<std::span<const PythonToken>> split_at(std::span<const PythonToken> tokens, std::string_view word) {
  std::vector<std::span<const PythonToken>> parts;
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    const std::string& text = tokens[at].text;
    if (tokens[at].kind == Kind::punctuation && (text == "(" || text == "[" || text == "{")) ++depth;
    if (tokens[at].kind == Kind::punctuation && (text == ")" || text == "]" || text == "}")) --depth;
    if (depth == 0 && is_text(tokens[at], Kind::name, word)) {
      parts.push_back(tokens.subspan(begin, at - begin));
      begin = at + 1;
    }
  }
  parts.push_back(tokens.subspan(begin));
  return parts;
}

// A whole condition: `or` of `and`s of operands, as Python groups them. One known operand can
// decide it (a ROCm test and-ed with anything is false); a conditional expression (X if C else Y)
// is not known.
Decision decide(std::span<const PythonToken> tokens, const std::map<std::string, Decision>& known_names) {
  if (split_at(tokens, "if").size() > 1) return {};
  Decision any{Decision::Value::no, {}};
  for (const auto alternative : split_at(tokens, "or")) {
    Decision all{Decision::Value::yes, {}};
    for (const auto operand : split_at(alternative, "and")) {
      const Decision decision = decide_atom(operand, known_names);
      if (decision.value == Decision::Value::no) {
        all = decision;
        break;
      }
      if (decision.value == Decision::Value::unknown) all.value = Decision::Value::unknown;
      if (all.reason.empty()) all.reason = decision.reason;
    }
    if (all.value == Decision::Value::yes) return all;
    if (all.value == Decision::Value::unknown) any.value = Decision::Value::unknown;
    if (any.reason.empty() || (any.value == Decision::Value::no && all.value == Decision::Value::no)) any.reason = all.reason;
  }
  return any;
}

// One if/elif/else chain open at an indentation.
struct Branch {
  std::size_t indent = 0;
  Decision::Value taken = Decision::Value::unknown;  // of the branch now open
  std::string reason;                              // why it is not taken, where it is not
  bool earlier_taken = false;                      // a branch of the chain before it was taken
  bool earlier_unknown = false;                    // one before it was not known
  std::string earlier_reason;                      // why the first branch was decided as it was
};

// The tokens from `begin` to the ':' that ends a compound statement's header, or to the line's end.
std::span<const PythonToken> header(const std::vector<PythonToken>& tokens, std::size_t begin, bool to_colon) {
  std::size_t end = begin;
  int depth = 0;
  while (end < tokens.size() && !(end > begin && tokens[end].line_start)) {
    const std::string& text = tokens[end].text;
    if (tokens[end].kind == Kind::punctuation) {
      if (text == "(" || text == "[" || text == "{") ++depth;
      if (text == ")" || text == "]" || text == "}") --depth;
      if (to_colon && depth == 0 && text == ":") break;
    }
    ++end;
  }
  return std::span(tokens).subspan(begin, end - begin);
}

void mark_branches(std::vector<PythonToken>& tokens) {
  std::vector<Branch> open;
  std::map<std::string, Decision> known_names;
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    PythonToken& token = tokens[at];
    if (token.line_start) {
      const bool continues = token.kind == Kind::name && (token.text == "elif" || token.text == "else");
      while (!open.empty() && (open.back().indent > token.column || (open.back().indent == token.column && !continues)))
        open.pop_back();
      if (token.kind == Kind::name && token.text == "if") {
        const Decision decision = decide(header(tokens, at + 1, true), known_names);
        open.push_back({token.column, decision.value, decision.reason, decision.value == Decision::Value::yes,
                        decision.value == Decision::Value::unknown, decision.reason});
      } else if (continues && !open.empty() && open.back().indent == token.column) {
        Branch& chain = open.back();
        const Decision decision =
            token.text == "else" ? Decision{Decision::Value::yes, {}} : decide(header(tokens, at + 1, true), known_names);
        if (chain.earlier_taken) {
          chain.taken = Decision::Value::no;
          // Its own condition's reason where that rules it out too ("elif IS_ROCM:"), else the first's.
          chain.reason = decision.value == Decision::Value::no ? decision.reason
                         : chain.earlier_reason.empty()         ? "in a branch after one that is taken"
                                                                : chain.earlier_reason;
        } else if (chain.earlier_unknown) {
          chain.taken = Decision::Value::unknown;
        } else {
          chain.taken = decision.value;
          chain.reason = decision.value == Decision::Value::no ? decision.reason : chain.earlier_reason;
        }
        chain.earlier_taken = chain.earlier_taken || decision.value == Decision::Value::yes;
        chain.earlier_unknown = chain.earlier_unknown || decision.value == Decision::Value::unknown;
        if (chain.earlier_reason.empty()) chain.earlier_reason = decision.reason;
      } else if (token.kind == Kind::name && at + 1 < tokens.size() && is_text(tokens[at + 1], Kind::punctuation, "=") &&
                 !(at + 2 < tokens.size() && is_text(tokens[at + 2], Kind::punctuation, "="))) {
        const auto value = header(tokens, at + 2, false);
        if (const Decision decision = decide(value, known_names); decision.value != Decision::Value::unknown)
          known_names[token.text] = decision;
        else
          known_names.erase(token.text);
      }
    }
    for (const Branch& branch : open)
      if (branch.taken == Decision::Value::no) {
        token.not_taken = branch.reason;
        break;
      }
  }
}

}  // namespace

std::vector<PythonToken> python_tokens(std::string_view text) {
  std::vector<PythonToken> tokens = Tokenizer(text).tokens();
  mark_branches(tokens);
  return tokens;
}

}  // namespace kforecast::context
