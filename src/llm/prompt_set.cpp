// SPDX-License-Identifier: Apache-2.0
#include "llm/prompt_set.hpp"

#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "base/json_document.hpp"
#include "llm/embedded_prompts.hpp"
#include "llm/kernel_prompt.hpp"
#include "llm/prompt_template.hpp"

namespace kforecast::llm {
namespace {

std::string embedded(std::string_view name) {
  auto text = embedded_prompt(name);
  if (!text) throw Fatal(ExitCode::could_not_run, fmt::format("prompts/{} was not compiled into the binary", name));
  return std::string(*text);
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace

const PromptSet& builtin_prompts() {
  static const PromptSet set{embedded("system.txt"), embedded("user.txt"), embedded("repair.txt"),
                             embedded("answer_schema.json"), trimmed(embedded("version.txt"))};
  return set;
}

Result<PromptSet> load_prompts(const std::filesystem::path& directory) {
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec))
    return usage_error(
        fmt::format("forecast.prompts: '{}' is not a directory (it should hold any of system.txt, "
                    "user.txt, repair.txt, answer_schema.json)",
                    directory.string()));
  std::map<std::string, std::string, std::less<>> files;
  for (const char* name : {"system.txt", "user.txt", "repair.txt", "answer_schema.json"}) {
    const auto path = directory / name;
    if (!std::filesystem::exists(path, ec)) continue;
    std::ifstream in(path, std::ios::binary);
    if (!in) return usage_error(fmt::format("forecast.prompts: cannot read '{}'", path.string()));
    files.emplace(name, std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  }
  return prompts_with_overrides(files, directory.string());
}

Result<PromptSet> prompts_with_overrides(const std::map<std::string, std::string, std::less<>>& files,
                                         std::string_view where) {
  PromptSet set = builtin_prompts();
  ContentHasher hasher;
  bool overridden = false;
  for (auto [name, field] :
       {std::pair{"system.txt", &PromptSet::system}, std::pair{"user.txt", &PromptSet::user},
        std::pair{"repair.txt", &PromptSet::repair}, std::pair{"answer_schema.json", &PromptSet::answer_schema}}) {
    auto file = files.find(name);
    if (file == files.end()) continue;
    set.*field = file->second;
    hasher.add(name);
    hasher.add(file->second);
    overridden = true;
  }
  if (!overridden)
    return usage_error(
        fmt::format("forecast.prompts: '{}' holds none of system.txt, user.txt, repair.txt, "
                    "answer_schema.json",
                    where));
  set.version += "+override-" + hasher.hex().substr(0, 12);

  // Check every template against the names the code fills, so a typo fails before any request.
  TemplateValues user_values;
  for (auto name : user_placeholders()) user_values.emplace(name, "");
  const std::string base(where);
  for (const auto& [name, text, values] :
       {std::tuple{"system.txt", &set.system, TemplateValues{}}, std::tuple{"user.txt", &set.user, user_values},
        std::tuple{"repair.txt", &set.repair, TemplateValues{{"validation_error", ""}}}}) {
    auto rendered = render_template(*text, values, base + "/" + name);
    if (!rendered) return std::unexpected(rendered.error());
  }
  if (const auto schema = json_document::parse(set.answer_schema); !schema || !schema->is_object())
    return usage_error(fmt::format("forecast.prompts: '{}/answer_schema.json' is not a JSON object", base));
  return set;
}

}  // namespace kforecast::llm
