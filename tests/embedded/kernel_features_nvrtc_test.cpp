// SPDX-License-Identifier: Apache-2.0
// Compiler facts from the real NVRTC on corpus kernels. Skipped (exit 77) without NVRTC.

#include <catch2/catch.hpp>

#include "cuda/nvrtc.hpp"
#include "embedded/corpus_source.hpp"
#include "embedded/facts_cache.hpp"
#include "embedded/kernel_features.hpp"
#include "embedded/pair_features.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

#include <fstream>

using namespace kforecast;
using namespace kforecast::embedded;
using kforecast::embedded::testing::corpus_source;

std::optional<std::string> kforecast::testing::missing_requirement() {
  auto compiler = cuda::load_nvrtc({}, process_environment());
  if (!compiler) return compiler.error().message();
  return std::nullopt;
}

namespace {

const cuda::Compiler& nvrtc() {
  static const auto compiler = cuda::load_nvrtc({}, process_environment());
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

// The real NVRTC, counting its compiles: how the tests see whether the cache answered.
class CountingCompiler : public cuda::Compiler {
 public:
  cuda::NvrtcVersion version() const override { return nvrtc().version(); }
  std::string library_path() const override { return nvrtc().library_path(); }
  std::vector<int> supported_archs() const override { return nvrtc().supported_archs(); }
  Result<cuda::CompileOutput> compile(const cuda::CompileRequest& request) const override {
    ++compiles;
    return nvrtc().compile(request);
  }
  mutable int compiles = 0;
};

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
      out << "kforecast-facts 1\nname _Z\n";
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
  auto warm = compile_facts(compiler, source, "k", "sm_90", &cache, &from_cache);
  REQUIRE_FALSE(warm.has_value());
  CHECK(from_cache);
  CHECK(compiler.compiles == 1);
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
