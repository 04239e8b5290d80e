// SPDX-License-Identifier: Apache-2.0
// Compiler facts from the real NVRTC on corpus kernels. Skipped (exit 77) without NVRTC.

#include <catch2/catch.hpp>

#include "cuda/nvrtc.hpp"
#include "embedded/corpus_source.hpp"
#include "embedded/facts_cache.hpp"
#include "embedded/kernel_features.hpp"
#include "embedded/pair_features.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <regex>

using namespace kforecast;
using namespace kforecast::embedded;
using kforecast::embedded::testing::corpus_source;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvrtc(); }

namespace {

const cuda::Compiler& nvrtc() {
  static const auto compiler = kforecast::testing::load_test_nvrtc();
  if (!compiler) FAIL(compiler.error().message());
  return **compiler;
}

CompilerFacts facts_of(const std::string& family, const std::string& variant, const std::string& kernel) {
  auto facts = compile_facts(nvrtc(), corpus_source(family, variant), kernel, "sm_90");
  if (!facts) FAIL(facts.error().message);
  return *facts;
}

}  // namespace

TEST_CASE("embedded: NVRTC facts tell vector loads, local memory and registers apart") {
  const auto naive = facts_of("elementwise", "naive", "bias_gelu_naive");
  const auto vectorized = facts_of("elementwise", "vectorized", "bias_gelu_vectorized");
  CHECK(naive.mix.global_loads_128 == 0);
  CHECK(vectorized.mix.global_loads_128 >= 2);
  CHECK(naive.mix.fp64 == 0);
  CHECK(facts_of("elementwise", "double_promotion", "bias_gelu_double").mix.fp64 > 0);

  const auto local = facts_of("histogram", "local_array", "histogram_local_array");
  CHECK(local.resources.stack_frame_bytes == 1024);
  CHECK(local.mix.local_accesses > 0);
  CHECK(local.mix.atomics > 0);

  const auto register_2d = facts_of("gemm", "register_2d", "sgemm_register_2d");
  const auto gemm_naive = facts_of("gemm", "naive", "sgemm_naive");
  CHECK(register_2d.resources.registers > 2 * gemm_naive.resources.registers);
  CHECK(register_2d.resources.shared_bytes == 8192);
  CHECK(register_2d.mix.shared_loads > 0);
  CHECK(register_2d.mix.barriers == 2);

  const auto shuffle = facts_of("reduction", "warp_shuffle", "row_sum_warp_shuffle");
  CHECK(shuffle.mix.shuffles >= 5);
}

TEST_CASE("embedded: NVRTC facts of a C++ (mangled) template kernel, by name expression") {
  const std::string source = "template <int N> __global__ void scale(float* x) { x[threadIdx.x] *= N; }\n";
  auto facts = compile_facts(nvrtc(), source, "scale<4>", "sm_90");
  REQUIRE(facts.has_value());
  CHECK(facts->resources.name == "_Z5scaleILi4EEvPf");
  CHECK(facts->mix.global_loads == 1);
  CHECK(facts->mix.global_stores == 1);
}

TEST_CASE("embedded: a source that does not compile gives an error, not facts") {
  auto facts = compile_facts(nvrtc(), "__global__ void k(float* x) { x[0] = undeclared; }", "k", "sm_90");
  CHECK_FALSE(facts.has_value());
  CHECK_FALSE(compile_facts(nvrtc(), "__global__ void k(float* x) {}", "missing", "sm_90").has_value());
}

namespace {

// The real NVRTC, counting its compiles (how the tests see whether the cache answered) and how
// many were running at once. Thread-safe: FeatureCache::prepare compiles two texts at once.
class CountingCompiler : public cuda::Compiler {
 public:
  cuda::NvrtcVersion version() const override { return nvrtc().version(); }
  std::string library_path() const override { return nvrtc().library_path(); }
  std::vector<int> supported_archs() const override { return nvrtc().supported_archs(); }
  Result<cuda::CompileOutput> compile(const cuda::CompileRequest& request) const override {
    ++compiles;
    const int now = ++running;
    for (int seen = most_at_once; seen < now && !most_at_once.compare_exchange_weak(seen, now);) {
    }
    if (std::ranges::find(request.options, "-minimal") != request.options.end()) ++minimal;
    auto output = nvrtc().compile(request);
    --running;
    return output;
  }
  mutable std::atomic<int> compiles = 0;
  mutable std::atomic<int> minimal = 0;  // of those, with -minimal
  mutable std::atomic<int> running = 0;
  mutable std::atomic<int> most_at_once = 0;
};

// The extern "C" kernel a corpus file defines (each defines one).
std::string kernel_name(const std::string& source) {
  static const std::regex global(R"(__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+))");
  std::smatch match;
  if (!std::regex_search(source, match, global)) FAIL("no kernel in the fixture");
  return match[1];
}

}  // namespace

TEST_CASE("embedded: NVRTC facts from the on-disk cache equal the compiled ones, without compiling") {
  kforecast::testing::TempDir dir;
  const FactsCache cache(dir.path() / "facts");
  CountingCompiler compiler;
  const std::string source = corpus_source("gemm", "naive");
  const std::string kernel = "sgemm_naive";
  bool from_cache = true;
  auto cold = compile_facts(compiler, source, kernel, "sm_90", &cache, &from_cache);
  REQUIRE(cold.has_value());
  CHECK_FALSE(from_cache);
  CHECK(compiler.compiles == 1);
  auto warm = compile_facts(compiler, source, kernel, "sm_90", &cache, &from_cache);
  REQUIRE(warm.has_value());
  CHECK(from_cache);
  CHECK(compiler.compiles == 1);
  CHECK(*warm == *cold);
  // And equal to facts compiled with no cache at all.
  CHECK(*warm == *compile_facts(nvrtc(), source, kernel, "sm_90"));

  SECTION("another arch is another entry") {
    auto other = compile_facts(compiler, source, kernel, "sm_80", &cache, &from_cache);
    REQUIRE(other.has_value());
    CHECK_FALSE(from_cache);
    CHECK(compiler.compiles == 2);
    CHECK(other->resources.arch == "sm_80");
  }
  SECTION("a corrupt entry is compiled again and rewritten") {
    for (const auto& file : std::filesystem::directory_iterator(dir.path() / "facts")) {
      std::ofstream out(file.path(), std::ios::binary | std::ios::trunc);
      out << "kforecast-facts 2\nname _Z\n";
    }
    auto again = compile_facts(compiler, source, kernel, "sm_90", &cache, &from_cache);
    REQUIRE(again.has_value());
    CHECK_FALSE(from_cache);
    CHECK(compiler.compiles == 2);
    CHECK(*again == *cold);
    CHECK(*compile_facts(compiler, source, kernel, "sm_90", &cache, &from_cache) == *cold);
    CHECK(from_cache);
  }
}

TEST_CASE("embedded: a compile error is cached too, and read back without compiling") {
  kforecast::testing::TempDir dir;
  const FactsCache cache(dir.path());
  CountingCompiler compiler;
  const std::string source = "__global__ void k(float* x) { x[0] = undeclared; }";
  bool from_cache = true;
  auto cold = compile_facts(compiler, source, "k", "sm_90", &cache, &from_cache);
  REQUIRE_FALSE(cold.has_value());
  CHECK_FALSE(from_cache);
  // Two compiles when cold: -minimal first, then the full header (for the error it gives).
  const int cold_compiles = compiler.compiles;
  CHECK(cold_compiles <= 2);
  auto warm = compile_facts(compiler, source, "k", "sm_90", &cache, &from_cache);
  REQUIRE_FALSE(warm.has_value());
  CHECK(from_cache);
  CHECK(compiler.compiles == cold_compiles);
  CHECK(warm.error().message == cold.error().message);
}

TEST_CASE("embedded: FeatureCache reads NVRTC facts back from disk on a second run") {
  kforecast::testing::TempDir dir;
  const FactsCache cache(dir.path());
  CountingCompiler compiler;
  const KernelText text{corpus_source("reduction", "warp_shuffle"), "row_sum_warp_shuffle", std::nullopt};
  FeatureVector first, second;
  {
    FeatureCache features({.compiler = &compiler, .arch = "sm_90", .gpu = *find_gpu("H100"), .facts_cache = &cache});
    first = features.features(text);
    CHECK(features.facts_from_cache() == 0);
  }
  {
    FeatureCache features({.compiler = &compiler, .arch = "sm_90", .gpu = *find_gpu("H100"), .facts_cache = &cache});
    second = features.features(text);
    CHECK(features.facts_from_cache() == 1);
  }
  CHECK(compiler.compiles == 1);
  CHECK(first.compiler);
  CHECK(first.values == second.values);
}

TEST_CASE("embedded: -minimal gives the same NVRTC facts as the full built-in header on corpus kernels") {
  if (!cuda::supports_minimal_header(nvrtc().version())) {
    WARN("NVRTC " << nvrtc().version().text() << " has no -minimal (12.4+): nothing to compare");
    return;
  }
  // A kernel of each kind whose facts the model reads: math functions and FP64, shared memory
  // with barriers and padding, shared and global atomics with a stack array, register blocking,
  // warp shuffles, 128-bit loads.
  const std::vector<std::pair<std::string, std::string>> kernels = {
      {"elementwise", "double_promotion"}, {"scan", "blelloch_padded"}, {"histogram", "local_array"},
      {"histogram", "shared_privatized"},  {"gemm", "register_2d"},     {"softmax", "warp_online"},
      {"transpose", "shared_padded"},      {"attention", "online"},     {"gather", "warp_vectorized"},
  };
  for (const auto& [family, variant] : kernels) {
    INFO(family << "/" << variant);
    const std::string source = corpus_source(family, variant);
    const std::string kernel = kernel_name(source);
    CountingCompiler compiler;
    auto minimal = compile_facts(compiler, source, kernel, "sm_90");
    REQUIRE(minimal.has_value());
    CHECK(compiler.minimal == 1);  // compiled that way, not by the fallback
    CHECK(compiler.compiles == 1);
    auto full = compile_facts(nvrtc(), source, kernel, "sm_90", nullptr, nullptr, BuiltinHeader::full);
    REQUIRE(full.has_value());
    CHECK(*minimal == *full);  // registers, spills, stack, shared, and every count of the PTX mix
  }
}

TEST_CASE("embedded: a kernel that needs what -minimal leaves out still gets its facts, in full") {
  // Texture objects are among the declarations -minimal omits.
  const std::string source =
      "extern \"C\" __global__ void fetch(cudaTextureObject_t t, float* out) {\n"
      "  out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);\n}\n";
  CountingCompiler compiler;
  auto facts = compile_facts(compiler, source, "fetch", "sm_90");
  REQUIRE(facts.has_value());
  CHECK(facts->mix.global_stores == 1);
  CHECK(compiler.compiles == (cuda::supports_minimal_header(nvrtc().version()) ? 2 : 1));
}

TEST_CASE("embedded: FeatureCache::prepare compiles a pair's two new texts at once, with the same facts") {
  CountingCompiler compiler;
  const auto text = [](const std::string& variant) {
    const std::string source = corpus_source("scan", variant);
    return KernelText{source, kernel_name(source), std::nullopt};
  };
  const KernelText named_reference = text("blelloch"), named_candidate = text("hillis_steele");
  const FeatureContext context{.compiler = &compiler, .arch = "sm_90", .gpu = *find_gpu("H100")};

  FeatureCache together(context);
  together.prepare({&named_reference, &named_candidate, &named_reference});  // a repeat compiles once
  CHECK(compiler.compiles == 2);
  CHECK(together.compiled() == 2);
  CHECK(together.compile_failures() == 0);
  const FeatureVector r = together.features(named_reference);
  const FeatureVector c = together.features(named_candidate);
  CHECK(compiler.compiles == 2);  // already there
  together.prepare({&named_reference, &named_candidate});
  CHECK(compiler.compiles == 2);

  FeatureCache one_by_one(context);
  CHECK(one_by_one.features(named_reference).values == r.values);
  CHECK(one_by_one.features(named_candidate).values == c.values);
  CHECK(r.compiler);
  CHECK(c.compiler);
  CHECK(r.values != c.values);
  // Overlap cannot be guaranteed on a loaded machine; that both ran through one compiler, and
  // never more than two at once, can.
  CHECK(compiler.most_at_once <= 2);
}
