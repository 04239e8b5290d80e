// SPDX-License-Identifier: Apache-2.0
#include "cuda/compiled_resources.hpp"

#include <catch2/catch.hpp>

#include "cubin/synthetic_cubin.hpp"

using namespace kforecast::cuda;
using kforecast::testing::Bytes;
using kforecast::testing::synthetic_cubin;

namespace {

// ptxas 11.8's report of a kernel with one barrier and a 256-byte stack, as NVRTC 11.8 logs it:
// no "used 1 barriers", no "cumulative stack size".
constexpr std::string_view report_11_8 =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'tiled' for 'sm_90'\n"
    "ptxas info    : Function properties for tiled\n"
    "ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 32 registers, 1024 bytes smem\n";

// The same kernel's report from ptxas 12.9 and 13.0.
constexpr std::string_view report_12 =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'tiled' for 'sm_90'\n"
    "ptxas info    : Function properties for tiled\n"
    "ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 1 barriers, 256 bytes cumulative stack size, 1024 bytes smem\n";

// The kernel's cubin as CUDA 11.8 and 12 write it: one barrier in the text section's flags.
Bytes tiled_cubin() { return synthetic_cubin({{.symbol = "tiled", .text_flags = 0x100006, .min_stack = 256}}); }

}  // namespace

TEST_CASE("cuda: compiled_resources completes ptxas 11.8's report from the cubin") {
  const auto functions = compiled_resources(report_11_8, tiled_cubin());
  const auto* tiled = find_function(functions, "tiled");
  REQUIRE(tiled != nullptr);
  CHECK(tiled->barriers == 1);
  CHECK(tiled->cumulative_stack_bytes == 256);
  CHECK(tiled->stack_frame_bytes == 256);
  CHECK(tiled->registers == 32);
  // Every NVRTC version gives the same facts for the same code.
  CHECK(functions == compiled_resources(report_12, tiled_cubin()));
}

TEST_CASE("cuda: compiled_resources keeps the report's figures and needs no cubin") {
  // The report's own counts stand: the cubin completes, it never overrides.
  const auto reported =
      compiled_resources(report_12, synthetic_cubin({{.symbol = "tiled", .text_flags = 0x300006, .min_stack = 512}}));
  REQUIRE(find_function(reported, "tiled") != nullptr);
  CHECK(find_function(reported, "tiled")->barriers == 1);
  CHECK(find_function(reported, "tiled")->cumulative_stack_bytes == 256);
  // A compute_XX target has no cubin, and a cubin the reader refuses adds nothing.
  CHECK(compiled_resources(report_11_8, {}) == parse_ptxas_report(report_11_8));
  const Bytes garbage(64, std::byte{0x5a});
  CHECK(compiled_resources(report_11_8, garbage) == parse_ptxas_report(report_11_8));
}
