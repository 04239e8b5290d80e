// SPDX-License-Identifier: Apache-2.0
#include "report/comment_fit.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kforecast::report {
namespace {

std::size_t count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string_view::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

std::string fit_markdown(std::string_view markdown, std::size_t limit,
                         const std::function<std::string(const LeftOut&)>& note, bool keep_note) {
  if (markdown.size() <= limit) return std::string(markdown);
  const std::size_t lines = count(markdown, "\n") + (markdown.ends_with('\n') ? 0 : 1);
  // Room for the longest note (every line left out) and for closing every <details> the cut may
  // leave open.
  const std::size_t reserve = note({lines, lines}).size() + 16 * count(markdown, "<details>") + 1;
  if (reserve > limit && !keep_note) return {};
  const std::size_t room = limit > reserve ? limit - reserve : 0;
  std::size_t cut = markdown.rfind('\n', room);
  cut = cut == std::string_view::npos ? 0 : cut + 1;
  std::string fitted(markdown.substr(0, cut));
  const std::size_t opened = count(fitted, "<details>"), closed = count(fitted, "</details>");
  for (std::size_t open = opened > closed ? opened - closed : 0; open > 0; --open) fitted += "\n</details>\n";
  // The note starts with a blank line, so a table the cut ended inside ends before it.
  const std::string_view rest = markdown.substr(cut);
  fitted += note({count(rest, "\n") + (rest.ends_with('\n') || rest.empty() ? 0 : 1), lines});
  return fitted;
}

std::string fit_for_comment(std::string_view markdown, std::size_t limit, std::string_view full_report) {
  const auto note = [&](const LeftOut&) {
    return fmt::format("\n\n**The report is longer than a comment holds and was cut here.** The full report: {}\n",
                       full_report);
  };
  return fit_markdown(markdown, limit, note, true);
}

}  // namespace kforecast::report
