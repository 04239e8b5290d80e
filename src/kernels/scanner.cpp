// SPDX-License-Identifier: Apache-2.0
#include "kernels/scanner.hpp"

#include <algorithm>
#include <cstring>

#include "kernels/declaration.hpp"
#include "kernels/source_scanner.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {

namespace {

// Token memory kept from one scan to the next on this thread (see preprocess()).
thread_local std::vector<Token> t_token_storage;

}  // namespace

std::string_view TextStore::keep(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > m_left) {
    // Blocks of 16 KiB: a scan composes few names, most of them short.
    const std::size_t size = std::max<std::size_t>(text.size(), std::size_t{16} * 1024);
    m_blocks.push_back(std::make_unique_for_overwrite<char[]>(size));
    m_free = m_blocks.back().get();
    m_left = size;
  }
  std::memcpy(m_free, text.data(), text.size());
  const std::string_view kept(m_free, text.size());
  m_free += text.size();
  m_left -= text.size();
  return kept;
}

SourceScanner::SourceScanner(std::string_view source, const ScanOptions& options)
    : m_source(source),
      m_pre(options.tokens != nullptr ? preprocess(source, *options.tokens, std::move(t_token_storage))
                                      : preprocess(source, std::move(t_token_storage))),
      m_code(m_pre.code),
      m_known_macros(options.known_macros) {
  m_result.text_store = std::make_shared<TextStore>();
  for (const Macro& macro : options.known_macros) m_macros.define(macro);
  for (const Macro& macro : m_pre.macros) m_macros.define(macro);
}

ScannedSource SourceScanner::run() {
  // Growing the vector moves every Function (352 bytes, a dozen heap pointers) each time;
  // dense CUDA code declares a function per 70 tokens. A larger guess costs only address space.
  m_result.functions.reserve(m_code.size() / 64);
  for (std::size_t i = 0; i < m_code.size();) i = std::max(declaration(i), i + 1);
  while (!m_scopes.empty()) close_scope(m_code.size());
  resolve_instantiations();
  m_result.macros = std::move(m_pre.macros);
  m_result.includes = std::move(m_pre.includes);
  m_code = {};
  t_token_storage = std::move(m_pre.code);
  return std::move(m_result);
}

// The index of the ';', '{' or '}' that ends the declaration head at `start`, or the end.
std::size_t SourceScanner::head_end(std::size_t start) const {
  std::size_t depth = 0;
  bool constructor_initializers = false;
  for (std::size_t i = start; i < m_code.size(); ++i) {
    const Token& t = m_code[i];
    if (t.kind != TokenKind::punctuation || t.text().size() != 1) continue;
    switch (t.text()[0]) {
      case ';':
        return i;  // even inside parentheses: nothing at namespace scope runs on past one
      case '(':
      case '[':
        ++depth;
        break;
      case ')':
      case ']':
        if (depth > 0) --depth;
        break;
      case ':':
        if (depth == 0 && i > start && m_code[i - 1].is_punct(")")) constructor_initializers = true;
        break;
      case '{':
        if (depth == 0 && !(constructor_initializers && (m_code[i - 1].is_identifier() || m_code[i - 1].is_punct(">"))))
          return i;
        ++depth;
        break;
      case '}':
        if (depth == 0) return i;
        --depth;
        break;
      default:
        break;
    }
  }
  return m_code.size();
}

// A body ends at its closing brace. A __global__ inside it means the brace was never closed
// (kernels cannot be defined inside a function), so the body ends before that declaration.
BodyExtent SourceScanner::body_extent(std::size_t open) const {
  std::size_t depth = 0;
  for (std::size_t i = open; i < m_code.size(); ++i) {
    const Token& t = m_code[i];
    if (t.is_punct("{")) {
      ++depth;
    } else if (t.is_punct("}")) {
      if (--depth == 0) return {i, i + 1, true};
    } else if (t.is_identifier("__global__") && i > open) {
      std::size_t r = i;
      while (r - 1 > open && !m_code[r - 1].is_punct(";") && !m_code[r - 1].is_punct("{") &&
             !m_code[r - 1].is_punct("}"))
        --r;
      return {r - 1, r, false};
    }
  }
  return {m_code.size() - 1, m_code.size(), false};
}

std::size_t SourceScanner::declaration(std::size_t start) {
  const Token& first = m_code[start];
  if (first.is_punct("}")) {
    close_scope(start);
    return start + 1;
  }
  if (first.is_punct(";")) return start + 1;
  const std::size_t end = head_end(start);
  const bool ends_with_brace = end < m_code.size() && m_code[end].is_punct("{");

  // Specifiers, kernel-defining macro invocations, and other invocations before the specifiers
  // (an unknown macro without a ';'): the declaration proper starts after the last of those.
  Specifiers specifiers;
  std::optional<std::size_t> specifier_at;
  std::size_t from = start;
  std::size_t depth = 0;
  for (std::size_t i = start; i < end; ++i) {
    const Token& t = m_code[i];
    if (t.kind == TokenKind::punctuation) {
      if (t.text() == "(" || t.text() == "[" || t.text() == "{") ++depth;
      if ((t.text() == ")" || t.text() == "]" || t.text() == "}") && depth > 0) --depth;
      continue;
    }
    if (depth != 0 || !t.is_identifier()) continue;
    const bool call = i + 1 < end && m_code[i + 1].is_punct("(");
    if (t.text() == "template" && i + 1 < end && m_code[i + 1].is_punct("<")) {
      i = std::min(matching_angle(m_code, i + 1), end - 1);
    } else if (t.text() == "__global__" || t.text() == "__device__" || t.text() == "__host__") {
      specifiers.global = specifiers.global || t.text() == "__global__";
      specifiers.device = specifiers.device || t.text() == "__device__";
      specifiers.host = specifiers.host || t.text() == "__host__";
      if (!specifier_at) specifier_at = i;
    } else if (const MacroMeaning* meaning = m_macros.find(t.text())) {
      if (meaning->kernel_name_parameter && call) {
        const std::size_t close = std::min(matching_close(m_code, i + 1), end - 1);
        if (const auto after_body = macro_kernel(*meaning, i, close)) return *after_body;
        if (!specifier_at) from = close + 1;
        i = close;
      } else if (!meaning->kernel_name_parameter) {
        specifiers.add(meaning->specifiers);
        if (!specifier_at) specifier_at = i;
      }
    } else if (!call && is_device_macro_name(t.text()) && !defines(t.text())) {
      specifiers.device = true;
      specifiers.host = specifiers.host || t.text().find("HOST") != std::string_view::npos;
      if (!specifier_at) specifier_at = i;
    } else if (call && !specifier_at && !is_keyword(t.text()) && !is_attribute_word(t.text())) {
      const std::size_t close = std::min(matching_close(m_code, i + 1), end - 1);
      from = close + 1;
      i = close;
    }
  }
  while (from + 1 < end &&
         (m_code[from].is_identifier("public") || m_code[from].is_identifier("private") ||
          m_code[from].is_identifier("protected")) &&
         m_code[from + 1].is_punct(":"))
    from += 2;
  if (from >= end) {
    // `void launch(...) {`: a host function whose name read as a macro invocation; its body is
    // skipped like any other, never read as the enclosing scope's (its closing brace would end
    // the namespace, and every kernel after it would lose the namespace's name).
    if (ends_with_brace) return body_extent(end).resume;
    return end < m_code.size() && m_code[end].is_punct("}") ? end : end + 1;
  }

  const Token& lead = m_code[from];
  const bool extern_template =
      lead.is_identifier("extern") && from + 1 < end && m_code[from + 1].is_identifier("template");
  if ((lead.is_identifier("template") && !(from + 1 < end && m_code[from + 1].is_punct("<"))) || extern_template) {
    instantiation(from + (extern_template ? 2 : 1), end);
  } else if (ends_with_brace && lead.is_identifier("extern") && from + 2 == end &&
             m_code[from + 1].kind == TokenKind::string_literal) {
    open_scope(ScopeKind::extern_c, {}, from);
    return end + 1;
  } else if (lead.is_identifier("namespace") ||
             (lead.is_identifier("inline") && from + 1 < end && m_code[from + 1].is_identifier("namespace"))) {
    if (!ends_with_brace) {
      alias(from, end);
      return end + 1;
    }
    open_scope(ScopeKind::name_space, namespace_name(from, end), from);
    return end + 1;
  } else if (specifier_at && (specifiers.global || specifiers.device) && *specifier_at >= from) {
    if (const auto next = function(from, end, *specifier_at, specifiers)) return *next;
  }
  if (!ends_with_brace && (lead.is_identifier("using") || lead.is_identifier("typedef"))) alias(from, end);
  if (ends_with_brace) {
    if (auto name = class_name(from, end)) {
      open_scope(ScopeKind::class_body, std::move(*name), from);
      return end + 1;
    }
    return body_extent(end).resume;
  }
  return end < m_code.size() && m_code[end].is_punct("}") ? end : end + 1;
}

bool SourceScanner::defines(std::string_view macro_name) {
  if (!m_defined_names) {
    m_defined_names.emplace();
    for (const Macro& macro : m_pre.macros) m_defined_names->insert(macro.name);
    for (const Macro& macro : m_known_macros) m_defined_names->insert(macro.name);
  }
  return m_defined_names->contains(macro_name);
}

std::optional<std::string> SourceScanner::class_name(std::size_t from, std::size_t end) const {
  const auto head = m_code.subspan(from, end - from);
  std::size_t depth = 0;
  for (std::size_t i = skip_template_headers(head, 0); i < head.size(); ++i) {
    const Token& t = head[i];
    if (t.is_punct("(") || t.is_punct("[")) ++depth;
    if ((t.is_punct(")") || t.is_punct("]")) && depth > 0) --depth;
    if (depth != 0 || !t.is_identifier()) continue;
    if (t.text() == "enum") return std::nullopt;
    if (t.text() != "class" && t.text() != "struct" && t.text() != "union") continue;
    std::size_t k = i + 1;
    while (k < head.size()) {
      if (head[k].is_punct("[") && k + 1 < head.size() && head[k + 1].is_punct("[")) {
        k = matching_close(head, k) + 1;
      } else if (head[k].is_identifier() && is_attribute_word(head[k].text()) && k + 1 < head.size() &&
                 head[k + 1].is_punct("(")) {
        k = matching_close(head, k + 1) + 1;
      } else {
        break;
      }
    }
    std::string name;
    for (; k < head.size() && (head[k].is_punct("::") || (head[k].is_identifier() && head[k].text() != "final")); ++k)
      name += head[k].text();
    if (k < head.size() && head[k].is_punct("<")) k = matching_angle(head, k) + 1;
    if (k < head.size() && head[k].is_identifier("final")) ++k;
    if (k >= head.size() || head[k].is_punct(":")) return name;
    return std::nullopt;  // struct S f() or struct S s: not a class definition
  }
  return std::nullopt;
}

std::string SourceScanner::namespace_name(std::size_t from, std::size_t end) const {
  if (m_code[from].is_identifier("inline")) return {};
  std::string name;
  for (std::size_t i = from + 1; i < end; ++i) {
    const Token& t = m_code[i];
    if (t.is_punct("[") && i + 1 < end && m_code[i + 1].is_punct("[")) {
      i = matching_close(m_code, i);
    } else if (t.is_identifier() && is_attribute_word(t.text())) {
      if (i + 1 < end && m_code[i + 1].is_punct("(")) i = matching_close(m_code, i + 1);
    } else if (t.is_identifier() && t.text() != "inline") {
      name += name.empty() ? "" : "::";
      name += t.text();
    }
  }
  return name;
}

void SourceScanner::open_scope(ScopeKind kind, std::string name, std::size_t first) {
  m_scopes.push_back({kind, std::move(name), first});
  if (!m_scopes.back().name.empty()) m_prefix = join_scope(m_prefix, m_scopes.back().name);
}

void SourceScanner::close_scope(std::size_t close) {
  if (m_scopes.empty()) return;  // a stray '}' in code that does not compile
  const Scope scope = std::move(m_scopes.back());
  m_scopes.pop_back();
  if (scope.kind == ScopeKind::name_space && !scope.name.empty() && !m_code.empty()) {
    const Token& last = m_code[std::min(close, m_code.size() - 1)];
    m_result.namespaces.push_back({m_prefix, span_of(m_source, m_code[scope.first], last)});
  }
  m_prefix.clear();
  for (const Scope& s : m_scopes)
    if (!s.name.empty()) m_prefix = join_scope(m_prefix, s.name);
}

bool SourceScanner::in_extern_c() const {
  return std::any_of(m_scopes.begin(), m_scopes.end(), [](const Scope& s) { return s.kind == ScopeKind::extern_c; });
}

ScannedSource scan_cuda_source(std::string_view text, const ScanOptions& options) {
  return SourceScanner(text, options).run();
}

}  // namespace kforecast::kernels
