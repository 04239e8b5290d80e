// SPDX-License-Identifier: Apache-2.0
#include "kernels/call_graph.hpp"

#include <algorithm>
#include <optional>

#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

std::string_view last_component(std::string_view qualified) {
  const std::size_t colons = qualified.rfind("::");
  return colons == std::string_view::npos ? qualified : qualified.substr(colons + 2);
}

// "a::b::f" -> "a::b"; "f" -> "".
std::string_view enclosing_scope(std::string_view qualified) {
  const std::size_t colons = qualified.rfind("::");
  return colons == std::string_view::npos ? std::string_view{} : qualified.substr(0, colons);
}

bool ends_with_component(std::string_view qualified, std::string_view tail) {
  if (qualified == tail) return true;
  return qualified.size() > tail.size() + 2 && qualified.ends_with(tail) &&
         qualified.substr(qualified.size() - tail.size() - 2, 2) == "::";
}

// The names a template header declares: "template <class Runner, int N = 4, typename... Ts>"
// gives Runner, N, Ts. Each is the last word before a ',', '=' or the closing '>' at the top.
std::vector<std::string_view> template_parameter_names(std::string_view header) {
  std::vector<std::string_view> names;
  if (header.empty()) return names;
  Lexer lexer(header, 1, StartOfLine::no);
  std::string_view last_word;
  int depth = 0;
  bool in_default = false;
  for (Token t = lexer.next(); t.kind != TokenKind::end; t = lexer.next()) {
    if (t.is_punct("<") || t.is_punct("(")) ++depth;
    if (t.is_punct(")")) --depth;
    const bool closes = t.is_punct(">") && --depth == 0;
    if (t.is_identifier()) last_word = t.text();
    if (depth == 1 && t.is_punct("=")) {
      if (!last_word.empty()) names.push_back(last_word);
      in_default = true;
    }
    if ((depth == 1 && t.is_punct(",")) || closes) {
      if (!in_default && !last_word.empty()) names.push_back(last_word);
      last_word = {};
      in_default = false;
    }
  }
  return names;
}

// The class a parameter's type names, last component: "const ns::View<T>&" gives "View"; empty
// where the type is no plain class name (a function pointer, a built-in type).
std::string_view class_named_by(std::string_view type) {
  if (type.find('(') != std::string_view::npos) return {};
  Lexer lexer(type, 1, StartOfLine::no);
  std::string_view name;
  for (Token t = lexer.next(); t.kind != TokenKind::end; t = lexer.next()) {
    if (t.is_identifier() && !is_keyword(t.text()) && !t.text().starts_with("__")) {
      name = t.text();
      continue;
    }
    if (!name.empty() && !t.is_punct("::")) break;
  }
  return name;
}

template <class Refs>
void sort_unique(Refs& refs) {
  std::sort(refs.begin(), refs.end());
  refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
}

}  // namespace

CallGraph::CallGraph(std::span<const ScannedSource> sources) : m_sources(sources) {
  std::size_t slots = 0;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    m_first_slot.push_back(slots);
    slots += sources[s].functions.size();
    for (std::size_t i = 0; i < sources[s].functions.size(); ++i) {
      m_by_name[sources[s].functions[i].name].push_back({s, i});
      m_by_qualified_name[sources[s].functions[i].qualified_name].push_back({s, i});
    }
    for (const Alias& alias : sources[s].aliases)
      m_aliases[last_component(alias.name)].emplace_back(alias.name, alias.target);
    auto& names = m_macro_names.emplace_back();
    for (std::size_t m = 0; m < sources[s].macros.size(); ++m) {
      const Macro& macro = sources[s].macros[m];
      m_macros_by_name[macro.name].push_back({s, m});
      std::vector<std::string_view> body_names;
      Lexer lexer(macro.body, 1, StartOfLine::no);
      for (Token t = lexer.next(); t.kind != TokenKind::end; t = lexer.next())
        if (t.is_identifier() &&
            std::find(macro.parameters.begin(), macro.parameters.end(), t.text()) == macro.parameters.end())
          body_names.push_back(t.text());
      names.push_back(std::move(body_names));
    }
  }
  m_callees.resize(slots);
  m_wide_calls.resize(slots);
  for (std::size_t s = 0; s < sources.size(); ++s) {
    for (std::size_t i = 0; i < sources[s].functions.size(); ++i) {
      auto& callees = m_callees[m_first_slot[s] + i];
      auto& wide = m_wide_calls[m_first_slot[s] + i];
      const auto template_names = template_parameter_names(sources[s].functions[i].template_parameters);
      for (const std::string_view call : sources[s].functions[i].calls) {
        if (const auto name = wide_call({s, i}, call, template_names)) {
          wide.push_back(*name);
          continue;
        }
        const auto found = resolve({s, i}, call);
        callees.insert(callees.end(), found.begin(), found.end());
      }
      sort_unique(callees);
      sort_unique(wide);
    }
  }
}

std::vector<FunctionRef> CallGraph::find(std::string_view name) const {
  std::vector<FunctionRef> found;
  const auto candidates = m_by_name.find(last_component(name));
  if (candidates == m_by_name.end()) return found;
  for (const FunctionRef ref : candidates->second)
    if (function(ref).qualified_name == name) found.push_back(ref);
  if (found.empty())
    for (const FunctionRef ref : candidates->second)
      if (function(ref).name == name) found.push_back(ref);
  return found;
}

bool CallGraph::dispatches(FunctionRef ref, const std::set<std::string, std::less<>>& class_names) const {
  const Function& f = function(ref);
  if (f.calls_indirectly) return true;
  // A parameter of a class type (view(i, j) on a MatrixView) runs that class's operator(),
  // followed as a wide call; only a pointer, a template parameter or an alias may hold any
  // function.
  return std::ranges::any_of(f.calls, [&](std::string_view call) {
    return std::ranges::any_of(f.parameters, [&](const Parameter& p) {
      return !p.name.empty() && p.name == call && !class_names.contains(class_named_by(p.type));
    });
  });
}

std::optional<std::string_view> CallGraph::wide_call(FunctionRef caller, std::string_view call,
                                                     std::span<const std::string_view> template_names) const {
  const std::size_t colons = call.find("::");
  const std::string_view first = call.substr(0, colons);
  const bool template_parameter = std::ranges::find(template_names, first) != template_names.end();
  if (template_parameter && colons != std::string_view::npos) return last_component(call);
  const auto& parameters = function(caller).parameters;
  const bool parameter =
      std::ranges::any_of(parameters, [&](const Parameter& p) { return !p.name.empty() && p.name == call; });
  if (template_parameter || parameter) return "operator()";
  return std::nullopt;
}

std::vector<std::string> CallGraph::through_aliases(std::string_view call) const {
  std::vector<std::string> calls;
  const std::size_t colons = call.starts_with("::") ? call.find("::", 2) : call.find("::");
  if (colons == std::string_view::npos || m_aliases.empty()) return calls;
  const std::string_view qualifier =
      call.substr(call.starts_with("::") ? 2 : 0, colons - (call.starts_with("::") ? 2 : 0));
  const auto found = m_aliases.find(last_component(qualifier));
  if (found == m_aliases.end()) return calls;
  for (const auto& [name, target] : found->second)
    if (ends_with_component(name, qualifier)) calls.push_back(std::string(target).append(call.substr(colons)));
  return calls;
}

// A bound on aliases of aliases followed (using A = B; using B = C; ...): far above real code.
constexpr int deepest_alias = 4;

std::vector<FunctionRef> CallGraph::resolve(FunctionRef caller, std::string_view call, int alias_depth) const {
  auto exactly = [&](std::string_view qualified) {
    const auto found = m_by_qualified_name.find(qualified);
    return found == m_by_qualified_name.end() ? std::vector<FunctionRef>{} : found->second;
  };
  if (call.starts_with("::")) return exactly(call.substr(2));
  // The innermost enclosing scope that has the name wins, as C++ lookup would have it.
  std::string qualified;
  for (std::string_view scope = enclosing_scope(function(caller).qualified_name); !scope.empty();
       scope = enclosing_scope(scope)) {
    qualified.assign(scope).append("::").append(call);
    if (auto found = exactly(qualified); !found.empty()) return found;
  }
  if (auto found = exactly(call); !found.empty()) return found;
  std::vector<FunctionRef> found;
  const auto candidates = m_by_name.find(last_component(call));
  if (candidates == m_by_name.end()) return found;
  for (const FunctionRef ref : candidates->second)
    if (ends_with_component(function(ref).qualified_name, call)) found.push_back(ref);
  if (found.empty() && alias_depth < deepest_alias)
    for (const std::string& target : through_aliases(call)) {
      const auto reached = resolve(caller, target, alias_depth + 1);
      found.insert(found.end(), reached.begin(), reached.end());
    }
  return found;
}

std::span<const FunctionRef> CallGraph::callees(FunctionRef caller) const { return m_callees[slot(caller)]; }

std::vector<FunctionRef> CallGraph::reachable_from(FunctionRef from) const {
  std::vector<FunctionRef> reached;
  std::vector<bool> seen(m_callees.size(), false);
  std::vector<FunctionRef> stack;
  // Each wide call's functions are pushed once per walk, however many reached functions make it.
  std::vector<std::string_view> widened;
  auto push_callees = [&](FunctionRef ref) {
    stack.insert(stack.end(), callees(ref).begin(), callees(ref).end());
    for (const std::string_view name : m_wide_calls[slot(ref)]) {
      if (std::ranges::find(widened, name) != widened.end()) continue;
      widened.push_back(name);
      if (const auto all = m_by_name.find(name); all != m_by_name.end())
        stack.insert(stack.end(), all->second.begin(), all->second.end());
    }
  };
  push_callees(from);
  while (!stack.empty()) {
    const FunctionRef ref = stack.back();
    stack.pop_back();
    if (seen[slot(ref)]) continue;
    seen[slot(ref)] = true;
    reached.push_back(ref);
    push_callees(ref);
  }
  sort_unique(reached);
  return reached;
}

std::vector<MacroRef> CallGraph::macros_used(FunctionRef start, MacroReach reach) const {
  std::vector<FunctionRef> functions{start};
  if (reach == MacroReach::with_callees) {
    const auto reached = reachable_from(start);
    functions.insert(functions.end(), reached.begin(), reached.end());
  }
  std::vector<std::string_view> pending;
  for (const FunctionRef ref : functions)
    for (const std::string_view name : function(ref).referenced_identifiers) pending.push_back(name);
  std::vector<MacroRef> used;
  while (!pending.empty()) {
    const std::string_view name = pending.back();
    pending.pop_back();
    const auto macros = m_macros_by_name.find(name);
    if (macros == m_macros_by_name.end()) continue;
    for (const MacroRef ref : macros->second) {
      if (std::find(used.begin(), used.end(), ref) != used.end()) continue;
      used.push_back(ref);
      const auto& body_names = m_macro_names[ref.source][ref.index];
      pending.insert(pending.end(), body_names.begin(), body_names.end());
    }
  }
  sort_unique(used);
  return used;
}

}  // namespace kforecast::kernels
