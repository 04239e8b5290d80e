// SPDX-License-Identifier: Apache-2.0
#include "bench/host_launch.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "base/integer_expression.hpp"
#include "kernels/launch_sites.hpp"
#include "kernels/lexer.hpp"

namespace kforecast::bench {
namespace {

using kernels::Token;
using Tokens = std::span<const Token>;

// How far from a launch its dim3 declarations and its call's arguments are looked for.
constexpr std::size_t look_back_tokens = 20000;
constexpr std::size_t look_ahead_tokens = 4096;

std::size_t close_of(Tokens tokens, std::size_t open, std::size_t limit) {
  int depth = 0;
  limit = std::min(tokens.size(), open + limit);
  for (std::size_t i = open; i < limit; ++i) {
    if (tokens[i].kind != kernels::TokenKind::punctuation) continue;
    const auto text = tokens[i].text();
    if (text == "(" || text == "[" || text == "{") ++depth;
    if ((text == ")" || text == "]" || text == "}") && --depth == 0) return i;
  }
  return tokens.size();
}

// The top-level comma-separated parts of tokens[begin, end).
std::vector<Tokens> split_commas(Tokens tokens, std::size_t begin, std::size_t end) {
  std::vector<Tokens> parts;
  int depth = 0;
  std::size_t start = begin;
  for (std::size_t i = begin; i < end; ++i) {
    const auto text = tokens[i].text();
    if (tokens[i].kind == kernels::TokenKind::punctuation) {
      if (text == "(" || text == "[" || text == "{" || text == "<") ++depth;
      if (text == ")" || text == "]" || text == "}" || text == ">") --depth;
      if (text == "," && depth == 0) {
        parts.push_back(tokens.subspan(start, i - start));
        start = i + 1;
      }
    }
  }
  if (end > start) parts.push_back(tokens.subspan(start, end - start));
  return parts;
}

std::string spaced(Tokens tokens) {
  std::string text;
  for (const auto& token : tokens.first(std::min<std::size_t>(tokens.size(), 64)))
    text += (text.empty() ? "" : " ") + std::string(token.text());
  return text;
}

// A C++ integer literal as a decimal number: "256", "0x100", "256u".
std::optional<std::string> integer_literal(std::string_view text) {
  while (!text.empty() && (text.back() == 'u' || text.back() == 'U' || text.back() == 'l' || text.back() == 'L'))
    text.remove_suffix(1);
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2), base = 16;
  std::uint64_t value = 0;
  const auto [end, code] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || code != std::errc{} || end != text.data() + text.size() || value > INT64_MAX) return std::nullopt;
  return std::to_string(value);
}

std::optional<std::int64_t> type_bytes(std::string_view type) {
  static const std::map<std::string_view, std::int64_t> sizes{
      {"float", 4},         {"int", 4},  {"unsigned", 4}, {"double", 8},   {"half", 2},    {"__half", 2},
      {"__nv_bfloat16", 2}, {"char", 1}, {"int64_t", 8},  {"uint32_t", 4}, {"int32_t", 4}, {"float2", 8},
      {"float4", 16},       {"long", 8}, {"size_t", 8},   {"short", 2}};
  const auto found = sizes.find(type);
  return found == sizes.end() ? std::nullopt : std::optional(found->second);
}

struct HostNames {
  std::map<std::string, std::string, std::less<>> constants;  // BM -> 64
  std::map<std::string, std::string, std::less<>> sizes;      // host name -> size variable
};

HostNames constants_of(Tokens tokens) {
  HostNames names;
  for (std::size_t i = 0; i + 4 < tokens.size(); ++i) {
    if (tokens[i].kind == kernels::TokenKind::directive_begin && tokens[i + 1].is_identifier("define") &&
        tokens[i + 2].is_identifier() && tokens[i + 3].kind == kernels::TokenKind::number &&
        tokens[i + 4].kind == kernels::TokenKind::directive_end) {
      if (auto value = integer_literal(tokens[i + 3].text()))
        names.constants[std::string(tokens[i + 2].text())] = *value;
      continue;
    }
    if (!tokens[i].is_identifier() || !tokens[i + 1].is_punct("=") ||
        tokens[i + 2].kind != kernels::TokenKind::number || !tokens[i + 3].is_punct(";"))
      continue;
    for (std::size_t back = 1; back <= 4 && back <= i; ++back)
      if (tokens[i - back].is_identifier("constexpr") || tokens[i - back].is_identifier("const")) {
        if (auto value = integer_literal(tokens[i + 2].text())) names.constants[std::string(tokens[i].text())] = *value;
        break;
      }
  }
  return names;
}

bool ceil_div_like(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower.find("ceil") != std::string::npos || lower.find("div_up") != std::string::npos ||
         lower.find("divup") != std::string::npos || lower.find("cdiv") != std::string::npos ||
         lower.find("round_up_div") != std::string::npos;
}

// One dimension's host expression in the spec's expression language, or nullopt.
std::optional<std::string> translate(Tokens tokens, const HostNames& names, std::span<const std::string> size_names) {
  if (tokens.empty() || tokens.size() > 256) return std::nullopt;
  std::string text;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    const auto word = token.text();
    const bool call = i + 1 < tokens.size() && tokens[i + 1].is_punct("(");
    if (token.is_identifier()) {
      if (word == "std" && i + 1 < tokens.size() && tokens[i + 1].is_punct("::")) {
        ++i;
        continue;
      }
      if (call && ceil_div_like(word)) {
        text += "ceil_div";
      } else if (word == "sizeof" && i + 3 < tokens.size() && tokens[i + 1].is_punct("(") &&
                 tokens[i + 3].is_punct(")") && type_bytes(tokens[i + 2].text())) {
        text += std::to_string(*type_bytes(tokens[i + 2].text()));
        i += 3;
      } else if (auto size = names.sizes.find(word); size != names.sizes.end()) {
        text += size->second;
      } else if (std::ranges::find(size_names, word) != size_names.end() ||
                 (call && (word == "min" || word == "max"))) {
        text += word;
      } else if (auto constant = names.constants.find(word); constant != names.constants.end()) {
        text += constant->second;
      } else {
        return std::nullopt;
      }
    } else if (token.kind == kernels::TokenKind::number) {
      auto value = integer_literal(word);
      if (!value) return std::nullopt;
      text += *value;
    } else if (token.kind == kernels::TokenKind::punctuation &&
               (word == "(" || word == ")" || word == "+" || word == "-" || word == "*" || word == "/" ||
                word == "%")) {
      text += word == "(" || word == ")" ? std::string(word) : fmt::format(" {} ", word);
    } else if (token.is_punct(",")) {
      text += ", ";
    } else {
      return std::nullopt;
    }
  }
  IntegerVariables probe;
  for (const auto& name : size_names) probe.emplace(name, 1000);
  if (!evaluate_integer_expression(text, probe)) return std::nullopt;
  return text;
}

struct Dimensions {
  std::vector<Tokens> parts;
  std::string text;  // as written, with the declaration it was followed to
};

// A launch configuration's grid or block: dim3(a, b), a dim3 variable (its declaration before
// the launch, in `host`), an integer variable (its initialiser), or one expression.
Dimensions dimensions_of(Tokens part, Tokens host, std::size_t site) {
  Dimensions result{{part}, spaced(part)};
  if (part.size() >= 3 && part[0].is_identifier("dim3") && (part[1].is_punct("(") || part[1].is_punct("{"))) {
    const auto close = close_of(part, 1, part.size());
    if (close < part.size()) result.parts = split_commas(part, 2, close);
    return result;
  }
  if (part.size() != 1 || !part[0].is_identifier()) return result;
  const auto name = part[0].text();
  const std::size_t stop = site > look_back_tokens ? site - look_back_tokens : 0;
  for (std::size_t j = site; j-- > stop;) {
    if (!host[j].is_identifier(name) || j + 2 >= host.size() || j == 0) continue;
    const bool declared = host[j - 1].is_identifier() || host[j - 1].is_punct(";") || host[j - 1].is_punct("{") ||
                          host[j - 1].is_punct("}");
    if (host[j - 1].is_identifier("dim3") && (host[j + 1].is_punct("(") || host[j + 1].is_punct("{"))) {
      const auto close = close_of(host, j + 1, 256);
      if (close >= host.size()) return result;
      result.parts = split_commas(host, j + 2, close);
      result.text = spaced(host.subspan(j - 1, close - j + 2));
      return result;
    }
    if (host[j + 1].is_punct("=") && declared) {
      std::size_t end = j + 2;
      while (end < host.size() && end < j + 256 && !host[end].is_punct(";")) ++end;
      if (end >= host.size() || !host[end].is_punct(";")) return result;
      Tokens value = host.subspan(j + 2, end - j - 2);
      result.text = spaced(host.subspan(j, end - j));
      if (value.size() >= 3 && value[0].is_identifier("dim3") && (value[1].is_punct("(") || value[1].is_punct("{"))) {
        const auto close = close_of(value, 1, value.size());
        if (close < value.size()) result.parts = split_commas(value, 2, close);
      } else if (!value.empty() && value[0].is_punct("{")) {
        const auto close = close_of(value, 0, value.size());
        if (close < value.size()) result.parts = split_commas(value, 1, close);
      } else {
        result.parts = {value};
      }
      return result;
    }
  }
  return result;
}

std::optional<std::string> template_literal(Tokens part, const HostNames& names) {
  static constexpr std::array<std::string_view, 9> types{"float",         "double", "int",  "half", "__half",
                                                         "__nv_bfloat16", "bool",   "true", "false"};
  if (part.size() != 1) return std::nullopt;
  const auto word = part[0].text();
  if (part[0].kind == kernels::TokenKind::number) return integer_literal(word);
  if (std::ranges::find(types, word) != types.end()) return std::string(word);
  if (auto constant = names.constants.find(word); constant != names.constants.end()) return constant->second;
  return std::nullopt;
}

HostLaunch read_launch(const HostSource& host, const kernels::LaunchSite& site,
                       std::span<const kernels::Parameter> parameters, std::span<const std::string> size_names) {
  HostLaunch launch;
  launch.where = fmt::format("{}:{}", host.name, site.line);
  launch.template_text = site.template_arguments;
  const auto tokens = kernels::lex(host.text);
  HostNames names = constants_of(tokens);
  const auto at = std::ranges::find_if(
      tokens, [&](const Token& token) { return token.text().data() == host.text.data() + site.offset; });
  const std::size_t site_index = static_cast<std::size_t>(at - tokens.begin());
  // The call's arguments: a host variable passed for a size parameter stands for that size.
  for (std::size_t i = site_index; i + 1 < tokens.size() && i < site_index + look_ahead_tokens; ++i) {
    const bool closes = tokens[i].is_punct(">>>") || (tokens[i].is_punct(">>") && tokens[i + 1].is_punct(">")) ||
                        (tokens[i].is_punct(">") && tokens[i + 1].is_punct(">>"));
    if (!closes) continue;
    const std::size_t open = tokens[i].is_punct(">>>") ? i + 1 : i + 2;
    if (open >= tokens.size() || !tokens[open].is_punct("(")) break;
    const auto close = close_of(tokens, open, look_ahead_tokens);
    if (close >= tokens.size()) break;
    const auto arguments = split_commas(tokens, open + 1, close);
    for (std::size_t k = 0; k < arguments.size() && k < parameters.size(); ++k)
      if (arguments[k].size() == 1 && arguments[k][0].is_identifier() &&
          std::ranges::find(size_names, parameters[k].name) != size_names.end())
        names.sizes.emplace(std::string(arguments[k][0].text()), parameters[k].name);
    break;
  }
  // Template arguments.
  const auto template_tokens = kernels::lex(site.template_arguments);
  if (template_tokens.size() >= 2) {
    bool literal = true;
    for (const auto& part : split_commas(template_tokens, 1, template_tokens.size() - 1)) {
      auto value = template_literal(part, names);
      if (!value)
        literal = false;
      else
        launch.template_arguments.push_back(*value);
    }
    if (!literal) launch.template_arguments.clear();
  }
  // The configuration: grid, block, shared memory (the stream is not the spec's business).
  const auto configuration = kernels::lex(site.configuration);
  const auto parts = split_commas(configuration, 0, configuration.size());
  const auto read = [&](std::size_t index, std::vector<std::optional<std::string>>& into, std::string& text) {
    if (index >= parts.size()) {
      into.emplace_back();
      return;
    }
    const auto dims = dimensions_of(parts[index], tokens, site_index);
    text = dims.text;
    for (const auto& dim : dims.parts) into.push_back(translate(dim, names, size_names));
    if (into.empty() || into.size() > 3) into.assign(1, std::nullopt);
  };
  read(0, launch.grid, launch.grid_text);
  read(1, launch.block, launch.block_text);
  if (parts.size() >= 3) {
    std::vector<std::optional<std::string>> shared;
    read(2, shared, launch.shared_text);
    if (shared.size() == 1) launch.shared = shared.front();
  }
  return launch;
}

}  // namespace

std::optional<HostLaunch> find_host_launch(std::span<const HostSource> hosts, std::string_view kernel,
                                           std::span<const kernels::Parameter> parameters,
                                           std::span<const std::string> size_names) {
  for (const auto& host : hosts)
    for (const auto& site : kernels::launch_sites(host.text)) {
      const auto separator = site.kernel.rfind("::");
      const std::string_view name = separator == std::string::npos
                                        ? std::string_view(site.kernel)
                                        : std::string_view(site.kernel).substr(separator + 2);
      if (name == kernel) return read_launch(host, site, parameters, size_names);
    }
  return std::nullopt;
}

}  // namespace kforecast::bench
