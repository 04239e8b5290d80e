// SPDX-License-Identifier: Apache-2.0
#include "llm/source_text.hpp"

#include <algorithm>
#include <array>

namespace kforecast::llm {

std::string strip_comments(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  std::size_t i = 0;
  while (i < source.size()) {
    const char c = source[i];
    if (c == '"' || c == '\'') {  // a literal: copy through its closing quote
      const std::size_t start = i++;
      while (i < source.size() && source[i] != c && source[i] != '\n') i += source[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, source.size());
      out.append(source.substr(start, i - start));
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      while (i < source.size() && source[i] != '\n') {
        // A backslash-newline continues a line comment.
        if (source[i] == '\\' && i + 1 < source.size() && source[i + 1] == '\n') out += '\n', ++i;
        ++i;
      }
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
      const std::size_t end = source.find("*/", i + 2);
      const std::size_t stop = end == std::string_view::npos ? source.size() : end + 2;
      out += ' ';
      out.append(static_cast<std::size_t>(std::count(source.begin() + static_cast<std::ptrdiff_t>(i),
                                                     source.begin() + static_cast<std::ptrdiff_t>(stop), '\n')),
                 '\n');
      i = stop;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::vector<std::string> steering_markers(std::string_view text) {
  // Lower-case patterns, matched against the lower-cased text.
  static constexpr std::array<std::string_view, 24> patterns{"ignore previous instructions",
                                                             "ignore all previous",
                                                             "ignore the above",
                                                             "ignore your instructions",
                                                             "disregard previous",
                                                             "disregard all previous",
                                                             "disregard the above",
                                                             "forget your instructions",
                                                             "new instructions:",
                                                             "you are now",
                                                             "as an ai language model",
                                                             "system prompt",
                                                             "<|im_start|>",
                                                             "<|im_end|>",
                                                             "<|system|>",
                                                             "<|assistant|>",
                                                             "<|start_header_id|>",
                                                             "[inst]",
                                                             "<<sys>>",
                                                             "### system:",
                                                             "\"tool_calls\"",
                                                             "<tool_call>",
                                                             "\"function_call\"",
                                                             "predicted_bin"};
  std::string lowered(text);
  for (char& c : lowered)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  std::vector<std::string> found;
  for (std::string_view pattern : patterns)
    if (lowered.find(pattern) != std::string::npos) found.emplace_back(pattern);
  return found;
}

}  // namespace kforecast::llm
