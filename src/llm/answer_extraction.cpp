// SPDX-License-Identifier: Apache-2.0
#include "llm/answer_extraction.hpp"

#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

namespace kforecast::llm {
namespace {

// Removes <think>...</think> blocks. An unclosed <think> whose text holds no closing tag is
// left alone: some servers put the whole answer inside it.
std::string without_thinking(std::string_view text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find("<think>", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find("</think>", open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(at, open - at));
    at = close + 8;
  }
  out.append(text.substr(std::min(at, text.size())));
  return out;
}

bool parses_as_object(std::string_view text) {
  const auto document = json_document::parse(text);
  return document && document->is_object();
}

std::string parts_text(const Json& content) {
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) return "";
  std::string joined;
  for (const Json& part : content) {
    if (part.is_string()) {
      joined += part.get_ref<const std::string&>();
      continue;
    }
    if (const std::string* text = json_document::string_at(part, "text")) joined += *text;
  }
  return joined;
}

}  // namespace

std::optional<std::string> find_json_object(std::string_view raw) {
  const std::string text = without_thinking(raw);
  // Each '{' starts a candidate; the scan tracks strings so braces inside them do not count.
  // Bounded: at most 64 candidates, so hostile text cannot make this quadratic without limit.
  std::size_t tried = 0;
  for (std::size_t start = text.find('{'); start != std::string::npos && tried < 64;
       start = text.find('{', start + 1), ++tried) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = start; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
        continue;
      }
      if (c == '"')
        in_string = true;
      else if (c == '{')
        ++depth;
      else if (c == '}' && --depth == 0) {
        const std::string_view candidate = std::string_view(text).substr(start, i - start + 1);
        if (parses_as_object(candidate)) return std::string(candidate);
        break;
      }
    }
  }
  return std::nullopt;
}

Result<CompletionAnswer> extract_answer(std::string_view body, std::string_view tool_name) {
  const auto root = json_document::parse(body);
  if (!root) return fail(ExitCode::could_not_run, "the response body is not JSON");
  const Json* choices = json_document::array_at(*root, "choices");
  if (choices == nullptr) return fail(ExitCode::could_not_run, "the response has no 'choices' array");
  if (choices->empty()) return fail(ExitCode::could_not_run, "the response's 'choices' array is empty");
  const Json& first = choices->front();

  CompletionAnswer answer;
  if (const std::string* reason = json_document::string_at(first, "finish_reason")) answer.finish_reason = *reason;
  const Json* message = json_document::object_at(first, "message");
  if (message == nullptr) return answer;

  // Candidates in the order answer_extraction.hpp gives; the first holding a JSON object wins.
  std::vector<std::pair<std::string, std::string>> candidates;
  if (const Json* calls = json_document::array_at(*message, "tool_calls")) {
    const std::size_t count = calls->size();
    for (const Json& call : *calls) {
      const Json* function = json_document::find(call, "function");
      if (function == nullptr) continue;
      // Our function, or the only call there is (some servers rename or drop the name).
      const std::string* name = json_document::string_at(*function, "name");
      if (name != nullptr && *name != tool_name && count > 1) continue;
      const Json* arguments = json_document::find(*function, "arguments");
      if (arguments == nullptr) continue;
      if (arguments->is_string())
        candidates.emplace_back("tool call", arguments->get<std::string>());
      else if (arguments->is_object())
        candidates.emplace_back("tool call", json_document::compact(*arguments));
    }
  }
  if (const Json* content = json_document::find(*message, "content"))
    candidates.emplace_back("content", parts_text(*content));
  for (const char* field : {"reasoning_content", "reasoning"}) {
    if (const Json* reasoning = json_document::find(*message, field))
      candidates.emplace_back("reasoning", parts_text(*reasoning));
  }
  for (auto& [where, candidate] : candidates) {
    if (candidate.empty()) continue;
    if (answer.raw_text.empty()) answer.raw_text = candidate;
    if (auto json = find_json_object(candidate)) {
      answer.json = std::move(json);
      answer.where = where;
      answer.raw_text = candidate;
      return answer;
    }
  }
  return answer;
}

}  // namespace kforecast::llm
