// SPDX-License-Identifier: Apache-2.0
#include "support/gfm_render.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

namespace kforecast::testing {

std::string render_gfm(std::string_view markdown) {
  cmark_gfm_core_extensions_ensure_registered();
  const int options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES;
  std::unique_ptr<cmark_parser, decltype(&cmark_parser_free)> parser(cmark_parser_new(options), cmark_parser_free);
  for (const char* name : {"table", "strikethrough", "autolink", "tagfilter"}) {
    cmark_syntax_extension* extension = cmark_find_syntax_extension(name);
    if (extension == nullptr) throw std::runtime_error(std::string("cmark-gfm has no extension ") + name);
    cmark_parser_attach_syntax_extension(parser.get(), extension);
  }
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(cmark_parser_finish(parser.get()), cmark_node_free);
  char* html = cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
  std::string result(html);
  std::free(html);
  return result;
}

std::string html_elements(std::string_view html) {
  std::map<std::string, std::size_t> elements;
  for (std::size_t at = html.find('<'); at != std::string_view::npos; at = html.find('<', at + 1)) {
    std::size_t end = at + 1;
    while (end < html.size() && (std::isalnum(static_cast<unsigned char>(html[end])) || html[end] == '-')) ++end;
    if (end > at + 1) {
      std::string name(html.substr(at + 1, end - at - 1));
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      ++elements[name];
    }
  }
  std::string text;
  for (const auto& [name, count] : elements) text += (text.empty() ? "" : ", ") + name + " " + std::to_string(count);
  return text;
}

std::string html_text(std::string_view html) {
  std::string text;
  bool in_tag = false;
  for (char c : html) {
    if (c == '<') in_tag = true;
    if (!in_tag) text += c;
    if (c == '>') in_tag = false;
  }
  static constexpr std::pair<std::string_view, std::string_view> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}, {"&#39;", "'"}};
  std::string decoded;
  for (std::size_t i = 0; i < text.size();) {
    const std::string_view rest = std::string_view(text).substr(i);
    const auto* entity = std::find_if(std::begin(entities), std::end(entities),
                                      [&](const auto& pair) { return rest.starts_with(pair.first); });
    if (entity != std::end(entities)) {
      decoded += entity->second;
      i += entity->first.size();
    } else {
      decoded += text[i++];
    }
  }
  return decoded;
}

std::string visible_text(std::string_view html) {
  std::string text = html_text(html);
  for (auto at = text.find("\u200b"); at != std::string::npos; at = text.find("\u200b", at)) text.erase(at, 3);
  return text;
}

}  // namespace kforecast::testing
