// SPDX-License-Identifier: Apache-2.0
#include "kernels/macro_table.hpp"

#include <algorithm>

#include "kernels/body_use.hpp"
#include "kernels/declaration.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

// Replaces the whole words that name a macro parameter by the argument's text.
std::string substitute(std::string_view text, const std::vector<std::string>& parameters,
                       const std::vector<std::string>& arguments) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (!is_word_char(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_word_char(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    const auto found = std::find(parameters.begin(), parameters.end(), word);
    const auto index = static_cast<std::size_t>(found - parameters.begin());
    out += found != parameters.end() && index < arguments.size() ? std::string_view(arguments[index]) : word;
    i = end;
  }
  return out;
}

bool is_plain_identifier(std::string_view text) {
  return !text.empty() && !(text[0] >= '0' && text[0] <= '9') && std::all_of(text.begin(), text.end(), is_word_char);
}

}  // namespace

void Specifiers::add(const Specifiers& other) {
  global = global || other.global;
  device = device || other.device;
  host = host || other.host;
}

// Most macros are constants and helpers: without a CUDA specifier in the body, or the name of
// a macro that stands for one, a macro means nothing here and costs no more than this check.
// Lexing the body finds a meaning only where one of these words is in its text, so a body
// without any of them needs no lexing (unless it redefines a macro that had a meaning).
bool MacroTable::may_mean_something(const Macro& macro) const {
  for (const std::string_view specifier : {"__global__", "__device__", "__host__"})
    if (macro.body.find(specifier) != std::string::npos) return true;
  if (m_meanings.empty()) return false;
  // With many meanings, lexing the body once costs less than searching it for each name.
  constexpr std::size_t most_names_searched = 16;
  if (m_meanings.size() > most_names_searched || m_meanings.contains(macro.name)) return true;
  return std::ranges::any_of(m_meanings,
                             [&](const auto& meaning) { return macro.body.find(meaning.first) != std::string::npos; });
}

void MacroTable::define(const Macro& macro) {
  if (!may_mean_something(macro)) return;
  std::vector<Token> body;
  Lexer lexer(macro.body, macro.span.first_line, StartOfLine::no);
  for (Token t = lexer.next(); t.kind != TokenKind::end; t = lexer.next()) body.push_back(t);

  MacroMeaning meaning;
  meaning.name = macro.name;
  meaning.parameters = macro.parameters;
  std::optional<std::size_t> global_at;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!body[i].is_identifier()) continue;
    Specifiers here;
    here.global = body[i].text() == "__global__";
    here.device = body[i].text() == "__device__";
    here.host = body[i].text() == "__host__";
    if (const MacroMeaning* inner = find(body[i].text()); inner && !inner->kernel_name_parameter)
      here.add(inner->specifiers);
    if (here.global && !global_at) global_at = i;
    meaning.specifiers.add(here);
  }

  if (macro.function_like && global_at) {
    const auto head = find_function_head(body, *global_at + 1);
    const auto parameter =
        head && head->name_first == head->name_last
            ? std::find(macro.parameters.begin(), macro.parameters.end(), body[head->name_last].text())
            : macro.parameters.end();
    if (parameter != macro.parameters.end()) {
      meaning.kernel_name_parameter = static_cast<std::size_t>(parameter - macro.parameters.begin());
      Function& kernel = meaning.kernel;
      kernel.kind = FunctionKind::global;
      kernel.from_macro = true;
      kernel.macro = macro.name;
      const std::size_t template_end = skip_template_headers(body, 0);
      if (template_end > 0) kernel.template_parameters = spaced_text(std::span(body).first(template_end));
      const std::size_t close = std::min(head->params_close, body.size());
      kernel.parameters =
          parse_parameters(std::span(body).subspan(head->params_open + 1, close - head->params_open - 1));
      kernel.launch_bounds = launch_bounds_of(std::span(body).first(head->params_open));
      const auto open = std::find_if(body.begin() + static_cast<std::ptrdiff_t>(close), body.end(),
                                     [](const Token& t) { return t.is_punct("{") || t.is_punct(";"); });
      kernel.has_body = open != body.end() && open->is_punct("{");
      if (kernel.has_body) {
        NameSet names;
        TextStore composed;
        const BodyUse use = collect_body_use(std::span(body).subspan(static_cast<std::size_t>(open - body.begin()) + 1),
                                             {}, names, composed);
        meaning.kernel_identifiers.assign(use.identifiers.begin(), use.identifiers.end());
        meaning.kernel_calls.assign(use.calls.begin(), use.calls.end());
        kernel.calls_indirectly = use.calls_indirectly;
      }
    }
  }
  if (meaning.kernel_name_parameter || (!macro.function_like && meaning.specifiers.any())) {
    m_name_lengths |= length_bit(macro.name.size());
    m_meanings.insert_or_assign(macro.name, std::move(meaning));
  } else {
    m_meanings.erase(macro.name);  // a redefinition takes the old meaning away
  }
}

std::optional<Function> MacroTable::expand(const MacroMeaning& meaning,
                                           std::span<const std::span<const Token>> arguments, TextStore& store) const {
  if (!meaning.kernel_name_parameter || *meaning.kernel_name_parameter >= arguments.size()) return std::nullopt;
  const auto name_tokens = arguments[*meaning.kernel_name_parameter];
  if (name_tokens.size() != 1 || !name_tokens[0].is_identifier()) return std::nullopt;

  std::vector<std::string> texts;
  for (const auto& argument : arguments) texts.push_back(spaced_text(argument));
  Function kernel = meaning.kernel;
  kernel.name = std::string(name_tokens[0].text());
  kernel.qualified_name = kernel.name;
  kernel.template_parameters = substitute(kernel.template_parameters, meaning.parameters, texts);
  kernel.launch_bounds = substitute(kernel.launch_bounds, meaning.parameters, texts);
  for (Parameter& p : kernel.parameters) {
    p.type = substitute(p.type, meaning.parameters, texts);
    p.name = substitute(p.name, meaning.parameters, texts);
    p.default_value = substitute(p.default_value, meaning.parameters, texts);
  }
  // An argument that is not a name (an operator, an expression) is not a use of a name.
  auto substitute_names = [&](const std::vector<std::string>& names, std::string_view also) {
    // Most names are one word: the argument's text or the name itself, with no new string.
    std::vector<std::string> substituted;  // the others; reserved, so views of them stay put
    substituted.reserve(names.size() + 1);
    std::vector<std::string_view> out;
    auto add = [&](std::string_view name) {
      std::string_view replaced = name;
      if (std::all_of(name.begin(), name.end(), is_word_char)) {
        const auto found = std::find(meaning.parameters.begin(), meaning.parameters.end(), name);
        const auto index = static_cast<std::size_t>(found - meaning.parameters.begin());
        if (found != meaning.parameters.end() && index < texts.size()) replaced = texts[index];
      } else {
        replaced = substituted.emplace_back(substitute(name, meaning.parameters, texts));
      }
      if (name.find("::") != std::string::npos || (is_plain_identifier(replaced) && !is_keyword(replaced)))
        out.push_back(replaced);
    };
    for (const std::string& name : names) add(name);
    if (!also.empty()) add(also);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    for (std::string_view& name : out) name = store.keep(name);
    return out;
  };
  kernel.referenced_identifiers = substitute_names(meaning.kernel_identifiers, meaning.name);
  kernel.calls = substitute_names(meaning.kernel_calls, {});
  return kernel;
}

}  // namespace kforecast::kernels
