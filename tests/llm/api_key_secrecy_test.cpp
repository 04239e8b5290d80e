// SPDX-License-Identifier: Apache-2.0
// The API key goes into one place only, the request's auth header. A server that echoes it back
// (in an error, in the answer) must not get it into a message, a forecast or the cache.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "llm/client_harness.hpp"
#include "llm/forecast_batch.hpp"

using namespace kforecast::llm;
using namespace kforecast::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* key = "sk-test-SECRET-4c1d9e77a0b2";

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("llm secrecy: the key reaches the server's header and nothing else") {
  ClientHarness harness;
  const std::string echoed =
      fmt::format(R"({{"error":{{"message":"Incorrect API key provided: {}","code":"invalid_api_key"}}}})", key);
  harness.server.set_handler([&](const RecordedRequest& request, std::size_t) {
    if (request.body.find("kernel 0") != std::string::npos) return ScriptedResponse::json(401, echoed);
    if (request.body.find("kernel 1") != std::string::npos) return ScriptedResponse::json(500, echoed);
    if (request.body.find("kernel 2") != std::string::npos) return ScriptedResponse::json(400, echoed);
    // A "model" that repeats the key in its rationale and in an invalid first answer.
    if (request.body.find("kernel 3") != std::string::npos &&
        request.body.find("could not be used") == std::string::npos)
      return ok(content_completion(answer_object({"0", "0", "0", "0.5", "0.5", "0.5", "0", "0"}, "5", key)));
    return ok(content_completion(
        answer_object({"0", "0", "0", "0.2", "0.6", "0.2", "0", "0"}, "5", fmt::format("the key is {}", key))));
  });
  auto settings = harness.settings();
  settings.api_key = key;
  settings.max_retries = 1;
  auto client = harness.client(settings);
  const ForecastCache cache(fs::temp_directory_path() / ("kf_llm_secrecy_" + std::to_string(::getpid())));
  fs::remove_all(cache.directory());
  std::vector<PromptMessages> prompts;
  for (int i = 0; i < 5; ++i) prompts.push_back({"system", fmt::format("kernel {}", i)});
  auto results = forecast_all(*client, prompts, {.concurrency = 2, .cache = &cache});

  for (const auto& request : harness.server.requests())
    CHECK(request.header("authorization") == std::string("Bearer ") + key);
  std::string everything;
  for (const auto& result : results) {
    if (!result) {
      everything += result.error().message + "\n";
      continue;
    }
    everything += result->rationale + "\n" + result->method + "\n";
    for (const auto& note : result->notes) everything += note + "\n";
  }
  for (const auto& entry : fs::directory_iterator(cache.directory())) everything += read_all(entry.path());
  CHECK_FALSE(results[0]);
  CHECK_FALSE(results[1]);
  CHECK_FALSE(results[2]);
  REQUIRE(results[3]);
  REQUIRE(results[4]);
  CHECK_THAT(everything, Catch::Contains("[redacted]"));
  CHECK(everything.find(key) == std::string::npos);
  // The repair request quoted the model's answer back to it: that is the server's own text.
  fs::remove_all(cache.directory());
}
