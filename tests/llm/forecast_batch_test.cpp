// SPDX-License-Identifier: Apache-2.0
#include "llm/forecast_batch.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "llm/client_harness.hpp"

using namespace kforecast::llm;
using namespace kforecast::testing;
namespace fs = std::filesystem;

namespace {

std::vector<PromptMessages> prompts(std::size_t count) {
  std::vector<PromptMessages> all;
  for (std::size_t i = 0; i < count; ++i) all.push_back({"system", fmt::format("kernel {}", i)});
  return all;
}

}  // namespace

TEST_CASE("llm batch: concurrent up to the limit, results in order, progress to the end") {
  ClientHarness harness;
  harness.server.set_handler([](const RecordedRequest&, std::size_t) {
    ScriptedResponse response = ok(content_completion(good_answer()));
    response.delay = std::chrono::milliseconds(150);
    return response;
  });
  auto client = harness.client();
  std::vector<std::pair<std::size_t, std::size_t>> progress;
  const auto started = std::chrono::steady_clock::now();
  auto results = forecast_all(
      *client, prompts(12),
      {.concurrency = 4, .progress = [&](std::size_t done, std::size_t total) { progress.emplace_back(done, total); }});
  const auto elapsed = std::chrono::steady_clock::now() - started;
  REQUIRE(results.size() == 12);
  for (const auto& result : results) CHECK(result);
  CHECK(harness.server.peak_concurrency() == 4);
  CHECK(elapsed >= std::chrono::milliseconds(3 * 150));
  CHECK(elapsed < std::chrono::milliseconds(12 * 150));
  REQUIRE_FALSE(progress.empty());
  CHECK(progress.back() == std::pair<std::size_t, std::size_t>{12, 12});
  // Each request carried its own kernel, and results come back in input order.
  std::set<std::string> users;
  for (const auto& request : harness.server.requests()) users.insert(request.body);
  CHECK(users.size() == 12);
}

TEST_CASE("llm batch: a cached re-run makes zero requests; failures are not cached") {
  ClientHarness harness;
  harness.server.set_handler([](const RecordedRequest& request, std::size_t) {
    // Kernel 3 always fails; the others answer.
    if (request.body.find("kernel 3") != std::string::npos)
      return fixture_response(401, "error_openai_invalid_key.json");
    return ok(content_completion(good_answer()));
  });
  const ForecastCache cache(fs::temp_directory_path() / ("kf_llm_batch_" + std::to_string(::getpid())));
  fs::remove_all(cache.directory());
  auto client = harness.client();
  auto first = forecast_all(*client, prompts(6), {.concurrency = 3, .cache = &cache});
  CHECK(harness.server.request_count() == 6);
  CHECK_FALSE(first[3]);
  CHECK(first[0]);
  CHECK_FALSE(first[0]->from_cache);

  auto second = forecast_all(*client, prompts(6), {.concurrency = 3, .cache = &cache});
  CHECK(harness.server.request_count() == 7);  // only the failed kernel is asked again
  for (std::size_t i : {0, 1, 2, 4, 5}) {
    REQUIRE(second[i]);
    CHECK(second[i]->from_cache);
    CHECK(second[i]->requests == 0);
  }
  CHECK_FALSE(second[3]);
  fs::remove_all(cache.directory());
}
