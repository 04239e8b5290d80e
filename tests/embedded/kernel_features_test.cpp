// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "cuda/fake_compiler.hpp"
#include "embedded/corpus_source.hpp"
#include "embedded/kernel_features.hpp"
#include "embedded/pair_features.hpp"

using namespace kforecast::embedded;
namespace cuda = kforecast::cuda;
using kforecast::embedded::testing::corpus_source;

namespace {

const Gpu h100 = *find_gpu("H100");

CompilerFacts facts(int registers, std::int64_t spills, double loads_128) {
  CompilerFacts f;
  f.resources.name = "k";
  f.resources.registers = registers;
  f.resources.spill_store_bytes = spills;
  f.mix.found = true;
  f.mix.instructions = 100;
  f.mix.global_loads = 4;
  f.mix.global_loads_128 = loads_128;
  return f;
}

}  // namespace

TEST_CASE("embedded: feature groups are present only where their facts are") {
  const auto source = extract_source_features(corpus_source("gemv", "warp_per_row"), "gemv_warp_per_row");
  const FeatureVector only_source = kernel_features(source, std::nullopt, std::nullopt, h100);
  CHECK(only_source.has(FeatureGroup::source));
  CHECK_FALSE(only_source.has(FeatureGroup::compiler));
  CHECK_FALSE(only_source.has(FeatureGroup::launch));
  CHECK(only_source[Feature::registers] == 0);
  CHECK(only_source[Feature::warp_shuffles] == 1);

  const FeatureVector all =
      kernel_features(source, facts(32, 0, 0), LaunchGeometry{{1024, 1, 1}, {256, 1, 1}, 0}, h100);
  CHECK(all.has(FeatureGroup::compiler));
  CHECK(all.has(FeatureGroup::launch));
  CHECK(all[Feature::block_threads] == 256);
  CHECK(all[Feature::grid_blocks] == 1024);
  CHECK(all[Feature::occupancy] == Approx(1.0));
  CHECK(all[Feature::waves] == Approx(1024.0 / (8 * 132)));
}

TEST_CASE("embedded: occupancy follows the registers the compiler reports") {
  const SourceFeatures source{.kernel_found = true};
  const LaunchGeometry launch{{264, 1, 1}, {256, 1, 1}, 0};
  const auto low = kernel_features(source, facts(128, 0, 0), launch, h100);
  CHECK(low[Feature::occupancy] == Approx(0.25));
  CHECK(low[Feature::waves] == Approx(1.0));
  const auto no_compiler = kernel_features(source, std::nullopt, launch, h100);
  CHECK(no_compiler[Feature::occupancy] == Approx(1.0));  // registers unknown: not a limit
}

TEST_CASE("embedded: feature differences are log ratios of counts, linear for fractions") {
  const SourceFeatures source{.kernel_found = true};
  const LaunchGeometry launch{{264, 1, 1}, {256, 1, 1}, 0};
  const auto reference = kernel_features(source, facts(128, 0, 0), launch, h100);
  const auto candidate = kernel_features(source, facts(32, 96, 3), launch, h100);
  const FeatureDelta delta = feature_delta(reference, candidate);
  CHECK(delta.has(FeatureGroup::compiler));
  CHECK(delta[Feature::registers] == Approx(std::log2(33.0 / 129.0)));
  CHECK(delta[Feature::spill_bytes] == Approx(std::log2(97.0)));
  CHECK(delta[Feature::global_loads_128] == Approx(2.0));
  CHECK(delta[Feature::occupancy] == Approx(0.75));
  CHECK(delta[Feature::global_loads] == 0);

  // Without compiler facts on one side, the compiler group is missing and its differences 0.
  const auto bare = kernel_features(source, std::nullopt, launch, h100);
  const FeatureDelta partial = feature_delta(reference, bare);
  CHECK_FALSE(partial.has(FeatureGroup::compiler));
  CHECK(partial[Feature::registers] == 0);
  CHECK(partial.has(FeatureGroup::launch));
}

TEST_CASE("embedded: an #include directive is found only where the preprocessor would see one") {
  CHECK(has_include_directive("#include <cuda_fp16.h>\n__global__ void k() {}"));
  CHECK(has_include_directive("// header\n  #  include \"tile.h\"\n"));
  CHECK(has_include_directive("int x;\n\t#include\"a.h\""));
  CHECK_FALSE(has_include_directive("__global__ void k() {}\n"));
  CHECK_FALSE(has_include_directive("// #include <x>\n"));
  CHECK_FALSE(has_include_directive("int a; #include <x>\n"));
  CHECK_FALSE(has_include_directive("#define include 1\n#pragma unroll\n"));
  CHECK_FALSE(has_include_directive(""));
}

namespace {

// A fake NVRTC whose output holds kernel `k` (one load, one store); `minimal_fails` makes every
// -minimal request fail, as it does for a kernel that uses a texture.
cuda::FakeCompiler fake_nvrtc(bool minimal_fails, cuda::NvrtcVersion version = {13, 0}) {
  return cuda::FakeCompiler(
      [minimal_fails](const cuda::CompileRequest& request) -> kforecast::Result<cuda::CompileOutput> {
        if (minimal_fails && std::ranges::find(request.options, "-minimal") != request.options.end())
          return kforecast::fail(kforecast::ExitCode::could_not_run, "identifier \"texture\" is undefined");
        cuda::CompileOutput output;
        output.functions.push_back({.name = "k", .arch = request.arch, .registers = 8});
        output.ptx =
            ".visible .entry k(\n.param .u64 k_param_0\n)\n{\nld.global.f32 %f1, [%rd1];\n"
            "st.global.f32 [%rd1], %f1;\nret;\n}\n";
        return output;
      },
      version);
}

bool has_minimal(const cuda::CompileRequest& request) {
  return std::ranges::find(request.options, "-minimal") != request.options.end();
}

}  // namespace

TEST_CASE("embedded: facts compile with -minimal where the text and NVRTC allow, in full otherwise") {
  const std::string plain = "extern \"C\" __global__ void k(float* x) { x[0] += 1; }";
  SECTION("no #include, NVRTC 13.0: -minimal, once") {
    auto nvrtc = fake_nvrtc(false);
    auto facts = compile_facts(nvrtc, plain, "k", "sm_90");
    REQUIRE(facts.has_value());
    CHECK(facts->resources.registers == 8);
    REQUIRE(nvrtc.requests().size() == 1);
    CHECK(has_minimal(nvrtc.requests()[0]));
  }
  SECTION("-minimal fails: compiled again with the full header, and that answers") {
    auto nvrtc = fake_nvrtc(true);
    auto facts = compile_facts(nvrtc, plain, "k", "sm_90");
    REQUIRE(facts.has_value());
    CHECK(facts->mix.global_loads == 1);
    REQUIRE(nvrtc.requests().size() == 2);
    CHECK(has_minimal(nvrtc.requests()[0]));
    CHECK_FALSE(has_minimal(nvrtc.requests()[1]));
  }
  SECTION("a text with #include: the full header only") {
    auto nvrtc = fake_nvrtc(false);
    REQUIRE(compile_facts(nvrtc, "#include <cuda_fp16.h>\n" + plain, "k", "sm_90").has_value());
    REQUIRE(nvrtc.requests().size() == 1);
    CHECK_FALSE(has_minimal(nvrtc.requests()[0]));
  }
  SECTION("NVRTC 12.3, before -minimal: the full header only") {
    auto nvrtc = fake_nvrtc(false, {12, 3});
    REQUIRE(compile_facts(nvrtc, plain, "k", "sm_90").has_value());
    REQUIRE(nvrtc.requests().size() == 1);
    CHECK_FALSE(has_minimal(nvrtc.requests()[0]));
  }
  SECTION("asked for the full header: the full header only") {
    auto nvrtc = fake_nvrtc(false);
    REQUIRE(compile_facts(nvrtc, plain, "k", "sm_90", nullptr, nullptr, BuiltinHeader::full).has_value());
    REQUIRE(nvrtc.requests().size() == 1);
    CHECK_FALSE(has_minimal(nvrtc.requests()[0]));
  }
}

TEST_CASE("embedded: FeatureCache::prepare compiles each new text once, failures counted, cached ones not again") {
  cuda::FakeCompiler nvrtc([](const cuda::CompileRequest& request) -> kforecast::Result<cuda::CompileOutput> {
    if (request.source.find("broken") != std::string::npos)
      return kforecast::fail(kforecast::ExitCode::could_not_run, "kernel.cu(1): error: broken");
    cuda::CompileOutput output;
    output.functions.push_back({.name = "k", .arch = request.arch, .registers = 8});
    output.ptx = ".visible .entry k()\n{\nret;\n}\n";
    return output;
  });
  const FeatureContext context{.compiler = &nvrtc, .arch = "sm_90", .gpu = h100};
  const KernelText good{"extern \"C\" __global__ void k(float* x) { x[0] = 1; }", "k", std::nullopt};
  const KernelText also_good{"extern \"C\" __global__ void k(float* x) { x[1] = 2; }", "k", std::nullopt};
  const KernelText broken{"extern \"C\" __global__ void k(float* x) { broken; }", "k", std::nullopt};
  FeatureCache cache(context);
  cache.prepare({&good, &broken, &good});
  CHECK(cache.compiled() == 2);  // the repeat is one text
  CHECK(cache.compile_failures() == 1);
  const std::size_t requests = nvrtc.requests().size();  // -minimal, and the full header for the broken one
  std::string note;
  CHECK(cache.features(good).compiler);
  CHECK_FALSE(cache.features(broken, &note).compiler);
  CHECK(note.find("broken") != std::string::npos);
  CHECK(nvrtc.requests().size() == requests);  // features() found both prepared
  cache.prepare({&good, &also_good});          // one new text: no thread for it, features() compiles it
  CHECK(cache.compiled() == 2);
  CHECK(cache.features(also_good).compiler);
  CHECK(cache.compiled() == 3);

  FeatureCache without_nvrtc({.compiler = nullptr, .arch = "sm_90", .gpu = h100});
  without_nvrtc.prepare({&good, &also_good});  // nothing to compile: a no-op
  CHECK(without_nvrtc.compiled() == 0);
  CHECK_FALSE(without_nvrtc.features(good).compiler);
}
