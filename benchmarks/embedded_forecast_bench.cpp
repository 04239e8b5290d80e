// SPDX-License-Identifier: Apache-2.0
// Time to forecast one pair with the embedded forecaster (embedded::forecast_pair, as `pr` and
// `eval` call it), on the ordered pairs within each family of fixtures/corpus:
//   1. without NVRTC: source features of both texts + difference + model + rationale, nothing
//      cached (a fresh FeatureCache per pair), against the 1 ms target;
//   2. with NVRTC, cold: both texts compiled (sm_90, ptxas report, PTX mix) in a fresh cache,
//      as forecast_pair does it (both texts at once, -minimal where the text allows), and, on
//      the same pairs in the same run, as it did before (one after the other, full header), so
//      that the two are compared under the same machine load;
//   3. with NVRTC, warm: both texts already in the cache (FeatureCache keeps facts per text);
//   4. with NVRTC, disk-warm: a fresh FeatureCache per pair (as a new `kforecast pr` process
//      has), both texts' facts read from the on-disk facts cache (embedded/facts_cache), no
//      compile; source features are extracted again;
// against the 50 ms target "including NVRTC facts (cached per text)".

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cuda/nvrtc.hpp"
#include "embedded/pair_forecast.hpp"
#include "embedded/facts_cache.hpp"
#include "embedded/ordinal_model.hpp"
#include "embedded/rationale.hpp"
#include "kernels/scanner.hpp"

using namespace kforecast;
using Clock = std::chrono::steady_clock;

namespace {

struct Kernel {
  std::string family;
  embedded::KernelText text;
};

std::vector<Kernel> corpus() {
  std::vector<Kernel> kernels;
  const auto root = std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "corpus";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.path().extension() == ".cu") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    Kernel k{path.parent_path().filename().string(),
             {std::string(std::istreambuf_iterator<char>(in), {}), {}, std::nullopt}};
    for (const auto& f : kernels::scan_cuda_source(k.text.source).functions)
      if (f.kind == kernels::FunctionKind::global) k.text.kernel = f.name;
    kernels.push_back(std::move(k));
  }
  return kernels;
}

// The 1-minute load average, printed with the figures: on a shared machine the NVRTC rows
// scale with it.
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  return in >> one ? one : std::string("unknown");
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Summary {
  double median = 0, p90 = 0, max = 0;
};

Summary summarise(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 9 / 10)], ms.back()};
}

void print(const char* what, std::size_t pairs, Summary s, double target) {
  std::printf("%-44s %4zu pairs: median %8.3f ms, p90 %8.3f ms, max %8.3f ms (target < %g ms: %s)\n", what, pairs,
              s.median, s.p90, s.max, target, s.p90 < target ? "met" : "MISSED");
}

}  // namespace

int main() {
  const auto kernels = corpus();
  std::vector<std::pair<const Kernel*, const Kernel*>> pairs;
  for (const auto& a : kernels)
    for (const auto& b : kernels)
      if (&a != &b && a.family == b.family) pairs.emplace_back(&a, &b);
  const auto& model = embedded::default_model();
  const embedded::FeatureContext no_compiler{nullptr, "sm_90", *embedded::find_gpu("H100")};
  double checksum = 0;

  std::vector<double> without;
  for (const auto& [a, b] : pairs) {
    const auto start = Clock::now();
    embedded::FeatureCache cache(no_compiler);
    const auto f = embedded::forecast_pair(model, cache, a->text, b->text);
    without.push_back(ms_since(start));
    checksum += f.distribution.max_probability() + static_cast<double>(f.rationale.size());
  }
  std::printf("embedded forecaster, %zu kernel texts, %zu ordered pairs within families (fixtures/corpus)\n",
              kernels.size(), pairs.size());
  print("without NVRTC (nothing cached)", pairs.size(), summarise(without), 1.0);

  auto compiler = cuda::load_nvrtc({}, process_environment());
  if (!compiler) {
    std::printf("NVRTC not available (%s): the figures with NVRTC facts are not measured\n",
                compiler.error().message().c_str());
    return checksum > 0 ? 0 : 1;
  }
  const embedded::FeatureContext with_compiler{compiler->get(), "sm_90", *embedded::find_gpu("H100")};
  // Cold: a fresh cache per pair, so both texts are compiled. One pair in four (every text still
  // appears), to keep the run short: each compile costs tens of milliseconds. The baseline and
  // the current way alternate pair by pair, so a change in the machine's load touches both.
  embedded::FeatureContext baseline_context = with_compiler;
  baseline_context.header = embedded::BuiltinHeader::full;
  std::vector<double> cold, cold_baseline;
  std::printf("load average (1 min) before the cold runs: %s\n", load_average().c_str());
  for (std::size_t i = 0; i < pairs.size(); i += 4) {
    const auto& [reference, candidate] = pairs[i];
    {
      const auto start = Clock::now();
      embedded::FeatureCache cache(baseline_context);
      const auto& r = cache.features(reference->text);
      const auto& c = cache.features(candidate->text);
      const auto distribution = embedded::predict(model, embedded::feature_delta(r, c));
      const auto why = embedded::rationale(model, r, c);
      cold_baseline.push_back(ms_since(start));
      checksum += distribution.max_probability() + static_cast<double>(why.size());
    }
    const auto start = Clock::now();
    embedded::FeatureCache cache(with_compiler);
    const auto f = embedded::forecast_pair(model, cache, reference->text, candidate->text);
    cold.push_back(ms_since(start));
    checksum += f.distribution.max_probability();
  }
  std::printf("load average (1 min) after the cold runs: %s\n", load_average().c_str());
  print("cold, before: one text after the other, full", cold_baseline.size(), summarise(cold_baseline), 50.0);
  print("with NVRTC facts, cold (both texts compiled)", cold.size(), summarise(cold), 50.0);

  // Warm: one cache that has seen every text; each pair is then a lookup plus the model.
  embedded::FeatureCache warm_cache(with_compiler);
  for (const auto& k : kernels) warm_cache.features(k.text);
  std::vector<double> warm;
  for (const auto& [a, b] : pairs) {
    const auto start = Clock::now();
    const auto f = embedded::forecast_pair(model, warm_cache, a->text, b->text);
    warm.push_back(ms_since(start));
    checksum += f.distribution.max_probability();
  }
  print("with NVRTC facts, warm (texts cached)", warm.size(), summarise(warm), 50.0);

  // Disk-warm: the facts cache filled once (a first run), then every pair in a fresh FeatureCache.
  const auto disk = std::filesystem::temp_directory_path() / ("kf-facts-bench-" + std::to_string(::getpid()));
  const embedded::FactsCache facts_cache(disk);
  embedded::FeatureContext with_disk = with_compiler;
  with_disk.facts_cache = &facts_cache;
  {
    embedded::FeatureCache fill(with_disk);
    for (const auto& k : kernels) fill.features(k.text);
  }
  std::vector<double> disk_warm;
  std::size_t compiled_again = 0;
  for (const auto& [a, b] : pairs) {
    const auto start = Clock::now();
    embedded::FeatureCache cache(with_disk);
    const auto f = embedded::forecast_pair(model, cache, a->text, b->text);
    disk_warm.push_back(ms_since(start));
    compiled_again += cache.compiled() - cache.facts_from_cache();
    checksum += f.distribution.max_probability();
  }
  std::error_code ignored;
  std::filesystem::remove_all(disk, ignored);
  print("with NVRTC facts, disk-warm (new process)", disk_warm.size(), summarise(disk_warm), 50.0);
  std::printf("texts compiled again in the disk-warm runs: %zu\n", compiled_again);
  std::printf("compile failures among %zu texts: %zu\n", warm_cache.compiled(), warm_cache.compile_failures());
  return checksum > 0 ? 0 : 1;
}
