// SPDX-License-Identifier: Apache-2.0
#include "kernels/launch_inputs.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernels/canonical_tokens.hpp"
#include "kernels/launch_sites.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

// launch -> grid -> BN -> ...: deep enough for a grid sized by a tile sized by a constant.
constexpr int deepest_step = 3;
// Far above the names a real launch's arguments reach; keeps hostile input from running long.
constexpr std::size_t most_names_per_launch = 64;
// Tokens read either side of a name for the statement that declares it.
constexpr std::size_t longest_statement = 256;

bool is_directive(const Token& t) { return t.kind == TokenKind::directive_begin || t.kind == TokenKind::directive_end; }

// The names a piece of code uses, in order: members (`.x`, `->x`) and keywords left out.
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

// Whether a file-scope declaration's text defines a type: `typedef struct|union|class ...`.
bool declares_a_type(std::string_view declaration) {
  const auto tokens = lex(declaration);
  return tokens.size() > 1 && tokens[0].text() == "typedef" &&
         (tokens[1].text() == "struct" || tokens[1].text() == "union" || tokens[1].text() == "class");
}

struct Definition {
  std::string text;                // its canonical tokens joined by single spaces: layout is no change
  std::vector<std::string> names;  // the names it uses, to follow in turn
};

// What the names a launch uses mean in one revision of the launching file: its macros and
// file-scope declarations and those of its headers, and the declarations in the host function
// around the launch. Built once per file; each lookup is a search of an index.
class Definitions {
 public:
  Definitions(const RevisionSources& sources, const std::string& path)
      : m_text(sources.files().at(path)), m_tokens(lex(m_text)) {
    for (const std::string& file : sources.closure(path)) {
      for (const Macro& macro : sources.scanned(file).macros) {
        // Every #define of the name (under #if and #else), in closure order; the names its
        // body uses, its parameters apart (CEIL_DIV's `a` is no local `a`).
        // A redefinition with the same body (a second header defining CEIL_DIV alike) is the
        // same macro, not a change.
        Definition& definition = m_macros[macro.name];
        const std::string one = fmt::format("#define {}{}{}{} {}\n", macro.name, macro.function_like ? "(" : "",
                                            fmt::join(macro.parameters, ","), macro.function_like ? ")" : "",
                                            canonical_text(lex(macro.body)));
        if (definition.text.find(one) == std::string::npos) definition.text += one;
        for (std::string& name : names_used(macro.body))
          if (std::ranges::find(macro.parameters, name) == macro.parameters.end() &&
              std::ranges::find(definition.names, name) == definition.names.end())
            definition.names.push_back(std::move(name));
      }
      const std::string_view text = sources.files().at(file);
      // A struct or class is a type, not a value: its layout changing (a host struct gaining a
      // field, llm.c's GPT2) changes no launch input that merely names it (`GPT2* model`).
      // `typedef struct { ... } GPT2;` names its anonymous struct GPT2: a type all the same.
      for (const FileScopeDeclaration& declaration : sources.declarations(file)) {
        const std::string_view declared = text.substr(declaration.span.begin, declaration.span.end - declaration.span.begin);
        if (declares_a_type(declared)) continue;
        for (const std::string& name : declaration.names)
          if (std::ranges::find(declaration.classes, name) == declaration.classes.end())
            m_file_scope.try_emplace(name, declared);
      }
    }
    find_function_bodies();
  }

  // What `name` means at the token `at` (a launch's): its definition's tokens joined by single
  // spaces, and the names that uses; empty where nothing the scanner sees defines it (a toolkit
  // type, a name from a system header). Each definition is read once, however many launches
  // name it.
  const Definition& find(std::string_view name, std::size_t at) {
    static const Definition none;
    if (const auto macro = m_macros.find(name); macro != m_macros.end()) return macro->second;
    if (const auto local = find_local(name, at)) return read(*local);
    if (const auto global = m_file_scope.find(name); global != m_file_scope.end()) return read(global->second);
    return none;
  }

  // The index of the token at `offset` in the text.
  std::size_t token_at(std::size_t offset) const {
    return static_cast<std::size_t>(
        std::ranges::lower_bound(
            m_tokens, offset, {},
            [&](const Token& t) { return static_cast<std::size_t>(t.text().data() - m_text.data()); }) -
        m_tokens.begin());
  }

 private:
  // The definition whose source text is `code`, lexed at its first use.
  const Definition& read(std::string_view code) {
    auto [slot, fresh] = m_read.try_emplace(code);
    if (fresh) {
      slot->second.text = canonical_text(lex(code));
      slot->second.names = names_used(code);
    }
    return slot->second;
  }

  // The outermost bodies that follow a parameter list: `) {`, `) const {`. One pass, once.
  void find_function_bodies() {
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

  // The statement that declares `name` last before the token `at`, in the function body
  // around it: `const uint BK = 8;`, `dim3 grid(N / BN);`, `constexpr auto tile = ...;`.
  std::optional<std::string_view> find_local(std::string_view name, std::size_t at) {
    // Bodies are in order and never nest: the last one opened before `at`, if `at` is inside.
    const auto after = std::ranges::upper_bound(m_bodies, at, {}, [](const auto& b) { return b.first; });
    if (after == m_bodies.begin()) return std::nullopt;
    const auto body = std::prev(after);
    if (at >= body->second) return std::nullopt;
    auto& index = m_locals[body->first];
    if (index.empty()) {
      index_parameters(body->first, index);
      index_locals(body->first, body->second, index);
    }
    const auto found = index.find(name);
    if (found == index.end()) return std::nullopt;
    const auto before = std::ranges::lower_bound(found->second, at);
    if (before == found->second.begin()) return std::nullopt;
    const std::size_t declared = *std::prev(before);
    if (const auto parameter = m_parameters.find(declared); parameter != m_parameters.end())
      return text_of(parameter->second.first, parameter->second.second);
    return statement_around(declared);
  }

  // The parameters of the function whose body opens at `body`: a parameter shadows a
  // file-scope name (`int threads` beside a header's `constexpr int threads`), and its
  // definition is its own declaration (`int threads = 256`), not the whole signature.
  void index_parameters(std::size_t body, std::map<std::string_view, std::vector<std::size_t>>& index) {
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

  std::string_view text_of(std::size_t first, std::size_t last) const {
    const char* begin = m_tokens[first].text().data();
    const char* end = m_tokens[last].text().data() + m_tokens[last].text().size();
    return {begin, static_cast<std::size_t>(end - begin)};
  }

  void index_locals(std::size_t begin, std::size_t end, std::map<std::string_view, std::vector<std::size_t>>& index) {
    index.try_emplace({});  // built, even where the body declares nothing
    for (std::size_t i = begin + 1; i + 1 < end; ++i) {
      const Token& t = m_tokens[i];
      if (!t.is_identifier() || is_keyword(t.text()) || is_directive(m_tokens[i + 1])) continue;
      const Token& before = m_tokens[i - 1];
      const Token& after = m_tokens[i + 1];
      const bool after_type = (before.is_identifier() && !before.is_identifier("return") &&
                               !before.is_identifier("case") && !before.is_identifier("else")) ||
                              before.is_punct(">") || before.is_punct("*") || before.is_punct("&");
      const bool declarator = after.is_punct("=") || after.is_punct("(") || after.is_punct("{") ||
                              after.is_punct(";") || after.is_punct(",") || after.is_punct("[");
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

  std::string_view statement_around(std::size_t name) const {
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
    return text_of(first, last);
  }

  const std::string& m_text;
  std::vector<Token> m_tokens;
  std::map<std::string, Definition, std::less<>> m_macros;
  std::map<std::string_view, Definition> m_read;                      // by the source text read
  std::map<std::string, std::string_view, std::less<>> m_file_scope;  // the first declaration of a name
  std::vector<std::pair<std::size_t, std::size_t>> m_bodies;          // function bodies: '{' and '}' token indices
  std::map<std::size_t, std::pair<std::size_t, std::size_t>> m_parameters;  // a parameter's name -> its tokens
  std::map<std::size_t, std::map<std::string_view, std::vector<std::size_t>>> m_locals;  // per body
};

enum class LaunchPart { template_argument, configuration };

// The reasons one launch, the same text at both revisions, now runs with something else.
std::vector<std::string> changed_inputs(const LaunchSite& base_launch, Definitions& base, const LaunchSite& head_launch,
                                        Definitions& head, std::string_view where) {
  struct Step {
    std::string name;
    std::string root;  // the name the launch itself writes
    LaunchPart part;
    int depth;
  };
  std::deque<Step> pending;
  std::set<std::string, std::less<>> seen;
  const auto add = [&](const std::vector<std::string>& names, const std::string* root, LaunchPart part, int depth) {
    for (const auto& name : names) {
      if (seen.size() >= most_names_per_launch || !seen.insert(name).second) continue;
      pending.push_back({name, root ? *root : name, part, depth});
    }
  };
  add(names_used(head_launch.compared_template_arguments), nullptr, LaunchPart::template_argument, 0);
  add(names_used(head_launch.configuration), nullptr, LaunchPart::configuration, 0);
  const std::size_t base_at = base.token_at(base_launch.offset), head_at = head.token_at(head_launch.offset);
  std::vector<std::string> reasons;
  while (!pending.empty()) {
    const Step step = std::move(pending.front());
    pending.pop_front();
    const Definition& before = base.find(step.name, base_at);
    const Definition& after = head.find(step.name, head_at);
    const std::string_view part =
        step.part == LaunchPart::template_argument ? "template argument" : "configuration argument";
    if (before.text != after.text)
      reasons.push_back(step.name == step.root
                            ? fmt::format("launch {} {} changed ({})", part, step.name, where)
                            : fmt::format("launch {} {} changed through {} ({})", part, step.root, step.name, where));
    if (step.depth + 1 > deepest_step) continue;
    std::vector<std::string> next = after.names;
    for (const auto& name : before.names)
      if (std::ranges::find(next, name) == next.end()) next.push_back(name);
    std::erase(next, step.name);
    add(next, &step.root, step.part, step.depth + 1);
  }
  return reasons;
}

}  // namespace

std::vector<LaunchInputChange> changed_launch_inputs(const RevisionSources& base, const std::string& base_path,
                                                     const RevisionSources& head, const std::string& head_path) {
  const std::string_view head_text = head.files().at(head_path);
  if (head_text.find("<<<") == std::string_view::npos) return {};
  using Launch = std::tuple<std::string, std::string, std::string>;  // kernel, arguments, configuration
  std::map<Launch, std::deque<LaunchSite>> before;
  for (LaunchSite& site : launch_sites(base.files().at(base_path)))
    before[{site.kernel, site.compared_template_arguments, site.configuration}].push_back(std::move(site));
  std::optional<Definitions> base_definitions, head_definitions;
  std::vector<LaunchInputChange> changes;
  for (const LaunchSite& site : launch_sites(head_text)) {
    const auto same = before.find({site.kernel, site.compared_template_arguments, site.configuration});
    if (same == before.end() || same->second.empty()) continue;  // new text: changed_launches' to report
    const LaunchSite base_site = std::move(same->second.front());
    same->second.pop_front();
    if (site.template_arguments.empty() && site.configuration.empty()) continue;
    if (!base_definitions) base_definitions.emplace(base, base_path), head_definitions.emplace(head, head_path);
    const std::string where = fmt::format("{}:{}", head_path, site.line);
    for (std::string& reason : changed_inputs(base_site, *base_definitions, site, *head_definitions, where))
      changes.push_back({site.kernel, site.line, std::move(reason)});
  }
  return changes;
}

}  // namespace kforecast::kernels
