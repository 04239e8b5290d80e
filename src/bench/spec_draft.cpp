// SPDX-License-Identifier: Apache-2.0
#include "bench/spec_draft.hpp"
#include "bench/spec_draft_text.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "base/integer_expression.hpp"
#include "base/nearest_name.hpp"
#include "bench/host_launch.hpp"
#include "kernels/lexer.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::bench {
namespace {

using draft_text::DraftLines;
using draft_text::fill;
using draft_text::printable;
using draft_text::quoted;
using draft_text::toml_key;

using kernels::Token;

// Index expressions and call arguments longer than this are not read: bounded work on any body.
constexpr std::size_t max_bracket_tokens = 512;
constexpr std::size_t max_parameters = 128;

std::size_t close_within(std::span<const Token> tokens, std::size_t open) {
  int depth = 0;
  const std::size_t limit = std::min(tokens.size(), open + max_bracket_tokens);
  for (std::size_t i = open; i < limit; ++i) {
    const auto text = tokens[i].text();
    if (tokens[i].kind != kernels::TokenKind::punctuation) continue;
    if (text == "(" || text == "[" || text == "{") ++depth;
    if ((text == ")" || text == "]" || text == "}") && --depth == 0) return i;
  }
  return tokens.size();
}

bool is_assignment(const Token& token) {
  static constexpr std::array<std::string_view, 11> operators{
      "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  return token.kind == kernels::TokenKind::punctuation && std::ranges::find(operators, token.text()) != operators.end();
}

bool is_integer_type(std::string_view type) {
  static constexpr std::array<std::string_view, 19> names{
      "int",          "unsigned",      "unsigned int",  "long",    "long long", "unsigned long", "unsigned long long",
      "size_t",       "std::size_t",   "int64_t",       "int32_t", "uint32_t",  "uint64_t",      "std::int64_t",
      "std::int32_t", "std::uint32_t", "std::uint64_t", "short",   "index_t"};
  return std::ranges::find(names, type) != names.end();
}

bool is_floating_type(std::string_view type) {
  return type == "float" || type == "double" || type == "half" || type == "__half" || type == "__nv_bfloat16";
}

bool named_like_a_size(std::string_view name) {
  static constexpr std::array<std::string_view, 16> names{
      "n", "N", "size", "count", "numel", "len",    "length",   "num_elements",
      "M", "K", "rows", "cols",  "width", "height", "elements", "num"};
  return std::ranges::find(names, name) != names.end();
}

// "const float* __restrict__" -> "float"; the words around the pointee, left out.
std::string pointee_type(std::string_view type) {
  std::string result;
  std::size_t start = 0;
  while (start < type.size()) {
    std::size_t end = type.find_first_of(" *&", start);
    if (end == std::string_view::npos) end = type.size();
    const auto word = type.substr(start, end - start);
    if (!word.empty() && word != "const" && word != "volatile" && word != "__restrict__" && word != "__restrict" &&
        word != "restrict")
      result += (result.empty() ? "" : " ") + std::string(word);
    start = end + 1;
  }
  return result;
}

bool const_pointee(std::string_view type) {
  const auto before_star = type.substr(0, type.find('*'));
  return before_star.starts_with("const ") || before_star.find(" const") != std::string_view::npos;
}

struct ParameterUse {
  bool read = false;
  bool written = false;
  bool written_at_block = false;  // p[blockIdx.x] = ...: one element per block
  bool bounds_an_index = false;   // i < n
};

// How the body uses each named parameter: one pass over its tokens.
std::map<std::string, ParameterUse, std::less<>> parameter_uses(std::span<const Token> body,
                                                                const std::set<std::string, std::less<>>& names) {
  std::map<std::string, ParameterUse, std::less<>> uses;
  std::size_t atomic_end = 0;  // inside an atomicAdd(...) call until this token
  for (std::size_t i = 0; i < body.size(); ++i) {
    const Token& token = body[i];
    if (!token.is_identifier()) continue;
    if (token.text().starts_with("atomic") && i + 1 < body.size() && body[i + 1].is_punct("(")) {
      atomic_end = std::max(atomic_end, close_within(body, i + 1));
      continue;
    }
    const auto found = names.find(token.text());
    if (found == names.end()) continue;
    ParameterUse& use = uses[*found];
    const bool previous_is_less = i > 0 && (body[i - 1].is_punct("<") || body[i - 1].is_punct("<="));
    const bool next_is_greater = i + 1 < body.size() && (body[i + 1].is_punct(">") || body[i + 1].is_punct(">="));
    if (previous_is_less || next_is_greater) use.bounds_an_index = true;
    if (i < atomic_end) {
      use.read = use.written = true;
      continue;
    }
    if (i + 1 < body.size() && body[i + 1].is_punct("[")) {
      const std::size_t close = close_within(body, i + 1);
      if (close + 1 < body.size() && is_assignment(body[close + 1])) {
        use.written = true;
        if (!body[close + 1].is_punct("=")) use.read = true;
        if (close == i + 5 && body[i + 2].is_identifier("blockIdx") && body[i + 3].is_punct(".") &&
            body[i + 4].is_identifier("x"))
          use.written_at_block = true;
        continue;
      }
    }
    // `a * p = v` cannot be a product (not assignable): a `*` before an assigned name dereferences it.
    const bool dereferenced = i > 0 && body[i - 1].is_punct("*");
    if (dereferenced && i + 1 < body.size() && is_assignment(body[i + 1])) {
      use.written = true;
      if (!body[i + 1].is_punct("=")) use.read = true;
      continue;
    }
    use.read = true;
  }
  return uses;
}

const kernels::Function* only_kernel(const kernels::ScannedSource& scanned, std::string_view kernel,
                                     std::string_view display_name, Error& error) {
  std::vector<const kernels::Function*> matches;
  std::vector<std::string_view> names;
  for (const auto& function : scanned.functions) {
    if (function.kind != kernels::FunctionKind::global) continue;
    names.push_back(function.qualified_name);
    if (function.has_body && (function.name == kernel || function.qualified_name == kernel))
      matches.push_back(&function);
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) {
    std::string listed;
    for (std::size_t i = 0; i < names.size() && i < 20; ++i) listed += (i == 0 ? "" : ", ") + std::string(names[i]);
    error =
        usage_error(fmt::format("{}: no kernel '{}'{}{}", display_name, printable(kernel), did_you_mean(kernel, names),
                                names.empty() ? "; the file defines no __global__ function"
                                              : fmt::format("; kernels there: {}", printable(listed, 400))))
            .error();
    return nullptr;
  }
  std::string lines;
  for (const auto* match : matches)
    lines += fmt::format("{}{}:{} ({})", lines.empty() ? "" : ", ", display_name, match->whole.first_line,
                         printable(match->qualified_name));
  error = usage_error(fmt::format("{}: {} kernels are named '{}': {}; name one by its qualified name, or write the "
                                  "spec for the one you mean as a [[kernel]] table with its file",
                                  display_name, matches.size(), printable(kernel), printable(lines, 600)))
              .error();
  return nullptr;
}

// The names a template's parameters declare: "template <int BM, typename T>" -> BM, T; and which
// of them are types.
std::vector<std::pair<std::string, bool>> template_parameter_names(std::string_view text) {
  std::vector<std::pair<std::string, bool>> names;
  const auto tokens = kernels::lex(text);
  for (std::size_t i = 0; i + 1 < tokens.size() && names.size() < max_parameters; ++i) {
    if (!tokens[i].is_identifier() ||
        !(tokens[i + 1].is_punct(",") || tokens[i + 1].is_punct(">") || tokens[i + 1].is_punct("=")))
      continue;
    const bool type = i > 0 && (tokens[i - 1].is_identifier("typename") || tokens[i - 1].is_identifier("class"));
    if (tokens[i].is_identifier("typename") || tokens[i].is_identifier("class")) continue;
    names.emplace_back(std::string(tokens[i].text()), type);
  }
  return names;
}

}  // namespace

Result<SpecDraft> draft_launch_spec(std::string_view source, std::string_view display_name, std::string_view kernel,
                                    std::span<const HostSource> hosts, DraftFormat format) {
  const auto scanned = kernels::scan_cuda_source(source);
  Error error;
  const kernels::Function* function = only_kernel(scanned, kernel, display_name, error);
  if (function == nullptr) return std::unexpected(error);

  SpecDraft draft;
  draft.kernel = function->name;
  DraftLines lines;
  const auto guessed = [&](std::string why) {
    ++draft.guess_count;
    return why;
  };
  const auto to_fill = [&](std::string_view what) {
    ++draft.fill_count;
    return fill(what);
  };

  // The parameters, and how the body uses them.
  const std::vector<kernels::Parameter> parameters(
      function->parameters.begin(), function->parameters.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                                       function->parameters.size(), max_parameters)));
  std::set<std::string, std::less<>> names;
  for (const auto& parameter : parameters)
    if (!parameter.name.empty()) names.insert(parameter.name);
  const auto body_tokens = kernels::lex(source.substr(function->body.begin, function->body.end - function->body.begin));
  const auto uses = parameter_uses(body_tokens, names);
  const auto use_of = [&](const std::string& name) {
    const auto found = uses.find(name);
    return found == uses.end() ? ParameterUse{} : found->second;
  };
  std::vector<std::string> size_names;
  for (const auto& parameter : parameters)
    if (parameter.type.find('*') == std::string::npos && is_integer_type(pointee_type(parameter.type)) &&
        (named_like_a_size(parameter.name) || use_of(parameter.name).bounds_an_index))
      size_names.push_back(parameter.name);

  // Where the kernel is launched.
  const auto templates = template_parameter_names(function->template_parameters);
  std::vector<HostSource> all_hosts{{display_name, source}};
  all_hosts.insert(all_hosts.end(), hosts.begin(), hosts.end());
  const auto launch = find_host_launch(all_hosts, function->name, parameters, size_names);

  const bool dynamic_shared =
      std::ranges::any_of(body_tokens, [&](const Token& token) { return token.is_identifier("extern"); });

  if (format == DraftFormat::config_table) {
    lines.add("[[kernel]]");
    lines.add(fmt::format("file = {}", quoted(display_name)));
  }
  // The name, with the instantiation for a template.
  std::map<std::string, std::string> template_values;  // parameter -> literal argument
  if (!templates.empty()) {
    if (launch && launch->template_arguments.size() == templates.size()) {
      std::string arguments;
      for (std::size_t i = 0; i < templates.size(); ++i) {
        arguments += (i == 0 ? "" : ", ") + launch->template_arguments[i];
        template_values[templates[i].first] = launch->template_arguments[i];
      }
      draft.kernel = fmt::format("{}<{}>", function->name, arguments);
      lines.add(fmt::format("name = {}", quoted(draft.kernel)), guessed(fmt::format("guessed from {}", launch->where)));
    } else {
      std::string wanted;
      for (const auto& [name, is_type] : templates) wanted += (wanted.empty() ? "" : ", ") + name;
      lines.add(fmt::format("name = {}", quoted(fmt::format("{}<FILL: {}>", function->name, wanted))),
                launch
                    ? fmt::format("{}'s template arguments are not literal: {}", launch->where, launch->template_text)
                    : "no launch with literal template arguments found");
      ++draft.fill_count;
    }
  } else if (format == DraftFormat::config_table) {
    lines.add(fmt::format("name = {}", quoted(function->qualified_name)));
  }

  // Sizes.
  if (!size_names.empty()) {
    std::string entries;
    const int value = size_names.size() == 1 ? 1048576 : 4096;
    for (const auto& name : size_names)
      entries += fmt::format("{}{} = {}", entries.empty() ? "" : ", ", toml_key(name), value);
    lines.add(fmt::format("sizes = [{{ {} }}]", entries), guessed("guessed: the problem sizes to measure"));
  }

  // Geometry.
  std::vector<std::string> grid, block;
  std::string shared = "0";
  if (launch) {
    const auto list = [&](const std::vector<std::optional<std::string>>& parts, std::string_view what,
                          std::vector<std::string>& into) {
      std::string items;
      for (const auto& part : parts) {
        into.push_back(part ? *part : "");
        items += (items.empty() ? "" : ", ") + (part ? quoted(*part) : to_fill(what));
      }
      return items;
    };
    const auto origin = [&](const std::vector<std::optional<std::string>>& parts, const std::string& text) {
      const bool all = std::ranges::all_of(parts, [](const auto& part) { return part.has_value(); });
      const auto where = fmt::format("from {}: {}", launch->where, text);
      return all ? guessed("guessed " + where) : "FILL " + where;
    };
    const auto grid_items = list(launch->grid, "blocks", grid);
    lines.add(fmt::format("grid = [{}]", grid_items), origin(launch->grid, launch->grid_text));
    const auto block_items = list(launch->block, "threads", block);
    lines.add(fmt::format("block = [{}]", block_items), origin(launch->block, launch->block_text));
    if (launch->shared_text.empty()) {
      if (dynamic_shared)
        lines.add(fmt::format("shared_bytes = {}", to_fill("dynamic shared memory bytes")),
                  "the body declares extern __shared__ but the launch passes no size");
    } else if (launch->shared) {
      shared = *launch->shared;
      if (shared != "0")
        lines.add(fmt::format("shared_bytes = {}", quoted(shared)),
                  guessed(fmt::format("guessed from {}: {}", launch->where, launch->shared_text)));
    } else {
      lines.add(fmt::format("shared_bytes = {}", to_fill("dynamic shared memory bytes")),
                fmt::format("{}: {}", launch->where, launch->shared_text));
    }
  } else {
    const auto bounds = function->launch_bounds.substr(0, function->launch_bounds.find(','));
    const bool literal_block = !bounds.empty() && evaluate_integer_expression(bounds, {}).has_value();
    if (size_names.size() == 1 && literal_block) {
      grid.push_back(fmt::format("ceil_div({}, {})", size_names.front(), bounds));
      lines.add(fmt::format("grid = [{}]", quoted(grid.back())),
                guessed("guessed: one thread per element; no launch of it found"));
    } else {
      grid.emplace_back();
      lines.add(fmt::format("grid = [{}]", to_fill("blocks")),
                "no launch of it found in this file or those including it");
    }
    if (literal_block)
      lines.add(fmt::format("block = [{}]", quoted(bounds)), guessed("guessed from __launch_bounds__"));
    else
      lines.add(fmt::format("block = [{}]", to_fill("threads per block")));
    if (dynamic_shared)
      lines.add(fmt::format("shared_bytes = {}", to_fill("dynamic shared memory bytes")),
                "the body declares extern __shared__");
  }

  // Arguments.
  lines.add("[kernel.args]");
  for (std::size_t index = 0; index < parameters.size(); ++index) {
    const auto& parameter = parameters[index];
    if (parameter.name.empty()) {
      lines.add("",
                fmt::format("FILL: parameter {} ({}) has no name, so no spec can bind it", index + 1, parameter.type));
      ++draft.fill_count;
      continue;
    }
    const auto key = toml_key(parameter.name);
    const auto written_type = pointee_type(parameter.type);
    const auto instantiated = template_values.find(written_type);
    const auto element = instantiated != template_values.end() ? instantiated->second : written_type;
    const ParameterUse use = use_of(parameter.name);
    if (parameter.type.find('*') != std::string::npos) {
      std::string role = "in", why;
      if (const_pointee(parameter.type)) {
        why = "const";
      } else if (use.written) {
        role = use.read ? "inout" : "out";
        why = use.read ? "read and written in the body" : "written in the body";
      } else {
        role = "inout";
        why = "not const, no write seen in the body";
      }
      std::string count, count_why;
      if (use.written_at_block && !grid.empty() && !grid.front().empty()) {
        count = quoted(grid.front()), count_why = "one element per block";
      } else if (size_names.size() == 1) {
        count = quoted(size_names.front()), count_why = fmt::format("count: the size {}", size_names.front());
      } else {
        count = to_fill("elements");
      }
      std::string fields = fmt::format("count = {}", count);
      if (role != "out")
        fields += fmt::format(", init = {}", quoted(is_integer_type(element) ? "randint(0, 9)" : "uniform(-1, 1)"));
      fields += fmt::format(", role = {}", quoted(role));
      const auto type_template = std::ranges::find(templates, std::pair<std::string, bool>{written_type, true});
      if (type_template != templates.end()) {
        const auto value = template_values.find(written_type);
        fields += fmt::format(", type = {}",
                              value != template_values.end() ? quoted(value->second) : to_fill("element type"));
      }
      std::string comment = fmt::format("role: {}", why);
      if (!count_why.empty()) comment += fmt::format("; {}", count_why);
      lines.add(fmt::format("{} = {{ {} }}", key, fields), guessed("guessed " + comment));
    } else if (std::ranges::find(size_names, parameter.name) != size_names.end()) {
      lines.add(fmt::format("{} = {}", key, quoted(parameter.name)));
    } else if (is_integer_type(element)) {
      lines.add(fmt::format("{} = {}", key, to_fill("integer")));
    } else if (is_floating_type(element)) {
      lines.add(fmt::format("{} = {}", key, to_fill("a number, e.g. 1.0")));
    } else {
      lines.add(fmt::format("{} = {}", key, to_fill(fmt::format("a value of type {}", printable(parameter.type, 60)))),
                "bench fills integer and floating scalars only");
    }
  }
  auto text = lines.text(format);
  if (format == DraftFormat::comment_block) text = "// kforecast:\n" + text;
  draft.text = std::move(text);
  return draft;
}

}  // namespace kforecast::bench
