// SPDX-License-Identifier: Apache-2.0
// The isolated compiler with the real NVRTC and kforecast's own binary as the child: code under
// review compiles as before, cannot read the runner's files or kforecast's environment, and a
// compiler that crashes, hangs or runs out of memory fails one compile, never the caller.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>

#include "base/process_confinement.hpp"
#include "base/subprocess.hpp"
#include "cuda/compile_child.hpp"
#include "cuda/compile_wire.hpp"
#include "cuda/isolated_compiler.hpp"
#include "cuda/library_search.hpp"
#include "cuda/nvrtc.hpp"
#include "support/cuda_requirements.hpp"

using namespace kforecast;
using namespace kforecast::cuda;
using Catch::Matchers::Contains;

namespace {

constexpr std::string_view planted_secret = "kf-isolation-secret-31337";

std::unique_ptr<Compiler> in_process_nvrtc() {
  auto compiler = kforecast::testing::load_test_nvrtc();
  REQUIRE(compiler);
  return std::move(*compiler);
}

IsolatedCompiler isolated(IsolationSettings settings = {}) {
  settings.program = KF_BINARY;
  if (const auto include = toolkit_include_dir(process_environment()); !include.empty())
    settings.roots.toolkit.emplace_back(include);
  return IsolatedCompiler(in_process_nvrtc(), std::move(settings));
}

CompileRequest kernel(std::string source) {
  CompileRequest request;
  request.source = std::move(source);
  request.file_name = "k.cu";
  request.name_expressions = {"k"};
  return request;
}

}  // namespace

TEST_CASE("cuda: the isolated compiler compiles as NVRTC does in process") {
  const auto compiler = isolated();
  auto request = kernel("#include <cuda_fp16.h>\n__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n");
  request.include_dirs = {toolkit_include_dir(process_environment())};
  auto output = compiler.compile(request);
  if (!output) FAIL(output.error().message);
  CHECK_THAT(output->ptx, Contains(".entry"));
  CHECK_FALSE(output->cubin.empty());
  REQUIRE(output->lowered_names.size() == 1);
  REQUIRE_FALSE(output->functions.empty());
  CHECK(output->functions.front().source_name == "k");
  CHECK(output->functions.front().registers > 0);

  auto broken = compiler.compile(kernel("__global__ void k() { undefined_name = 1; }\n"));
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error().message, Contains("undefined_name"));
}

TEST_CASE("cuda: the compiler child cannot read kforecast's environment even when asked directly") {
  // Past the include check (the request goes to the child as it is): the child's own
  // confinement must hold. The parent here is this test process, with a secret in its environment.
  ::setenv("KF_TEST_PLANTED_TOKEN", std::string(planted_secret).c_str(), 1);
  const bool confined = file_confinement_support().files_confined;
  const auto nvrtc = in_process_nvrtc();
  const std::string parent = std::to_string(::getpid());
  for (const std::string& path : {"/proc/" + parent + "/environ", std::string("/proc/self/environ"),
                                  "/proc/" + parent + "/cmdline", std::string("/etc/passwd")}) {
    INFO(path);
    auto request = kernel("#include \"" + path + "\"\n__global__ void k() {}\n");
    ProcessOptions options;
    options.input = encode_request(request);
    options.environment = compile_child_environment("/tmp", process_environment());
    options.timeout = std::chrono::seconds(120);
    std::vector<std::string> argv = {KF_BINARY, std::string(compile_child_command), "--nvrtc", nvrtc->library_path()};
    if (const auto include = toolkit_include_dir(process_environment()); !include.empty()) {
      argv.push_back("--read");
      argv.push_back(include);
    }
    auto ran = run_process(argv, options);
    REQUIRE(ran);
    INFO(ran->err);
    REQUIRE(ran->exit_status == 0);
    auto answer = decode_answer(ran->out);
    REQUIRE(answer);
    REQUIRE_FALSE(answer->output);
    CHECK_THAT(answer->output.error().message, !Contains(std::string(planted_secret)));
    CHECK_THAT(answer->output.error().message, !Contains("root:"));
    // Where Landlock confines the child it cannot even open the file; elsewhere it reads it, and
    // quoting only the request's own files (above) is what keeps the text out.
    if (confined) CHECK_THAT(answer->output.error().message, Contains("cannot open source file"));
  }
  if (!confined) WARN("Landlock is unavailable here: the child read the files; only the log filter was checked");
}

TEST_CASE("cuda: a compiler that runs out of memory or time fails that compile, not the caller") {
  SECTION("memory") {
    if (!address_space_limit_enforced()) {
      WARN("not checked in the sanitizer build, which runs children without an address-space limit");
      return;
    }
    IsolationSettings settings;
    settings.max_memory_bytes = std::uint64_t{64} << 20;  // NVRTC cannot even start in this
    auto output = isolated(settings).compile(kernel("__global__ void k() {}\n"));
    REQUIRE_FALSE(output);
    CHECK_THAT(output.error().message, Contains("NVRTC"));
  }
  SECTION("time") {
    IsolationSettings settings;
    settings.timeout = std::chrono::seconds(1);
    // A 50,000-term expression keeps NVRTC busy for about 14 s on the 2-core CI machine.
    std::string terms;
    for (int i = 0; i < 50000; ++i) terms += (i ? "+o[" : "o[") + std::to_string(i % 100) + "]";
    auto output = isolated(settings).compile(kernel("__global__ void k(int* o) { *o = " + terms + "; }\n"));
    REQUIRE_FALSE(output);
    CHECK_THAT(output.error().message, Contains("compiling k.cu for sm_90: the compiler was stopped"));
    CHECK_THAT(output.error().message, Contains("it ran past 1 s"));
  }
}
