// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/generated_units.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <map>
#include <set>

#include "kernels/launch_sites.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernel_changes {

using kernels::is_keyword;
using kernels::LaunchSite;
using kernels::lex;
using kernels::matching_angle;
using kernels::matching_close;
using kernels::RevisionSources;
using kernels::Token;

namespace {

// Where a generator's note stands: the first lines, before any code of size.
constexpr std::size_t note_window = 2048;
// Host functions followed from one generated file: far above flash-attention's chains of four.
constexpr std::size_t most_functions = 256;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A generator's name in its note: the word that ends in a script's extension.
std::string generator_named(std::string_view line) {
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    const bool word_char = i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' ||
                                               line[i] == '.' || line[i] == '/' || line[i] == '-');
    if (word_char) continue;
    const std::string_view word = line.substr(start, i - start);
    for (const std::string_view extension : {".py", ".sh", ".pl", ".rb", ".cmake", ".jinja", ".j2"})
      if (word.size() > extension.size() && word.ends_with(extension)) return std::string(word);
    start = i + 1;
  }
  return {};
}

struct HostFunction {
  std::string_view name;
  std::size_t body_begin = 0;  // byte offsets of its braces
  std::size_t body_end = 0;
  std::vector<std::string_view> calls;  // names called: f(...) and f<...>(...)
};

// The functions a file defines at file or namespace scope: each outermost body after a
// parameter list, named by what stands before the list (its template arguments, for an
// explicit specialisation, left out).
std::vector<HostFunction> host_functions(std::string_view text) {
  const std::vector<Token> tokens = lex(text);
  const auto offset = [&](const Token& t) { return static_cast<std::size_t>(t.text().data() - text.data()); };
  std::vector<HostFunction> functions;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    if (!tokens[i].is_punct("{")) continue;
    std::size_t close_paren = i - 1;
    while (close_paren > 0 &&
           (tokens[close_paren].is_identifier("const") || tokens[close_paren].is_identifier("noexcept")))
      --close_paren;
    if (!tokens[close_paren].is_punct(")")) continue;
    int depth = 0;
    std::size_t open_paren = close_paren;
    for (; open_paren > 0; --open_paren) {
      if (tokens[open_paren].is_punct(")")) ++depth;
      if (tokens[open_paren].is_punct("(") && --depth == 0) break;
    }
    if (open_paren == 0) continue;
    std::size_t name_at = open_paren - 1;
    if (tokens[name_at].is_punct(">") || tokens[name_at].is_punct(">>")) {
      std::size_t angles = 0;
      for (; name_at > 0; --name_at) {
        if (tokens[name_at].is_punct(">") || tokens[name_at].is_punct(">>")) angles += tokens[name_at].text().size();
        if (tokens[name_at].is_punct("<") && --angles == 0) break;
      }
      if (name_at == 0) continue;
      --name_at;
    }
    if (!tokens[name_at].is_identifier() || is_keyword(tokens[name_at].text())) continue;
    const std::size_t close = matching_close(tokens, i);
    if (close >= tokens.size()) continue;
    HostFunction function{tokens[name_at].text(), offset(tokens[i]), offset(tokens[close]), {}};
    for (std::size_t k = i + 1; k + 1 < close; ++k) {
      if (!tokens[k].is_identifier() || is_keyword(tokens[k].text())) continue;
      std::size_t after = k + 1;
      if (tokens[after].is_punct("<")) after = matching_angle(tokens, after) + 1;
      if (after < close && tokens[after].is_punct("(")) function.calls.push_back(tokens[k].text());
    }
    functions.push_back(std::move(function));
    i = close;
  }
  return functions;
}

// The functions a file instantiates explicitly: `template void run<float, 160>(Params&);`
// gives run.
std::vector<std::string_view> explicit_instantiations(std::string_view text) {
  const std::vector<Token> tokens = lex(text);
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].is_identifier("template") || tokens[i + 1].is_punct("<")) continue;
    for (std::size_t k = i + 1; k + 1 < tokens.size() && !tokens[k].is_punct(";") && !tokens[k].is_punct("{"); ++k) {
      if (!tokens[k].is_identifier() || is_keyword(tokens[k].text())) continue;
      std::size_t after = k + 1;
      if (tokens[after].is_punct("<")) after = matching_angle(tokens, after) + 1;
      if (after < tokens.size() && tokens[after].is_punct("(")) {
        names.push_back(tokens[k].text());
        break;
      }
    }
  }
  return names;
}

}  // namespace

std::optional<GeneratedFile> generated_file(std::string_view text) {
  const std::string_view window = text.substr(0, note_window);
  // Every marker has "enerat" or "edit" in it, in either case: most files have neither.
  const bool may_say =
      std::ranges::any_of(std::to_array<std::string_view>({"enerat", "ENERAT", "edit", "EDIT"}),
                          [&](std::string_view part) { return window.find(part) != std::string_view::npos; });
  if (!may_say) return std::nullopt;
  const std::string head = lower(window);
  for (const std::string_view marker : {"auto-generated", "autogenerated", "automatically generated", "generated by",
                                        "do not edit", "this file is generated"}) {
    const std::size_t at = head.find(marker);
    if (at == std::string::npos) continue;
    const std::size_t begin = head.rfind('\n', at) == std::string::npos ? 0 : head.rfind('\n', at) + 1;
    const std::size_t end = std::min(head.find('\n', at), head.size());
    std::string_view line = text.substr(begin, end - begin);
    // A comment's line, its markers left out.
    while (!line.empty() && (line.front() == '/' || line.front() == '*' || line.front() == '#' || line.front() == ' '))
      line.remove_prefix(1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '/' || line.back() == '*'))
      line.remove_suffix(1);
    return GeneratedFile{std::string(line), generator_named(line)};
  }
  return std::nullopt;
}

std::vector<std::string> kernels_instantiated(const RevisionSources& sources, const std::string& path) {
  struct FileFunctions {
    std::vector<HostFunction> functions;
    const std::vector<LaunchSite>* launches = nullptr;
  };
  std::map<std::string, FileFunctions, std::less<>> by_file;
  const auto functions_of = [&](const std::string& file) -> const FileFunctions& {
    auto [slot, fresh] = by_file.try_emplace(file);
    if (fresh) {
      const std::string_view text = sources.files().at(file);
      slot->second.functions = host_functions(text);
      slot->second.launches = &sources.launches(file);
    }
    return slot->second;
  };
  const std::vector<std::string> closure = sources.closure(path);
  std::vector<std::string> kernels;
  std::deque<std::string_view> pending;
  std::set<std::string_view> followed;
  const auto take = [&](const std::string& file, const HostFunction& function) {
    for (const LaunchSite& launch : *functions_of(file).launches)
      if (launch.offset > function.body_begin && launch.offset < function.body_end &&
          std::ranges::find(kernels, launch.kernel) == kernels.end())
        kernels.push_back(launch.kernel);
    for (const std::string_view call : function.calls)
      if (followed.size() < most_functions && followed.insert(call).second) pending.push_back(call);
  };
  for (const HostFunction& function : functions_of(path).functions) take(path, function);
  for (const std::string_view name : explicit_instantiations(sources.files().at(path)))
    if (followed.insert(name).second) pending.push_back(name);
  while (!pending.empty()) {
    const std::string_view name = pending.front();
    pending.pop_front();
    for (const std::string& file : closure)
      for (const HostFunction& function : functions_of(file).functions)
        if (function.name == name) take(file, function);
  }
  return kernels;
}

}  // namespace kforecast::kernel_changes
