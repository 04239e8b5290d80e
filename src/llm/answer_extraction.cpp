// SPDX-License-Identifier: Apache-2.0
#include "llm/answer_extraction.hpp"

#include <simdjson.h>

#include <vector>

#include <fmt/format.h>

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

bool parses_as_object(simdjson::dom::parser& parser, std::string_view text) {
  simdjson::dom::element element;
  return parser.parse(text.data(), text.size()).get(element) == simdjson::SUCCESS && element.is_object();
}

std::string parts_text(simdjson::dom::element content) {
  std::string_view text;
  if (content.get_string().get(text) == simdjson::SUCCESS) return std::string(text);
  simdjson::dom::array parts;
  if (content.get_array().get(parts) != simdjson::SUCCESS) return "";
  std::string joined;
  for (simdjson::dom::element part : parts) {
    if (part.get_string().get(text) == simdjson::SUCCESS) {
      joined += text;
      continue;
    }
    simdjson::dom::object object;
    if (part.get_object().get(object) != simdjson::SUCCESS) continue;
    if (object["text"].get_string().get(text) == simdjson::SUCCESS) joined += text;
  }
  return joined;
}

}  // namespace

std::optional<std::string> find_json_object(std::string_view raw) {
  const std::string text = without_thinking(raw);
  simdjson::dom::parser parser;
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
        if (parses_as_object(parser, candidate)) return std::string(candidate);
        break;
      }
    }
  }
  return std::nullopt;
}

Result<CompletionAnswer> extract_answer(std::string_view body, std::string_view tool_name) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(body.data(), body.size()).get(root) != simdjson::SUCCESS)
    return fail(ExitCode::could_not_run, "the response body is not JSON");
  simdjson::dom::array choices;
  if (root["choices"].get_array().get(choices) != simdjson::SUCCESS)
    return fail(ExitCode::could_not_run, "the response has no 'choices' array");
  simdjson::dom::element first;
  if (choices.at(0).get(first) != simdjson::SUCCESS)
    return fail(ExitCode::could_not_run, "the response's 'choices' array is empty");

  CompletionAnswer answer;
  std::string_view text;
  if (first["finish_reason"].get_string().get(text) == simdjson::SUCCESS) answer.finish_reason = text;
  simdjson::dom::object message;
  if (first["message"].get_object().get(message) != simdjson::SUCCESS) return answer;

  // Candidates in the order ENDPOINTS.md gives; the first holding a JSON object wins.
  std::vector<std::pair<std::string, std::string>> candidates;
  simdjson::dom::array calls;
  if (message["tool_calls"].get_array().get(calls) == simdjson::SUCCESS) {
    const std::size_t count = calls.size();
    for (simdjson::dom::element call : calls) {
      simdjson::dom::element function;
      if (call["function"].get(function) != simdjson::SUCCESS) continue;
      std::string_view name;
      // Our function, or the only call there is (some servers rename or drop the name).
      if (function["name"].get_string().get(name) == simdjson::SUCCESS && name != tool_name && count > 1) continue;
      simdjson::dom::element arguments;
      if (function["arguments"].get(arguments) != simdjson::SUCCESS) continue;
      if (arguments.get_string().get(text) == simdjson::SUCCESS)
        candidates.emplace_back("tool call", std::string(text));
      else if (arguments.is_object())
        candidates.emplace_back("tool call", simdjson::minify(arguments));
    }
  }
  simdjson::dom::element content;
  if (message["content"].get(content) == simdjson::SUCCESS) candidates.emplace_back("content", parts_text(content));
  for (const char* field : {"reasoning_content", "reasoning"}) {
    simdjson::dom::element reasoning;
    if (message[field].get(reasoning) == simdjson::SUCCESS) candidates.emplace_back("reasoning", parts_text(reasoning));
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
