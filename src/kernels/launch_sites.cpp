// SPDX-License-Identifier: Apache-2.0
#include "kernels/launch_sites.hpp"

#include <map>
#include <optional>
#include <tuple>

#include "kernels/canonical_tokens.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

// Far more than any real launch's template arguments or configuration.
constexpr std::size_t most_tokens_per_part = 256;

// The index of the '<' that opens the template arguments closed at `close`, or nothing.
std::optional<std::size_t> template_open(const std::vector<Token>& tokens, std::size_t close) {
  std::size_t angles = 0;
  int brackets = 0;
  const std::size_t floor = close > most_tokens_per_part ? close - most_tokens_per_part : 0;
  for (std::size_t i = close + 1; i-- > floor;) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::punctuation) continue;
    const std::string_view p = t.text();
    if (p == ")" || p == "]") ++brackets;
    if ((p == "(" || p == "[") && --brackets < 0) return std::nullopt;
    if (brackets > 0) continue;
    if (p == ">" || p == ">>") angles += p.size();
    if (p == "<" && --angles == 0) return i;
    if (p == ";" || p == "{" || p == "}") return std::nullopt;
  }
  return std::nullopt;
}

// The end of the configuration that starts at `first`: the index of the ">>" of ">> >" or of
// ">>>", or nothing.
std::optional<std::size_t> configuration_end(const std::vector<Token>& tokens, std::size_t first) {
  int depth = 0;
  for (std::size_t i = first; i < tokens.size() && i < first + most_tokens_per_part; ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::punctuation) continue;
    const std::string_view p = t.text();
    if (p == "(" || p == "[" || p == "{") ++depth;
    if ((p == ")" || p == "]" || p == "}") && --depth < 0) return std::nullopt;
    if (depth == 0 && (p == ">>>" || (p == ">>" && i + 1 < tokens.size() && tokens[i + 1].is_punct(">")))) return i;
    if (p == ";") return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::vector<LaunchSite> launch_sites(std::string_view text) {
  const std::vector<Token> tokens = lex(text);
  std::vector<LaunchSite> sites;
  for (std::size_t i = 1; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].is_punct("<<") || !tokens[i + 1].is_punct("<")) continue;
    const auto end = configuration_end(tokens, i + 2);
    if (!end) continue;
    std::size_t name_last = i - 1;
    std::string template_arguments, compared_template_arguments;
    if (tokens[name_last].is_punct(">") || tokens[name_last].is_punct(">>")) {
      const auto open = template_open(tokens, name_last);
      if (!open || *open == 0) continue;
      const auto arguments = std::span(tokens).subspan(*open, name_last + 1 - *open);
      template_arguments = spaced_text(arguments);
      compared_template_arguments = canonical_text(arguments);
      name_last = *open - 1;
    }
    if (!tokens[name_last].is_identifier() || is_keyword(tokens[name_last].text())) continue;
    std::size_t name_first = name_last;
    while (name_first >= 2 && tokens[name_first - 1].is_punct("::") && tokens[name_first - 2].is_identifier())
      name_first -= 2;
    LaunchSite site;
    for (std::size_t k = name_first; k <= name_last; ++k) site.kernel += tokens[k].text();
    site.template_arguments = std::move(template_arguments);
    site.compared_template_arguments = std::move(compared_template_arguments);
    site.configuration = canonical_text(std::span(tokens).subspan(i + 2, *end - (i + 2)));
    site.line = tokens[name_last].line;
    site.offset = static_cast<std::size_t>(tokens[name_first].text().data() - text.data());
    sites.push_back(std::move(site));
    i = *end;
  }
  return sites;
}

std::vector<LaunchSite> changed_launches(std::string_view base_text, std::string_view head_text) {
  using Launch = std::tuple<std::string, std::string, std::string>;  // kernel, arguments, configuration
  std::map<Launch, std::size_t> before;
  std::map<std::string, bool, std::less<>> launched_before;
  for (LaunchSite& site : launch_sites(base_text)) {
    launched_before[site.kernel] = true;
    ++before[{std::move(site.kernel), std::move(site.compared_template_arguments), std::move(site.configuration)}];
  }
  std::vector<LaunchSite> changed;
  for (LaunchSite& site : launch_sites(head_text)) {
    if (!launched_before.contains(site.kernel)) continue;
    const auto found = before.find({site.kernel, site.compared_template_arguments, site.configuration});
    if (found != before.end() && found->second > 0) {
      --found->second;
      continue;
    }
    changed.push_back(std::move(site));
  }
  return changed;
}

}  // namespace kforecast::kernels
