// SPDX-License-Identifier: Apache-2.0
// The tier's logic over a FakeCompiler whose "PTX" is derived from the source; the same tier on
// real NVRTC is in ptx_code_nvrtc_test.cpp.
#include "policy/identical_code.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>

#include "cuda/fake_compiler.hpp"

using namespace kforecast;
using namespace kforecast::policy;
using Catch::Matchers::Contains;

namespace {

// A unit whose source contains "BODY=x" compiles to one kernel entry whose body is x; a source
// containing "SYNTAX ERROR" fails.
Result<cuda::CompileOutput> fake_compile(const cuda::CompileRequest& request) {
  if (request.source.find("SYNTAX ERROR") != std::string::npos)
    return fail(ExitCode::could_not_run, "kernel.cu(1): error: expected a ';'");
  const auto at = request.source.find("BODY=");
  const std::string body = at == std::string::npos ? "" : request.source.substr(at + 5, 3);
  cuda::CompileOutput output;
  output.ptx = ".version 9.0\n.target sm_90\n";
  for (const auto& expression : request.name_expressions) {
    const std::string lowered = "_Z" + expression;
    output.ptx += ".visible .entry " + lowered + "(\n)\n{\n" + body + ";\n}\n";
    output.lowered_names.push_back({expression, lowered});
  }
  return output;
}

CompileUnit unit(std::string source) { return {"kernel.cu", std::move(source), {}, {}, {}}; }

}  // namespace

TEST_CASE("policy: identical code compares each kernel once both sides compile") {
  cuda::FakeCompiler compiler(fake_compile);
  const std::vector<KernelToCompare> kernels{{"k", "k"}, {"old_name", "new_name"}};
  auto same = compare_kernel_code(compiler, unit("BODY=abc"), unit("// comment\nBODY=abc"), kernels, {});
  REQUIRE(same.size() == 2);
  CHECK(same[0].comparison == CodeComparison::identical);
  CHECK(same[1].comparison == CodeComparison::identical);  // a rename with equal code
  auto changed = compare_kernel_code(compiler, unit("BODY=abc"), unit("BODY=abd"), kernels, {});
  CHECK(changed[0].comparison == CodeComparison::different);
  SECTION("both units are compiled for the target's virtual architecture, with the name expressions") {
    REQUIRE(compiler.requests().size() >= 2);
    CHECK(compiler.requests()[0].arch == "compute_90");
    CHECK(compiler.requests()[0].name_expressions.size() == 2);
  }
}

TEST_CASE("policy: a side that does not compile is reported per kernel") {
  cuda::FakeCompiler compiler(fake_compile);
  const std::vector<KernelToCompare> kernels{{"k", "k"}};
  auto head_broken = compare_kernel_code(compiler, unit("BODY=abc"), unit("SYNTAX ERROR"), kernels, {});
  CHECK(head_broken[0].comparison == CodeComparison::head_failed);
  CHECK_THAT(head_broken[0].detail, Contains("expected a ';'"));
  auto base_broken = compare_kernel_code(compiler, unit("SYNTAX ERROR"), unit("BODY=abc"), kernels, {});
  CHECK(base_broken[0].comparison == CodeComparison::base_failed);
}

TEST_CASE("policy: the PTX cache makes a re-run compile nothing") {
  const auto directory = std::filesystem::temp_directory_path() / ("kf-ptx-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  const PtxCache cache(directory);
  const std::vector<KernelToCompare> kernels{{"k", "k"}};
  cuda::FakeCompiler first(fake_compile);
  auto cold = compare_kernel_code(first, unit("BODY=abc"), unit("BODY=abd"), kernels, {.cache = &cache});
  CHECK(first.requests().size() == 2);
  cuda::FakeCompiler second(fake_compile);
  auto warm = compare_kernel_code(second, unit("BODY=abc"), unit("BODY=abd"), kernels, {.cache = &cache});
  CHECK(second.requests().empty());
  CHECK(warm[0].comparison == cold[0].comparison);
  SECTION("a different option, header or compiler version is a different key") {
    cuda::CompileRequest request{.source = "x"};
    const std::string key = PtxCache::key(request, {13, 0});
    CHECK(PtxCache::key(request, {13, 1}) != key);
    request.options = {"-DX"};
    CHECK(PtxCache::key(request, {13, 0}) != key);
    cuda::CompileRequest with_header{.source = "x", .headers = {{"a.cuh", "int a;"}}};
    CHECK(PtxCache::key(with_header, {13, 0}) != key);
    CHECK(key.size() == 32);
  }
  std::filesystem::remove_all(directory);
}

TEST_CASE("policy: where the cache lives") {
  CHECK(default_ptx_cache_directory(fixed_environment({{"XDG_CACHE_HOME", "/c"}, {"HOME", "/h"}})) ==
        std::filesystem::path("/c/kforecast/ptx"));
  CHECK(default_ptx_cache_directory(fixed_environment({{"HOME", "/h"}})) ==
        std::filesystem::path("/h/.cache/kforecast/ptx"));
  CHECK_FALSE(default_ptx_cache_directory(fixed_environment({})).has_value());
}
