// SPDX-License-Identifier: Apache-2.0
// The records the walk makes: a function from its head and body, a kernel from a macro's
// invocation, an explicit instantiation and, at the end, which function each one belongs to.

#include <algorithm>
#include <functional>
#include <iterator>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "kernels/declaration.hpp"
#include "kernels/source_scanner.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

bool is_literal(const Token& t) {
  return t.kind == TokenKind::number || t.kind == TokenKind::string_literal || t.kind == TokenKind::char_literal;
}

}  // namespace

std::optional<std::size_t> SourceScanner::function(std::size_t from, std::size_t end, std::size_t specifier_at,
                                                   Specifiers specifiers) {
  const auto head = m_code.subspan(from, end - from);
  const auto found = find_function_head(head, specifier_at - from + 1);
  if (!found) return std::nullopt;
  if (found->params_open + 1 < head.size() && is_literal(head[found->params_open + 1])) return std::nullopt;

  Function f;
  f.kind = specifiers.global ? FunctionKind::global : FunctionKind::device;
  f.host = specifiers.host;
  const std::string declarator = declarator_name(head, *found);
  f.name = std::string(last_component(declarator));
  f.qualified_name = join_scope(m_prefix, declarator);
  const std::size_t template_end = std::min(skip_template_headers(head, 0), specifier_at - from);
  if (template_end > 0 && head[0].is_identifier("template"))
    f.template_parameters = spaced_text(head.first(template_end));
  const std::size_t close = std::min(found->params_close, head.size());
  f.parameters = parse_parameters(head.subspan(found->params_open + 1, close - found->params_open - 1));
  f.extern_c = in_extern_c();
  for (std::size_t i = 0; i + 1 < specifier_at - from; ++i)
    if (head[i].is_identifier("extern") && head[i + 1].kind == TokenKind::string_literal) f.extern_c = true;
  f.launch_bounds = launch_bounds_of(head);
  f.signature = span_of(m_source, head.front(), head.back());

  std::size_t next = end;
  if (end < m_code.size() && m_code[end].is_punct("{")) {
    const BodyExtent extent = body_extent(end);
    f.body = span_of(m_source, m_code[end], m_code[extent.last]);
    f.whole = span_of(m_source, head.front(), m_code[extent.last]);
    const std::size_t inside_end = extent.closed ? extent.last : extent.last + 1;
    const std::span<const Token> also_used[] = {head, conditions_within(m_code[end], m_code[extent.last])};
    BodyUse use =
        collect_body_use(m_code.subspan(end + 1, inside_end - end - 1), also_used, m_names, *m_result.text_store);
    f.referenced_identifiers = std::move(use.identifiers);
    f.calls = std::move(use.calls);
    f.calls_indirectly = use.calls_indirectly;
    next = extent.resume;
  } else {
    f.has_body = false;
    const bool semicolon = end < m_code.size() && m_code[end].is_punct(";");
    f.whole = semicolon ? span_of(m_source, head.front(), m_code[end]) : f.signature;
    f.body = Span{f.whole.end, f.whole.end, f.whole.last_line, f.whole.last_line};
    const std::span<const Token> also_used[] = {head};
    f.referenced_identifiers = collect_body_use({}, also_used, m_names, *m_result.text_store).identifiers;
    next = semicolon ? end + 1 : end;
  }
  m_result.functions.push_back(std::move(f));
  return next;
}

std::optional<std::size_t> SourceScanner::macro_kernel(const MacroMeaning& meaning, std::size_t name_at,
                                                       std::size_t close) {
  std::vector<std::span<const Token>> arguments;
  std::size_t depth = 0;
  std::size_t start = name_at + 2;
  for (std::size_t i = start; i <= close; ++i) {
    const Token& t = m_code[i];
    const bool last = i == close;
    if (!last && (t.is_punct("(") || t.is_punct("[") || t.is_punct("{"))) ++depth;
    if (!last && (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) && depth > 0) --depth;
    if (last || (depth == 0 && t.is_punct(","))) {
      const std::size_t stop = last && !t.is_punct(")") ? i + 1 : i;
      arguments.push_back(m_code.subspan(start, stop - start));
      start = i + 1;
    }
  }
  auto kernel = m_macros.expand(meaning, arguments, *m_result.text_store);
  if (!kernel) return std::nullopt;
  kernel->qualified_name = join_scope(m_prefix, kernel->name);
  kernel->extern_c = in_extern_c();
  kernel->signature = kernel->body = kernel->whole = span_of(m_source, m_code[name_at], m_code[close]);
  const std::size_t open = close + 1;
  if (kernel->has_body || open >= m_code.size() || !m_code[open].is_punct("{")) {
    m_result.functions.push_back(std::move(*kernel));
    return std::nullopt;
  }
  // DEFINE_FWD_KERNEL(fwd_f32, float) { ... }: the body is the source's, the names it uses
  // join those of the macro's expansion.
  const BodyExtent extent = body_extent(open);
  kernel->has_body = true;
  kernel->body = span_of(m_source, m_code[open], m_code[extent.last]);
  kernel->whole = span_of(m_source, m_code[name_at], m_code[extent.last]);
  const std::size_t inside_end = extent.closed ? extent.last : extent.last + 1;
  const std::span<const Token> also_used[] = {m_code.subspan(name_at, open - name_at),
                                              conditions_within(m_code[open], m_code[extent.last])};
  const BodyUse use =
      collect_body_use(m_code.subspan(open + 1, inside_end - open - 1), also_used, m_names, *m_result.text_store);
  auto merged = [](std::vector<std::string_view> expanded, const std::vector<std::string_view>& written) {
    std::vector<std::string_view> all;
    all.reserve(expanded.size() + written.size());
    std::ranges::merge(expanded, written, std::back_inserter(all));
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  };
  kernel->referenced_identifiers = merged(std::move(kernel->referenced_identifiers), use.identifiers);
  kernel->calls = merged(std::move(kernel->calls), use.calls);
  kernel->calls_indirectly = kernel->calls_indirectly || use.calls_indirectly;
  m_result.functions.push_back(std::move(*kernel));
  return extent.resume;
}

void SourceScanner::instantiation(std::size_t from, std::size_t end) {
  const auto head = m_code.subspan(from, end - from);
  const auto found = find_function_head(head, 0);
  if (!found) return;
  const std::string written = declarator_name(head, *found);
  std::string text(last_component(written));
  const std::size_t close = std::min(found->params_close, head.size() - 1);
  if (found->name_last + 1 < found->params_open)
    text += spaced_text(head.subspan(found->name_last + 1, found->params_open - found->name_last - 1));
  else
    text += spaced_text(head.subspan(found->params_open, close - found->params_open + 1));
  m_pending.push_back({m_prefix, m_result.instantiations.size()});
  m_result.instantiations.push_back({written, std::move(text), head[found->name_first].line});
}

void SourceScanner::alias(std::size_t from, std::size_t end) {
  const auto head = m_code.subspan(from, end - from);
  std::string_view name;
  std::size_t target_at = 0;
  if ((head[0].is_identifier("using") || head[0].is_identifier("namespace")) && head.size() > 3 &&
      head[1].is_identifier() && head[2].is_punct("=")) {
    name = head[1].text();
    target_at = 3;
  } else if (head[0].is_identifier("typedef") && head.size() > 2 && head.back().is_identifier()) {
    if (std::ranges::any_of(head, [](const Token& t) { return t.is_punct("("); })) return;  // a function type
    name = head.back().text();
    target_at = 1;
  } else {
    return;
  }
  auto target = qualified_type_name(head.subspan(target_at));
  if (target.empty() || target == name) return;
  m_result.aliases.push_back({join_scope(m_prefix, name), std::move(target)});
}

void SourceScanner::resolve_instantiations() {
  if (m_pending.empty()) return;
  auto& functions = m_result.functions;
  // Indexes only the functions an instantiation may name: a source has many functions and few
  // instantiations.
  std::unordered_set<std::string_view> wanted;
  for (const PendingInstantiation& pending : m_pending)
    wanted.insert(last_component(m_result.instantiations[pending.index].name));
  std::unordered_map<std::string_view, std::vector<std::size_t>> by_name;
  std::unordered_map<std::string_view, std::vector<std::size_t>> by_qualified_name;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (!wanted.contains(functions[i].name)) continue;
    by_name[functions[i].name].push_back(i);
    by_qualified_name[functions[i].qualified_name].push_back(i);
  }
  auto lookup = [](const auto& map, std::string_view key) {
    const auto found = map.find(key);
    return found == map.end() ? std::vector<std::size_t>{} : found->second;
  };
  for (const PendingInstantiation& pending : m_pending) {
    const ExplicitInstantiation& inst = m_result.instantiations[pending.index];
    std::vector<std::size_t> matches = lookup(by_qualified_name, join_scope(pending.scope, inst.name));
    if (matches.empty()) matches = lookup(by_qualified_name, inst.name);
    if (matches.empty()) matches = lookup(by_name, last_component(inst.name));
    // Only a primary template is instantiated; an overload or an explicit specialisation
    // (template <>) of the same name is not meant.
    auto is_primary = [&](std::size_t i) {
      const std::string& t = functions[i].template_parameters;
      return !t.empty() && !t.ends_with("<>") && !t.ends_with("< >");
    };
    const bool any_primary = std::any_of(matches.begin(), matches.end(), is_primary);
    for (const std::size_t i : matches) {
      auto& instantiations = functions[i].instantiations;
      if (any_primary && !is_primary(i)) continue;
      if (std::find(instantiations.begin(), instantiations.end(), inst.text) == instantiations.end())
        instantiations.push_back(inst.text);
    }
  }
}

std::span<const Token> SourceScanner::conditions_within(const Token& open, const Token& last) const {
  const std::less<const char*> before;
  const auto& all = m_pre.condition_identifiers;
  const auto begin = std::lower_bound(all.begin(), all.end(), open.text().data(),
                                      [&](const Token& t, const char* p) { return before(t.text().data(), p); });
  const auto end = std::lower_bound(begin, all.end(), last.text().data(),
                                    [&](const Token& t, const char* p) { return before(t.text().data(), p); });
  return {begin, end};
}

}  // namespace kforecast::kernels
