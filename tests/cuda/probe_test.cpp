// SPDX-License-Identifier: Apache-2.0
#include "cuda/probe.hpp"

#include <catch2/catch.hpp>

#include "cuda/fake_compiler.hpp"
#include "cuda/fake_driver.hpp"

using namespace kforecast;
using namespace kforecast::cuda;

namespace {

LoadedCompiler fake_nvrtc() { return std::make_unique<FakeCompiler>(); }

LoadedDriver loaded(std::unique_ptr<FakeDriver> driver) { return std::unique_ptr<Driver>(std::move(driver)); }

Unavailable no_nvrtc() {
  return {"NVRTC not found",
          "compiler facts and benchmarks unavailable",
          "install the CUDA toolkit's NVRTC or set cuda.nvrtc_library / KFORECAST_NVRTC_LIBRARY",
          {{"/usr/local/cuda/lib64/libnvrtc.so.13", "cannot open shared object file"}}};
}

Unavailable no_driver() {
  return {"libcuda.so.1 not found", "benchmarks skipped", "install the NVIDIA driver or run on a GPU runner", {}};
}

}  // namespace

TEST_CASE("cuda: probe_cuda") {
  SECTION("NVRTC and two GPUs") {
    auto status =
        probe_cuda(fake_nvrtc(), loaded(std::make_unique<FakeDriver>(std::vector{fake_h100(0), fake_h100(1)})));
    REQUIRE(status.nvrtc.has_value());
    CHECK(status.nvrtc->version == NvrtcVersion{13, 0});
    CHECK(status.nvrtc->supported_archs.front() == 75);
    REQUIRE(status.driver.has_value());
    CHECK(status.driver->version.text() == "12.8");
    CHECK(status.driver->devices.size() == 2);
    CHECK(describe_cuda_status(status) ==
          std::vector<StatusLine>{
              {"nvrtc", "13.0 at /usr/local/cuda/lib64/libnvrtc.so.13 (sm_75 ... sm_120)"},
              {"driver", "CUDA 12.8 driver API at /usr/lib/x86_64-linux-gnu/libcuda.so.1"},
              {"gpu 0", "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.2 GiB, L2 50.0 MiB, 227 KiB shared per block"},
              {"gpu 1", "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.2 GiB, L2 50.0 MiB, 227 KiB shared per block"},
          });
  }
  SECTION("the driver's own version, where NVML gives it, comes first") {
    auto status =
        probe_cuda(fake_nvrtc(), loaded(std::make_unique<FakeDriver>(std::vector{fake_h100(0)})), "580.159.04");
    REQUIRE(status.driver.has_value());
    CHECK(status.driver->package_version == "580.159.04");
    CHECK(describe_cuda_status(status)[1] ==
          StatusLine{"driver", "580.159.04, CUDA 12.8 driver API at /usr/lib/x86_64-linux-gnu/libcuda.so.1"});
  }
  SECTION("nothing available: each line says why and what to do") {
    auto status = probe_cuda(LoadedCompiler(std::unexpected(no_nvrtc())), LoadedDriver(std::unexpected(no_driver())));
    CHECK_FALSE(status.nvrtc.has_value());
    CHECK_FALSE(status.driver.has_value());
    CHECK(describe_cuda_status(status) ==
          std::vector<StatusLine>{
              {"nvrtc",
               "not available: NVRTC not found (tried /usr/local/cuda/lib64/libnvrtc.so.13): compiler facts and "
               "benchmarks unavailable; install the CUDA toolkit's NVRTC or set cuda.nvrtc_library / "
               "KFORECAST_NVRTC_LIBRARY"},
              {"gpu",
               "none: libcuda.so.1 not found: benchmarks skipped; install the NVIDIA driver or run on a GPU runner"},
          });
  }
  SECTION("a driver without devices is no GPU") {
    auto status = probe_cuda(fake_nvrtc(), loaded(std::make_unique<FakeDriver>()));
    REQUIRE_FALSE(status.driver.has_value());
    CHECK(status.driver.error().message() ==
          "CUDA driver 12.8 reports no device: benchmarks skipped; check CUDA_VISIBLE_DEVICES or run on a GPU runner");
  }
  SECTION("a driver that cannot list its devices is no GPU, with the failing call") {
    auto driver = std::make_unique<FakeDriver>(std::vector{fake_h100()});
    driver->fail_devices(
        Error{"cuDeviceGetCount(&count) failed: CUDA_ERROR_UNKNOWN (999) at src/cuda/cuda_driver.cpp:1"});
    auto status = probe_cuda(fake_nvrtc(), loaded(std::move(driver)));
    REQUIRE_FALSE(status.driver.has_value());
    CHECK(status.driver.error().message().find("cuDeviceGetCount(&count) failed: CUDA_ERROR_UNKNOWN") !=
          std::string::npos);
  }
}

TEST_CASE("cuda: FakeDriver and FakeCompiler") {
  FakeDriver driver({fake_h100()});
  CHECK(driver.check_context(0).has_value());
  CHECK_FALSE(driver.check_context(1).has_value());
  driver.fail_context(Error{"cuDevicePrimaryCtxRetain failed"});
  CHECK_FALSE(driver.check_context(0).has_value());

  FakeCompiler compiler([](const CompileRequest& request) -> Result<CompileOutput> {
    if (request.source.empty()) return fail(ExitCode::could_not_run, "empty source");
    CompileOutput output;
    output.functions = parse_ptxas_report(
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
        "ptxas info    : Used 34 registers\n");
    return output;
  });
  CHECK_FALSE(compiler.compile({}).has_value());
  auto output = compiler.compile({.source = "__global__ void k() {}"});
  REQUIRE(output.has_value());
  CHECK(output->functions.at(0).registers == 34);
  CHECK(compiler.requests().size() == 2);
}
