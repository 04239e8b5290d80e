// SPDX-License-Identifier: Apache-2.0
#pragma once

// The prompt set: system and user templates, the repair message and the answer's JSON schema,
// with a version string that goes into every forecast and cache key. Built in from prompts/;
// a repository may override any file by placing it in a directory named by `forecast.prompts`.

#include <filesystem>
#include <map>
#include <string>

#include "base/error.hpp"

namespace kforecast::llm {

struct PromptSet {
  std::string system;         // system.txt
  std::string user;           // user.txt, with the placeholders of user_placeholders()
  std::string repair;         // repair.txt, with {{validation_error}}
  std::string answer_schema;  // answer_schema.json
  std::string version;        // version.txt, plus "+override-HASH" when any file is overridden
};

// The prompts compiled into the binary.
const PromptSet& builtin_prompts();

// The built-in set with each file that `directory` holds in its place. Every template is checked
// now (a placeholder the code does not fill is an error naming file and line), and the schema
// must be a JSON object.
Result<PromptSet> load_prompts(const std::filesystem::path& directory);

// The same from file texts by name ("system.txt" -> text), e.g. read from a git revision;
// `where` names their place in messages.
Result<PromptSet> prompts_with_overrides(const std::map<std::string, std::string, std::less<>>& files,
                                         std::string_view where);

}  // namespace kforecast::llm
