// SPDX-License-Identifier: Apache-2.0
#include "llm/prompt_template.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace kforecast::llm {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::size_t line_of(std::string_view text, std::size_t offset) {
  return 1 +
         static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace

Result<std::string> render_template(std::string_view text, const TemplateValues& values,
                                    std::string_view template_name) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find("{{", at);
    if (open == std::string_view::npos) {
      out.append(text.substr(at));
      break;
    }
    out.append(text.substr(at, open - at));
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos)
      return usage_error(fmt::format("{}:{}: '{{{{' without a closing '}}}}'", template_name, line_of(text, open)));
    std::string_view name = text.substr(open + 2, close - open - 2);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty() || !std::ranges::all_of(name, is_name_char))
      return usage_error(fmt::format("{}:{}: '{{{{{}}}}}' is not a placeholder; names are letters, digits and '_'",
                                     template_name, line_of(text, open), text.substr(open + 2, close - open - 2)));
    auto value = values.find(name);
    if (value == values.end()) {
      std::string known;
      for (const auto& [key, unused] : values) known += (known.empty() ? "" : ", ") + key;
      return usage_error(fmt::format("{}:{}: unknown placeholder '{{{{{}}}}}'; the names this template can use are: {}",
                                     template_name, line_of(text, open), name, known));
    }
    out.append(value->second);
    at = close + 2;
  }
  return out;
}

}  // namespace kforecast::llm
