// SPDX-License-Identifier: Apache-2.0
// run_gate when a side does not compile: only a real break fails the gate (builds/compile_failure.hpp);
// missing context, or a kernel neither side compiles, is a note and the kernel is forecast.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "gate/run_gate.hpp"
#include "support/run_gate_harness.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using namespace kforecast::test;
using Catch::Matchers::Contains;

namespace {

// A compiler that fails on every source containing `marker` ("": every source), with `log` as its message, the way
// the confined NVRTC reports a failure ("FILE does not compile for ARCH:" and NVRTC's log).
cuda::FakeCompiler::Handler failing_on(std::string marker, std::string log) {
  return [marker = std::move(marker), log = std::move(log)](const cuda::CompileRequest& request) -> Result<cuda::CompileOutput> {
    if (request.source.find(marker) != std::string::npos)
      return fail(ExitCode::could_not_run, fmt::format("{} does not compile for compute_90:\n{}", request.file_name, log));
    return compile_by_length(request);
  };
}

bool has_note(const report::KernelEntry& entry, std::string_view text) {
  return std::ranges::any_of(entry.notes,
                             [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("run_gate: a head that no longer compiles, where the base did, fails the gate with the first error") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * undefined_z;")}};
  h.compile = failing_on("undefined_z", "k.cu(12): error: identifier \"undefined_z\" is undefined\n1 error detected");
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.verdict == report::KernelVerdict::fail);
  CHECK(has_note(entry, "the head does not compile for sm_90"));
  CHECK(has_note(entry, "k.cu(12): error: identifier \"undefined_z\" is undefined"));
  CHECK(h.forecasts_asked == 0);
}

TEST_CASE("run_gate: a head that needs a header the compiler cannot open is forecast, not failed") {
  // The shape of a merged commit that includes a host library's header (cuBLAS, NVTX) in a
  // kernel file: NVRTC has no C library, so the toolkit header's own #include fails. The
  // project builds it; kforecast lacks the context, which is no reason to fail the change.
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.compile = failing_on("x[i] * x[i]",
                         "/usr/local/cuda/include/cublas_api.h(68): catastrophic error: cannot open source file "
                         "\"stdint.h\"\n  #include <stdint.h>\n\n1 catastrophic error detected");
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.verdict != report::KernelVerdict::fail);
  CHECK(has_note(entry, "the head could not be compiled for sm_90 with the context kforecast has"));
  CHECK(has_note(entry, "\"stdint.h\""));
  CHECK(h.forecasts_asked == 1);
  CHECK_FALSE(any_failed(result->run));
}

TEST_CASE("run_gate: a kernel neither revision compiles is forecast, not failed") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.compile = failing_on("", "k.cu(40): error: identifier \"FILE\" is undefined\n1 error detected");
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.verdict != report::KernelVerdict::fail);
  CHECK(has_note(entry, "neither revision compiles for sm_90 with the context kforecast has"));
  CHECK(h.forecasts_asked == 1);
}
