// SPDX-License-Identifier: Apache-2.0
#include "llm/prompt_set.hpp"

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "llm/answer_validation.hpp"

namespace fs = std::filesystem;
using namespace kforecast::llm;

namespace {

fs::path scratch(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("kf_prompt_set_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("llm: the built-in prompts are compiled in and consistent") {
  const PromptSet& set = builtin_prompts();
  CHECK_THAT(set.system, Catch::Contains("S = t_reference / t_candidate") && Catch::Contains("untrusted data"));
  CHECK_THAT(set.user, Catch::Contains("{{reference_source}}") && Catch::Contains("{{candidate_source}}"));
  CHECK_THAT(set.version, Catch::StartsWith("kforecast-prompts-"));
  CHECK(set.version.find('\n') == std::string::npos);
  // The schema names exactly the fields the validator reads, rationale first.
  // ordered_json keeps the document's key order, which is what is checked.
  const auto schema = nlohmann::ordered_json::parse(set.answer_schema);
  REQUIRE(schema.is_object());
  std::vector<std::string> names;
  for (const auto& field : schema.at("properties").items()) names.push_back(field.key());
  REQUIRE(names.size() == 10);
  CHECK(names.front() == "rationale");
  for (std::size_t i = 0; i < 8; ++i) CHECK(names[i + 1] == probability_fields[i]);
  CHECK(names.back() == "predicted_bin");
  CHECK_THAT(set.system, Catch::Contains(std::string(probability_fields.front())) &&
                             Catch::Contains(std::string(probability_fields.back())));
}

TEST_CASE("llm: a repository overrides prompt files, and the version says so") {
  const auto dir = scratch("override");
  std::ofstream(dir / "system.txt") << "You forecast kernels. Be brief.";
  auto set = load_prompts(dir);
  REQUIRE(set);
  CHECK(set->system == "You forecast kernels. Be brief.");
  CHECK(set->user == builtin_prompts().user);
  CHECK_THAT(set->version, Catch::StartsWith(builtin_prompts().version + "+override-"));

  std::ofstream(dir / "system.txt") << " Changed.";
  auto changed = load_prompts(dir);
  REQUIRE(changed);
  CHECK(changed->version != set->version);
  fs::remove_all(dir);
}

TEST_CASE("llm: an overridden prompt with an unknown placeholder fails before any request") {
  const auto dir = scratch("typo");
  std::ofstream(dir / "user.txt") << "Kernel {{kernel_name}}\nSource {{refrence_source}}\n";
  auto set = load_prompts(dir);
  REQUIRE_FALSE(set);
  CHECK_THAT(set.error().message, Catch::Contains("user.txt:2") && Catch::Contains("refrence_source"));

  std::ofstream(dir / "user.txt", std::ios::trunc) << "{{kernel_name}}";
  std::ofstream(dir / "answer_schema.json") << "[1, 2]";
  auto schema = load_prompts(dir);
  REQUIRE_FALSE(schema);
  CHECK_THAT(schema.error().message, Catch::Contains("answer_schema.json") && Catch::Contains("not a JSON object"));

  CHECK_FALSE(load_prompts(dir / "missing"));
  fs::remove_all(dir);
}
