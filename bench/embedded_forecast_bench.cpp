// SPDX-License-Identifier: Apache-2.0
// Forecasting every ordered pair of the corpus (fixtures/corpus) with the embedded forecaster:
// source features + difference + model, per pair, against the 1 ms target; then the NVRTC facts
// of every kernel (the cost the cache pays once per text) against the 50 ms per pair target.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "cuda/nvrtc.hpp"
#include "embedded/ordinal_model.hpp"
#include "embedded/rationale.hpp"
#include "kernels/scanner.hpp"

using namespace kforecast;
using Clock = std::chrono::steady_clock;

namespace {

struct Kernel {
  std::string family, source, name;
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
    Kernel k{path.parent_path().filename().string(), {std::istreambuf_iterator<char>(in), {}}, {}};
    for (const auto& f : kernels::scan_cuda_source(k.source).functions)
      if (f.kind == kernels::FunctionKind::global) k.name = f.name;
    kernels.push_back(std::move(k));
  }
  return kernels;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

int main() {
  const auto kernels = corpus();
  const auto gpu = *embedded::find_gpu("H100");
  const auto& model = embedded::default_model();
  std::size_t pairs = 0;
  double checksum = 0;
  // Without NVRTC: everything from the two texts, per pair, nothing cached.
  const auto start = Clock::now();
  for (const auto& a : kernels)
    for (const auto& b : kernels) {
      if (&a == &b || a.family != b.family) continue;
      const auto ref = embedded::kernel_features(embedded::extract_source_features(a.source, a.name), std::nullopt,
                                                 std::nullopt, gpu);
      const auto cand = embedded::kernel_features(embedded::extract_source_features(b.source, b.name), std::nullopt,
                                                  std::nullopt, gpu);
      const auto d = embedded::predict(model, embedded::feature_delta(ref, cand));
      checksum += d.max_probability() + static_cast<double>(embedded::rationale(model, ref, cand).size());
      ++pairs;
    }
  const double per_pair = ms_since(start) / static_cast<double>(pairs);
  std::printf("embedded forecast without NVRTC: %zu pairs, %.3f ms per pair (target < 1 ms: %.0fx under)\n", pairs,
              per_pair, 1.0 / per_pair);

  auto compiler = cuda::load_nvrtc({}, process_environment());
  if (!compiler) {
    std::printf("NVRTC not available (%s): compiler facts not measured\n", compiler.error().message().c_str());
    return 0;
  }
  std::vector<double> compile_ms;
  for (const auto& k : kernels) {
    const auto t = Clock::now();
    auto facts = embedded::compile_facts(**compiler, k.source, k.name, "sm_90");
    compile_ms.push_back(ms_since(t));
    if (!facts) std::printf("  %s: %s\n", k.name.c_str(), facts.error().message.c_str());
  }
  std::sort(compile_ms.begin(), compile_ms.end());
  const double median = compile_ms[compile_ms.size() / 2];
  std::printf("NVRTC facts per kernel text (compile for sm_90 + ptxas report + PTX mix): median %.1f ms, max %.1f ms\n",
              median, compile_ms.back());
  std::printf(
      "a pair with both texts uncached: about %.1f ms (target < 50 ms); cached: the figure above without NVRTC\n",
      2 * median + per_pair);
  return checksum > 0 ? 0 : 1;
}
