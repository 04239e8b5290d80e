// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the e2e tests of `pr --forecaster llm` share: a fixture pair of commits, a valid
// completion, and the environment that points the binary at a loopback fake endpoint.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "e2e.hpp"
#include "support/fake_http_server.hpp"

namespace kforecast::e2e {

inline constexpr const char* llm_secret = "sk-e2e-SECRET-93be11f0";

// A completion whose content is a valid answer (bin 5, P(regression) 0.2885 at tolerance 0.02).
inline std::string answer_completion(const std::string& rationale) {
  return R"({"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"rationale\":\")" +
         rationale +
         R"(\",\"p1_severe_slowdown\":0,\"p2_significant_slowdown\":0,\"p3_moderate_slowdown\":0.1,\"p4_minor_slowdown\":0.2,\"p5_minor_speedup\":0.5,\"p6_significant_speedup\":0.2,\"p7_high_speedup\":0,\"p8_extreme_speedup\":0,\"predicted_bin\":5}"}}]})";
}

// k.cu's kernel k at a base and a head commit whose code differs.
inline void two_commits(FixtureRepo& repo, const std::string& config = "") {
  if (!config.empty()) repo.write(".kforecast.toml", config);
  repo.write("k.cu", "__global__ void k(float* a) { a[threadIdx.x * 32] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "// candidate\n__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n");
  repo.commit("head");
}

// No NVRTC (so runs do not depend on the machine), the fake endpoint, a key, a private cache.
inline std::vector<std::string> llm_env(const kforecast::testing::FakeHttpServer& server,
                                        const std::filesystem::path& cache) {
  return {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so", "KFORECAST_ENDPOINT=" + server.base_url() + "/v1",
          "KFORECAST_MODEL=fake-model", std::string("KFORECAST_API_KEY=") + llm_secret,
          "XDG_CACHE_HOME=" + cache.string()};
}

// `kforecast pr --forecaster llm` over two_commits with NVRTC from its default places (wherever
// it is installed) against an endpoint that answers "ok": the run, how many requests reached the
// endpoint, and the first one's body.
struct LlmPrRun {
  Run run;
  std::size_t requests = 0;
  std::string body;
};
inline LlmPrRun pr_with_default_nvrtc() {
  FixtureRepo repo;
  two_commits(repo);
  kforecast::testing::FakeHttpServer server;
  server.set_handler([](const auto&, std::size_t) {
    return kforecast::testing::ScriptedResponse::json(200, answer_completion("ok"));
  });
  auto env = llm_env(server, repo.path() / ".test-cache");
  env.erase(env.begin());  // NVRTC from its default places
  LlmPrRun result{run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--forecaster", "llm"}, repo.path(), env)};
  result.requests = server.request_count();
  if (result.requests > 0) result.body = server.requests().at(0).body;
  return result;
}

// Every regular file's contents under `directory`, concatenated ("" when it does not exist).
inline std::string files_under(const std::filesystem::path& directory) {
  namespace fs = std::filesystem;
  std::string all;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(directory, ec); it != fs::recursive_directory_iterator(); ++it)
    if (it->is_regular_file()) {
      std::ifstream in(it->path(), std::ios::binary);
      all += std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  return all;
}

}  // namespace kforecast::e2e
