// SPDX-License-Identifier: Apache-2.0
// Benchmark: the LLM client against a loopback fake endpoint (tests/support/fake_http_server).
//  1. 64 kernels at concurrency 8, the endpoint answering after a fixed 500 ms: wall time against
//     the ideal 64 / 8 * 0.5 s = 4 s (target: within 10%).
//  2. The client's own cost per request: serial requests answered at once, wall and CPU time per
//     request (the CPU figure includes the fake server's thread, so it is an upper bound).
//     Target: under 1 ms.
//  3. Memory per in-flight request: peak RSS growth during (1) divided by the 8 in flight
//     (target: under 5 MB).
//  4. A fully cached re-run: requests made (target: zero) and its wall time.
// Prompts are realistic in size (two 12 KB kernel sources).
//
// Usage: llm_client_bench [KERNELS=64] [CONCURRENCY=8] [DELAY_MS=500]

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "http/curl_transport.hpp"
#include "llm/forecast_batch.hpp"
#include "llm/kernel_prompt.hpp"
#include "support/fake_http_server.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using namespace kforecast;

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

std::string answer() {
  return R"({"id":"c","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"rationale\":\"coalesced\",\"p1_severe_slowdown\":0,\"p2_significant_slowdown\":0,\"p3_moderate_slowdown\":0.1,\"p4_minor_slowdown\":0.2,\"p5_minor_speedup\":0.5,\"p6_significant_speedup\":0.2,\"p7_high_speedup\":0,\"p8_extreme_speedup\":0,\"predicted_bin\":5}"}}],"usage":{"prompt_tokens":9000,"completion_tokens":80}})";
}

std::vector<llm::PromptMessages> prompts(int count) {
  std::string source;
  while (source.size() < 12 * 1024)
    source += "__global__ void kernel(const float* __restrict__ a, float* b, int n) { b[i] = a[i] * 2.0f; }\n";
  std::vector<llm::PromptMessages> all;
  for (int i = 0; i < count; ++i) {
    llm::KernelPair pair{fmt::format("kernel_{}", i), source, source + fmt::format("// {}\n", i), "", "", ""};
    all.push_back(*llm::build_prompt(llm::builtin_prompts(), pair, *llm::find_gpu("H100"), llm::Comments::keep));
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  const int kernels = argc > 1 ? std::atoi(argv[1]) : 64;
  const int concurrency = argc > 2 ? std::atoi(argv[2]) : 8;
  const int delay_ms = argc > 3 ? std::atoi(argv[3]) : 500;
  const auto all = prompts(kernels);
  const auto transport = http::make_curl_transport({});

  testing::FakeHttpServer server;
  server.set_handler([&](const testing::RecordedRequest&, std::size_t) {
    auto response = testing::ScriptedResponse::json(200, answer());
    response.delay = std::chrono::milliseconds(delay_ms);
    return response;
  });
  llm::EndpointSettings settings;
  settings.url = server.base_url() + "/v1";
  settings.model = "bench";
  const auto cache_dir = std::filesystem::temp_directory_path() / fmt::format("kf_llm_bench_{}", ::getpid());
  std::filesystem::remove_all(cache_dir);
  const llm::ForecastCache cache(cache_dir);
  llm::ForecastClient client(settings, *transport, llm::builtin_prompts(), Clock::now() + std::chrono::hours(1));

  const long rss_before = peak_rss_kib();
  auto started = Clock::now();
  auto results = llm::forecast_all(client, all, {.concurrency = concurrency, .cache = &cache});
  const double wall = std::chrono::duration<double>(Clock::now() - started).count();
  const long rss_after = peak_rss_kib();
  int ok = 0;
  for (const auto& result : results) ok += result ? 1 : 0;
  const double ideal = static_cast<double>((kernels + concurrency - 1) / concurrency) * delay_ms / 1000.0;
  std::printf(
      "1. %d kernels, concurrency %d, endpoint delay %d ms: %.3f s (ideal %.3f s, %+.1f%%; target within 10%%), "
      "%d ok, peak in flight %zu\n",
      kernels, concurrency, delay_ms, wall, ideal, 100.0 * (wall - ideal) / ideal, ok, server.peak_concurrency());
  std::printf("3. peak RSS %ld KiB -> %ld KiB: %.2f MB per in-flight request (target < 5 MB)\n", rss_before, rss_after,
              static_cast<double>(rss_after - rss_before) / 1024.0 / concurrency);

  // 4. Everything cached: nothing is sent.
  const std::size_t before = server.request_count();
  started = Clock::now();
  auto again = llm::forecast_all(client, all, {.concurrency = concurrency, .cache = &cache});
  const double cached_wall = std::chrono::duration<double>(Clock::now() - started).count();
  std::printf("4. cached re-run: %zu requests (target 0), %.1f ms\n", server.request_count() - before,
              cached_wall * 1000);

  // 2. Client overhead: serial requests answered at once.
  testing::FakeHttpServer instant;
  instant.set_handler(
      [&](const testing::RecordedRequest&, std::size_t) { return testing::ScriptedResponse::json(200, answer()); });
  settings.url = instant.base_url() + "/v1";
  llm::ForecastClient serial(settings, *transport, llm::builtin_prompts(), Clock::now() + std::chrono::hours(1));
  const int rounds = 200;
  for (int i = 0; i < 10; ++i) (void)serial.forecast(all[0]);  // warm up
  const double cpu_start = cpu_seconds();
  started = Clock::now();
  for (int i = 0; i < rounds; ++i) (void)serial.forecast(all[static_cast<std::size_t>(i) % all.size()]);
  const double per_request = std::chrono::duration<double>(Clock::now() - started).count() / rounds;
  const double cpu_per_request = (cpu_seconds() - cpu_start) / rounds;
  std::printf(
      "2. per request, endpoint answering at once (%d requests, %zu-byte prompts): wall %.3f ms, CPU %.3f ms "
      "(client + fake server; target < 1 ms)\n",
      rounds, all[0].user.size(), per_request * 1000, cpu_per_request * 1000);
  std::filesystem::remove_all(cache_dir);
  return 0;
}
