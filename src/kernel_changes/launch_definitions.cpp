// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/launch_definitions.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernels/canonical_tokens.hpp"
#include "kernels/declaration.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernel_changes {

using kernels::canonical_text;
using kernels::FileScopeDeclaration;
using kernels::is_keyword;
using kernels::LaunchSite;
using kernels::lex;
using kernels::Macro;
using kernels::RevisionSources;
using kernels::Token;
using kernels::TokenKind;

namespace {

// Tokens read either side of a name for the statement that declares it.
constexpr std::size_t longest_statement = 256;
// Statements read between a local's declaration and the launch for assignments to its members.
constexpr std::size_t most_member_assignments = 64;

bool is_directive(const Token& t) { return t.kind == TokenKind::directive_begin || t.kind == TokenKind::directive_end; }

// Whether a file-scope declaration's text defines a type: `typedef struct|union|class ...`.
bool declares_a_type(std::string_view declaration) {
  const auto tokens = lex(declaration);
  return tokens.size() > 1 && tokens[0].text() == "typedef" &&
         (tokens[1].text() == "struct" || tokens[1].text() == "union" || tokens[1].text() == "class");
}

bool starts_statement(const Token& before) {
  return before.is_punct(";") || before.is_punct("{") || before.is_punct("}") || is_directive(before);
}

}  // namespace

std::vector<std::string> names_used(std::string_view code) {
  std::vector<std::string> names;
  const std::vector<Token> tokens = lex(code);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].is_identifier() || is_keyword(tokens[i].text())) continue;
    if (i > 0 && (tokens[i - 1].is_punct(".") || tokens[i - 1].is_punct("->"))) continue;
    if (std::ranges::find(names, tokens[i].text()) == names.end()) names.emplace_back(tokens[i].text());
  }
  return names;
}

Definitions::Definitions(const RevisionSources& sources, const std::string& path)
    : m_text(sources.files().at(path)), m_tokens(lex(m_text)) {
  for (const std::string& file : sources.closure(path)) {
    // Every #define of a name (under #if and #else), in closure order; read at its first use.
    for (const Macro& macro : sources.scanned(file).macros) m_macro_sources[macro.name].push_back(&macro);
    const std::string_view text = sources.files().at(file);
    // A struct or class is a type, not a value: its layout changing (a host struct gaining a
    // field, llm.c's GPT2) changes no launch input that merely names it (`GPT2* model`), only
    // a template argument (find_class). `typedef struct { ... } GPT2;` names its anonymous
    // struct GPT2: a type all the same.
    for (const FileScopeDeclaration& declaration : sources.declarations(file)) {
      const std::string_view declared =
          text.substr(declaration.span.begin, declaration.span.end - declaration.span.begin);
      const bool a_type = declares_a_type(declared);
      for (const std::string& name : declaration.names) {
        if (a_type || std::ranges::find(declaration.classes, name) != declaration.classes.end())
          m_classes.try_emplace(name, declared);
        else
          m_file_scope.try_emplace(name, declared);
      }
    }
  }
  find_function_bodies();
}

const Definition& Definitions::find(std::string_view name, std::size_t at, LaunchPart part) {
  static const Definition none;
  if (const Definition* defined = macro(name)) return *defined;
  // A template parameter of a lambda or function around the launch, unless a local declared
  // inside that lambda or function hides it.
  std::size_t scope_open = 0;
  if (const Definition* bound = find_template_parameter(name, at, scope_open)) {
    const auto declared = local_declaration(name, at);
    if (!declared || *declared < scope_open) return *bound;
  }
  if (const Definition* local = find_local(name, at)) return *local;
  if (const auto global = m_file_scope.find(name); global != m_file_scope.end()) return read(global->second);
  if (part == LaunchPart::template_argument) return find_class(name);
  return none;
}

const Definition* Definitions::macro(std::string_view name) {
  const auto sources = m_macro_sources.find(name);
  if (sources == m_macro_sources.end()) return nullptr;
  auto [slot, fresh] = m_macros.try_emplace(sources->first);
  if (!fresh) return &slot->second;
  // The names each body uses, its parameters apart (CEIL_DIV's `a` is no local `a`). A
  // redefinition with the same body (a second header defining CEIL_DIV alike) is the same
  // macro, not a change.
  Definition& definition = slot->second;
  for (const Macro* one : sources->second) {
    const std::string text =
        fmt::format("#define {}{}{}{} {}\n", one->name, one->function_like ? "(" : "", fmt::join(one->parameters, ","),
                    one->function_like ? ")" : "", canonical_text(lex(one->body)));
    if (definition.text.find(text) == std::string::npos) definition.text += text;
    for (std::string& used : names_used(one->body))
      if (std::ranges::find(one->parameters, used) == one->parameters.end() &&
          std::ranges::find(definition.names, used) == definition.names.end())
        definition.names.push_back(std::move(used));
  }
  return &definition;
}

const Definition& Definitions::find_class(std::string_view name) {
  static const Definition none;
  const auto found = m_classes.find(name);
  return found == m_classes.end() ? none : read(found->second);
}

std::optional<std::string> Definitions::declared_class(std::string_view name, std::size_t at) {
  const auto declared = local_declaration(name, at);
  if (!declared) return std::nullopt;
  std::size_t first = statement_around(*declared).first;
  if (const auto parameter = m_parameters.find(*declared); parameter != m_parameters.end())
    first = parameter->second.first;
  std::string type = qualified_type_name(std::span(m_tokens).subspan(first, *declared - first));
  if (const std::size_t colons = type.rfind("::"); colons != std::string::npos) type.erase(0, colons + 2);
  if (type.empty() || !m_classes.contains(type)) return std::nullopt;
  return type;
}

std::size_t Definitions::token_at(std::size_t offset) const {
  return static_cast<std::size_t>(
      std::ranges::lower_bound(
          m_tokens, offset, {},
          [&](const Token& t) { return static_cast<std::size_t>(t.text().data() - m_text.data()); }) -
      m_tokens.begin());
}

std::size_t Definitions::where_run(const LaunchSite& launch) const {
  const std::size_t at = token_at(launch.offset);
  if (launch.in_macro.empty()) return at;
  const auto body = body_around(at);
  if (!body) return at;
  std::size_t used = at;
  bool in_directive = false;
  for (std::size_t i = at; i < body->second; ++i) {
    if (m_tokens[i].kind == TokenKind::directive_begin) in_directive = true;
    if (m_tokens[i].kind == TokenKind::directive_end) in_directive = false;
    if (!in_directive && m_tokens[i].is_identifier() && m_tokens[i].text() == launch.in_macro) used = i;
  }
  return used;
}

// The definition whose source text is `code`, lexed at its first use.
const Definition& Definitions::read(std::string_view code) {
  auto [slot, fresh] = m_read.try_emplace(code);
  if (fresh) {
    slot->second.text = canonical_text(lex(code));
    slot->second.names = names_used(code);
  }
  return slot->second;
}

// The outermost bodies that follow a parameter list: `) {`, `) const {`. One pass, once.
void Definitions::find_function_bodies() {
  std::vector<std::pair<std::size_t, bool>> open;  // '{' index, opens a function body
  std::size_t in_body = 0;
  for (std::size_t i = 0; i < m_tokens.size(); ++i) {
    const Token& t = m_tokens[i];
    if (t.is_punct("{")) {
      const bool body = i > 0 && (m_tokens[i - 1].is_punct(")") || m_tokens[i - 1].is_identifier("const") ||
                                  m_tokens[i - 1].is_identifier("noexcept"));
      if (body && in_body++ == 0) m_bodies.emplace_back(i, m_tokens.size());
      open.emplace_back(i, body);
    } else if (t.is_punct("}") && !open.empty()) {
      if (open.back().second && --in_body == 0) m_bodies.back().second = i;
      open.pop_back();
    }
  }
}

std::optional<std::pair<std::size_t, std::size_t>> Definitions::body_around(std::size_t at) const {
  // Bodies are in order and never nest: the last one opened before `at`, if `at` is inside.
  const auto after = std::ranges::upper_bound(m_bodies, at, {}, [](const auto& b) { return b.first; });
  if (after == m_bodies.begin()) return std::nullopt;
  const auto body = std::prev(after);
  if (at >= body->second) return std::nullopt;
  return *body;
}

// The token that declares `name` last before the token `at`, in the function body around it:
// `const uint BK = 8;`, `dim3 grid(N / BN);`, a parameter, or a macro call that declares it
// (`SETUP_LAUNCH_CONFIG(num_sms, threads, stream);` declaring `cfg`).
std::optional<std::size_t> Definitions::local_declaration(std::string_view name, std::size_t at) {
  const auto body = body_around(at);
  if (!body) return std::nullopt;
  auto& index = m_locals[body->first];
  if (index.empty()) {
    index_parameters(body->first, index);
    index_locals(body->first, body->second, index);
  }
  const auto found = index.find(name);
  if (found == index.end()) return std::nullopt;
  const auto before = std::ranges::lower_bound(found->second, at);
  if (before == found->second.begin()) return std::nullopt;
  return *std::prev(before);
}

const Definition* Definitions::find_local(std::string_view name, std::size_t at) {
  const auto declared = local_declaration(name, at);
  if (!declared) return nullptr;
  if (const auto parameter = m_parameters.find(*declared); parameter != m_parameters.end())
    return &read(text_of(parameter->second.first, parameter->second.second));
  const auto [first, last] = statement_around(*declared);
  // Assignments to its members between the declaration and the launch configure it too:
  // `cudaLaunchConfig_t cfg = {}; cfg.blockDim = 256;`.
  std::vector<std::pair<std::size_t, std::size_t>> assignments;
  const std::size_t end = body_around(at)->second;
  for (std::size_t i = last + 1; i < at && i + 1 < end && assignments.size() < most_member_assignments; ++i)
    if (m_tokens[i].text() == name && m_tokens[i].is_identifier() && starts_statement(m_tokens[i - 1]) &&
        (m_tokens[i + 1].is_punct(".") || m_tokens[i + 1].is_punct("->") || m_tokens[i + 1].is_punct("[")))
      assignments.push_back(statement_around(i));
  if (assignments.empty()) return &read(text_of(first, last));
  auto [slot, fresh] = m_with_members.try_emplace({*declared, at});
  if (fresh) {
    Definition& composed = slot->second;
    composed = read(text_of(first, last));
    for (const auto& [from, to] : assignments) {
      const Definition& assignment = read(text_of(from, to));
      composed.text += " ; " + assignment.text;
      for (const std::string& used : assignment.names)
        if (std::ranges::find(composed.names, used) == composed.names.end()) composed.names.push_back(used);
    }
  }
  return &slot->second;
}

// The parameters of the function whose body opens at `body`: a parameter shadows a
// file-scope name (`int threads` beside a header's `constexpr int threads`), and its
// definition is its own declaration (`int threads = 256`), not the whole signature.
void Definitions::index_parameters(std::size_t body, Index& index) {
  std::size_t close = body;
  while (close > 0 && body - close < 4 && !m_tokens[close].is_punct(")")) --close;
  if (!m_tokens[close].is_punct(")")) return;
  std::size_t open = close;
  for (int depth = 0; open > 0 && close - open < longest_statement * 4; --open) {
    if (m_tokens[open].is_punct(")")) ++depth;
    if (m_tokens[open].is_punct("(") && --depth == 0) break;
  }
  if (!m_tokens[open].is_punct("(")) return;
  std::size_t first = open + 1;
  int depth = 0;
  for (std::size_t i = open + 1; i <= close; ++i) {
    const Token& t = m_tokens[i];
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{") || t.is_punct("<")) ++depth;
    if (t.is_punct("]") || t.is_punct("}") || t.is_punct(">") || (t.is_punct(")") && i != close)) --depth;
    if (!((t.is_punct(",") && depth == 0) || i == close)) continue;
    // The declared name: the last identifier before a default value, or before the end.
    std::size_t last = i;
    for (std::size_t k = first; k < i; ++k)
      if (m_tokens[k].is_punct("=")) {
        last = k;
        break;
      }
    for (std::size_t k = last; k-- > first;)
      if (m_tokens[k].is_identifier() && !is_keyword(m_tokens[k].text())) {
        index[m_tokens[k].text()].push_back(k);
        if (i > first) m_parameters[k] = {first, i - 1};
        break;
      }
    first = i + 1;
  }
}

std::string_view Definitions::text_of(std::size_t first, std::size_t last) const {
  const char* begin = m_tokens[first].text().data();
  const char* end = m_tokens[last].text().data() + m_tokens[last].text().size();
  return {begin, static_cast<std::size_t>(end - begin)};
}

void Definitions::index_locals(std::size_t begin, std::size_t end, Index& index) {
  index.try_emplace({});  // built, even where the body declares nothing
  for (std::size_t i = begin + 1; i + 1 < end; ++i) {
    const Token& t = m_tokens[i];
    if (!t.is_identifier() || is_keyword(t.text()) || is_directive(m_tokens[i + 1])) continue;
    const Token& before = m_tokens[i - 1];
    const Token& after = m_tokens[i + 1];
    // A macro call standing as a statement declares what its body names (SETUP_LAUNCH_CONFIG's
    // `cfg`); its definition is the call, which names the macro, compared in turn.
    if (after.is_punct("(") && starts_statement(before))
      if (const Definition* defined = macro(t.text()))
        for (const std::string& declared : defined->names) index[declared].push_back(i);
    const bool after_type = (before.is_identifier() && !before.is_identifier("return") &&
                             !before.is_identifier("case") && !before.is_identifier("else")) ||
                            before.is_punct(">") || before.is_punct("*") || before.is_punct("&");
    const bool declarator = after.is_punct("=") || after.is_punct("(") || after.is_punct("{") || after.is_punct(";") ||
                            after.is_punct(",") || after.is_punct("[");
    if (!after_type || !declarator) continue;
    index[t.text()].push_back(i);
    // The statement's other declarators: `const uint BM = 64, BN = 128;`.
    int depth = 0;
    for (std::size_t k = i + 1; k + 2 < end && k - i < longest_statement; ++k) {
      const Token& next = m_tokens[k];
      if (next.is_punct("(") || next.is_punct("[") || next.is_punct("{")) ++depth;
      if (next.is_punct(")") || next.is_punct("]") || next.is_punct("}")) --depth;
      if (depth < 0 || (depth == 0 && next.is_punct(";"))) break;
      if (depth == 0 && next.is_punct(",") && m_tokens[k + 1].is_identifier() &&
          (m_tokens[k + 2].is_punct("=") || m_tokens[k + 2].is_punct("(") || m_tokens[k + 2].is_punct("{") ||
           m_tokens[k + 2].is_punct(";") || m_tokens[k + 2].is_punct(",") || m_tokens[k + 2].is_punct("[")))
        index[m_tokens[k + 1].text()].push_back(k + 1);
    }
  }
  for (auto& [name, at] : index) {  // a name found both ways is sorted again
    std::ranges::sort(at);
    at.erase(std::unique(at.begin(), at.end()), at.end());
  }
}

// The first and last token of the statement around the token `name`.
std::pair<std::size_t, std::size_t> Definitions::statement_around(std::size_t name) const {
  std::size_t first = name;
  while (first > 0 && name - first < longest_statement) {
    const Token& t = m_tokens[first - 1];
    if (t.is_punct(";") || t.is_punct("{") || t.is_punct("}") || is_directive(t)) break;
    --first;
  }
  std::size_t last = name;
  int depth = 0;
  for (; last + 1 < m_tokens.size() && last - name < longest_statement; ++last) {
    const Token& t = m_tokens[last];
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) ++depth;
    if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) --depth;
    if ((t.is_punct(";") && depth <= 0) || depth < 0) break;
  }
  return {first, last};
}

}  // namespace kforecast::kernel_changes
