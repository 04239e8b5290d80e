// SPDX-License-Identifier: Apache-2.0
// The reader and the comparison on real nvcc output: small sources compiled at two "revisions"
// (the same file with -D switches, or edited), as kforecast compiles a pull request's base and
// head. Skipped where nvcc is not installed.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "base/subprocess.hpp"
#include "cubin/cubin_kernel.hpp"
#include "cubin/kernel_difference.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace kforecast::cubin;

namespace {

// One translation unit, its parts switched by macros so that each "revision" is a -D flag.
// `staged` indexes its buffer without its size, so changing SHARED leaves the code alone.
constexpr std::string_view unit_source = R"(
#ifndef BOUNDS
#define BOUNDS 256
#endif
#ifndef SHARED
#define SHARED 256
#endif
#ifndef HELPER_SCALE
#define HELPER_SCALE 2.0f
#endif
namespace { struct Local { float v; }; }
__device__ __noinline__ float helper(float x) { return x * HELPER_SCALE + 1.0f; }
template <int N> __global__ void tiled(float* out, const float* in, int n) {
  __shared__ float tile[N];
  int i = blockIdx.x * N + threadIdx.x;
  if (i < n) tile[threadIdx.x] = in[i];
  __syncthreads();
  if (i < n) out[i] = tile[N - 1 - threadIdx.x];
}
template __global__ void tiled<64>(float*, const float*, int);
namespace ns { __global__ void __launch_bounds__(BOUNDS) k(int* p) { p[threadIdx.x] += 1; } }
__global__ void staged(float* p) {
  __shared__ float buffer[SHARED];
  buffer[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = buffer[threadIdx.x ^ 1];
}
__global__ void caller(float* p) { p[threadIdx.x] = helper(p[threadIdx.x]); }
template <class T> __global__ void withlocal(T t, float* o) { o[threadIdx.x] = t.v; }
template __global__ void withlocal<Local>(Local, float*);
#ifdef EXTRA_KERNEL
__global__ void unrelated(int* q) { q[blockIdx.x] = 7; }
#endif
)";

// Kernels that read module data: a __constant__ array (constant bank 3), a __device__ variable,
// printf's format string and assert's message (through addresses in constant bank 4, one of them
// loaded by an instruction whose offset a MOV sets). MORE_GLOBALS adds globals and a kernel
// ahead of them, which moves every address they read and changes none of their sources. Each
// build's file lies in a folder of its own: #line gives assert one file name for all of them.
constexpr std::string_view globals_source = R"(#line 1 "g.cu"
#include <cassert>
#include <cstdio>
#ifndef COEFF
#define COEFF 1
#endif
#ifdef MORE_GLOBALS
__constant__ float added_table[8];
__device__ int added_counter;
__global__ void added(float* p) {
  p[threadIdx.x] = added_table[threadIdx.x & 7];
  atomicAdd(&added_counter, 1);
  printf("added %d\n", 1);
  assert(p[0] > 0.0f);
}
#endif
__constant__ float coeffs[4];
__device__ int counter;
__global__ void scales(float* out, float x) { out[threadIdx.x] = x * coeffs[COEFF] + coeffs[3]; }
__global__ void counts(float* out) { out[atomicAdd(&counter, 1)] = 1.0f; }
__global__ void reports(float* out, int n) {
  if (n > 3) printf("n is %d\n", n);
  assert(n < 100);
  out[0] = n;
}
)";

// The same code with comments and blank lines: a different file to nvcc's anonymous-namespace hash.
std::string commented(std::string_view source) {
  std::string out = "// A comment-only change.\n\n";
  for (const char c : source) {
    out += c;
    if (c == '\n') out += "  // more commentary\n";
  }
  return out;
}

// The source with ns::k renamed ns::k_renamed, nothing else changed.
std::string renamed_k() {
  std::string source(unit_source);
  const std::string from = " k(int* p)";
  source.replace(source.find(from), from.size(), " k_renamed(int* p)");
  return source;
}

struct Build {
  std::string file_name;
  std::string source;
  std::vector<std::string> flags;
};

class Builds {
 public:
  Builds() {
    m_nvcc = kforecast::testing::nvcc_for_tests();
    // A relocatable build's file type differs from a whole-program one's: only its readability is checked.
    for (const auto& [name, build] : std::map<std::string, Build>{
             {"base", {"a.cu", std::string(unit_source), {}}},
             {"comments", {"renamed_b.cu", commented(unit_source), {}}},
             {"extra_kernel", {"a.cu", std::string(unit_source), {"-DEXTRA_KERNEL"}}},
             {"bounds", {"a.cu", std::string(unit_source), {"-DBOUNDS=128"}}},
             {"shared", {"a.cu", std::string(unit_source), {"-DSHARED=512"}}},
             {"callee", {"a.cu", std::string(unit_source), {"-DHELPER_SCALE=3.0f"}}},
             {"lineinfo", {"a.cu", std::string(unit_source), {"-lineinfo"}}},
             {"relocatable", {"a.cu", std::string(unit_source), {"-rdc=true"}}},
             {"renamed_kernel", {"a.cu", renamed_k(), {}}},
             {"globals", {"g.cu", std::string(globals_source), {}}},
             {"globals_moved", {"g.cu", std::string(globals_source), {"-DMORE_GLOBALS"}}},
             {"globals_other_constant", {"g.cu", std::string(globals_source), {"-DCOEFF=0"}}},
         })
      m_kernels[name] = compile(name, build);
  }
  const std::vector<CubinKernel>& operator[](const std::string& name) const { return m_kernels.at(name); }

 private:
  std::vector<CubinKernel> compile(const std::string& name, const Build& build) {
    const auto folder = m_dir.path() / name;
    fs::create_directories(folder);
    const auto source = folder / build.file_name;
    std::ofstream(source) << build.source;
    const auto cubin = folder / "out.cubin";
    std::vector<std::string> argv{m_nvcc.string(), "-cubin", "-arch=sm_90", "-o", cubin.string()};
    argv.insert(argv.end(), build.flags.begin(), build.flags.end());
    argv.push_back(source.string());
    auto run = kforecast::run_process(argv);
    REQUIRE(run.has_value());
    INFO(run->err);
    REQUIRE(run->exit_status == 0);
    std::ifstream in(cubin, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto* data = reinterpret_cast<const std::byte*>(text.data());
    auto kernels = read_cubin_kernels(std::span<const std::byte>(data, text.size()));
    INFO(name << ": " << (kernels ? std::string() : kernels.error().message));
    REQUIRE(kernels.has_value());
    return *kernels;
  }

  kforecast::testing::TempDir m_dir;
  fs::path m_nvcc;
  std::map<std::string, std::vector<CubinKernel>> m_kernels;
};

const Builds& builds() {
  static const Builds compiled;
  return compiled;
}

const CubinKernel& kernel_named(const std::vector<CubinKernel>& kernels, std::string_view name) {
  const auto it = std::find_if(kernels.begin(), kernels.end(), [&](const CubinKernel& k) { return k.name == name; });
  REQUIRE(it != kernels.end());
  return *it;
}

// The reasons each kernel of `head` differs from its base, by name; paired kernels only.
std::map<std::string, std::optional<std::string>> differences(const std::vector<CubinKernel>& base,
                                                              const std::vector<CubinKernel>& head) {
  std::map<std::string, std::optional<std::string>> result;
  for (const auto& pair : pair_kernels(base, head).paired)
    result[pair.head->name] = kernel_difference(*pair.base, *pair.head);
  return result;
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvcc(); }

TEST_CASE("cubin nvcc: names, template arguments and facts of a real cubin") {
  const auto& base = builds()["base"];
  CHECK(base.size() == 5);
  const auto& tiled = kernel_named(base, "tiled");
  CHECK(tiled.symbol == "_Z5tiledILi64EEvPfPKfi");
  CHECK(tiled.signature == "void tiled<64>(float*, float const*, int)");
  CHECK(tiled.template_arguments == "<64>");
  CHECK(tiled.registers > 0);
  CHECK(tiled.instructions > 0);
  // 64 floats, plus the 1 KiB sm_90 reserves for the system.
  CHECK(tiled.static_shared_bytes == 64 * 4 + 1024);
  const auto& k = kernel_named(base, "ns::k");
  CHECK(k.signature == "ns::k(int*)");
  CHECK(k.template_arguments.empty());
  CHECK(k.max_threads == 256u);
  CHECK(k.register_limit == 255u);
  CHECK_FALSE(tiled.max_threads.has_value());
  // nvcc clones the __noinline__ helper into its caller's text section.
  const auto& caller = kernel_named(base, "caller");
  REQUIRE(caller.callees.size() == 1);
  CHECK(caller.callees[0]->name == "_Z6helperf");
}

TEST_CASE("cubin nvcc: a comment-only change in a renamed file leaves every kernel identical") {
  const auto& base = builds()["base"];
  const auto& head = builds()["comments"];
  const auto pairs = pair_kernels(base, head);
  CHECK(pairs.added.empty());
  CHECK(pairs.removed.empty());
  for (const auto& [name, reason] : differences(base, head)) {
    INFO(name << ": " << reason.value_or("identical"));
    CHECK_FALSE(reason.has_value());
  }
  // The kernel templated on a file-local type pairs although its mangled name changed.
  const auto& before = kernel_named(base, "withlocal");
  const auto& after = kernel_named(head, "withlocal");
  CHECK(before.symbol != after.symbol);
  CHECK(before.normalized_symbol == after.normalized_symbol);
  CHECK(before.normalized_symbol == "_Z9withlocalIN12_GLOBAL__N_15LocalEEvT_Pf");
  CHECK(after.signature == "void withlocal<(anonymous namespace)::Local>((anonymous namespace)::Local, float*)");
}

TEST_CASE("cubin nvcc: a kernel renamed with its code unchanged compares identical to its old self") {
  const auto& before = kernel_named(builds()["base"], "ns::k");
  const auto& after = kernel_named(builds()["renamed_kernel"], "ns::k_renamed");
  CHECK(before.normalized_symbol != after.normalized_symbol);
  const auto difference = kernel_difference(before, after);
  INFO(difference.value_or("identical"));
  CHECK_FALSE(difference.has_value());
}

TEST_CASE("cubin nvcc: an unrelated kernel added leaves the others identical") {
  const auto& base = builds()["base"];
  const auto& head = builds()["extra_kernel"];
  const auto pairs = pair_kernels(base, head);
  REQUIRE(pairs.added.size() == 1);
  CHECK(pairs.added[0]->name == "unrelated");
  CHECK(pairs.removed.empty());
  for (const auto& [name, reason] : differences(base, head)) {
    INFO(name << ": " << reason.value_or("identical"));
    CHECK_FALSE(reason.has_value());
  }
}

TEST_CASE("cubin nvcc: a change shows in the kernel it concerns, and only there") {
  SECTION("__launch_bounds__") {
    const auto found = differences(builds()["base"], builds()["bounds"]);
    REQUIRE(found.at("ns::k").has_value());
    CHECK(found.at("ns::k")->find("launch bounds 256 → 128 threads") != std::string::npos);
    for (const auto& [name, reason] : found)
      if (name != "ns::k") CHECK_FALSE(reason.has_value());
  }
  SECTION("a __shared__ array's size") {
    const auto found = differences(builds()["base"], builds()["shared"]);
    REQUIRE(found.at("staged").has_value());
    CHECK(found.at("staged")->find("static shared memory 2048 → 3072 bytes") != std::string::npos);
    for (const auto& [name, reason] : found)
      if (name != "staged") CHECK_FALSE(reason.has_value());
  }
  SECTION("a __noinline__ callee only") {
    const auto found = differences(builds()["base"], builds()["callee"]);
    REQUIRE(found.at("caller").has_value());
    CHECK(found.at("caller")->find("callee _Z6helperf changed") != std::string::npos);
    for (const auto& [name, reason] : found)
      if (name != "caller") CHECK_FALSE(reason.has_value());
  }
}

TEST_CASE("cubin nvcc: globals added ahead of a kernel's move its addresses, not its code") {
  const auto& base = builds()["globals"];
  const auto& head = builds()["globals_moved"];
  // The shift is real: the instructions that address module data hold other offsets.
  CHECK(kernel_named(base, "counts").body.code != kernel_named(head, "counts").body.code);
  CHECK(kernel_named(base, "reports").body.code != kernel_named(head, "reports").body.code);
  CHECK(kernel_named(base, "scales").body.code != kernel_named(head, "scales").body.code);
  // printf and assert call through an address whose offset a MOV sets: a reference too.
  const auto& references = kernel_named(base, "reports").body.module_references;
  CHECK(std::any_of(references.begin(), references.end(),
                    [](const ModuleReference& r) { return r.field == AddressField::move_immediate; }));
  const auto pairs = pair_kernels(base, head);
  CHECK(pairs.paired.size() == 3);
  for (const auto& pair : pairs.paired) {
    const auto difference = kernel_difference(*pair.base, *pair.head, ModuleData::ignore);
    INFO(pair.head->name << ": " << difference.value_or("identical"));
    CHECK_FALSE(difference.has_value());
    // The data itself moved: a verdict that weighs module data still says so.
    CHECK(kernel_difference(*pair.base, *pair.head).has_value());
  }
}

TEST_CASE("cubin nvcc: a kernel that reads another element of a __constant__ array differs") {
  for (const auto& pair : pair_kernels(builds()["globals"], builds()["globals_other_constant"]).paired) {
    const auto difference = kernel_difference(*pair.base, *pair.head, ModuleData::ignore);
    INFO(pair.head->name << ": " << difference.value_or("identical"));
    if (pair.head->name == "scales")
      CHECK(difference.value_or("").starts_with("code differs"));
    else
      CHECK_FALSE(difference.has_value());
  }
}

TEST_CASE("cubin nvcc: -lineinfo changes nothing that is compared") {
  for (const auto& [name, reason] : differences(builds()["base"], builds()["lineinfo"])) {
    INFO(name << ": " << reason.value_or("identical"));
    CHECK_FALSE(reason.has_value());
  }
}

TEST_CASE("cubin nvcc: a relocatable (-rdc=true) cubin is readable") {
  const auto& kernels = builds()["relocatable"];
  CHECK(kernels.size() == 5);
  // The helper is a function of its own there, reached through the caller's relocations.
  const auto& caller = kernel_named(kernels, "caller");
  const auto helper =
      std::find_if(caller.callees.begin(), caller.callees.end(), [](const auto& f) { return f->name == "_Z6helperf"; });
  CHECK(helper != caller.callees.end());
  // A kernel of internal linkage gets a prefix there that holds the file's hash and name.
  const auto& withlocal = kernel_named(kernels, "withlocal");
  CHECK(withlocal.symbol.starts_with("__nv_static_"));
  CHECK(withlocal.normalized_symbol == "__nv_static___Z9withlocalIN12_GLOBAL__N_15LocalEEvT_Pf");
  CHECK(withlocal.template_arguments == "<(anonymous namespace)::Local>");
}
