// SPDX-License-Identifier: Apache-2.0
#include "cuda/check.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::cuda;

namespace {

CUresult fake_error_name(CUresult code, const char** name) {
  if (code == 100) {
    *name = "CUDA_ERROR_NO_DEVICE";
    return CUDA_SUCCESS;
  }
  *name = nullptr;
  return 1;
}

CUresult stub_error_name(CUresult, const char** name) {
  *name = nullptr;
  return CUDA_ERROR_STUB_LIBRARY;
}

const char* fake_nvrtc_error_string(nvrtcResult code) {
  return code == NVRTC_ERROR_COMPILATION ? "NVRTC_ERROR_COMPILATION" : "unrecognized error code";
}

CUresult device_count(int* count) {
  *count = 0;
  return CUDA_ERROR_NO_DEVICE;
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cuda: KF_CU_CALL") {
  DriverApi api;
  api.cuGetErrorName = fake_error_name;
  api.cuDeviceGetCount = device_count;

  SECTION("success is an empty Result") { CHECK(KF_CU_CALL(api, CUDA_SUCCESS).has_value()); }
  SECTION("a failure names the call, the result, the place and what to do") {
    int count = -1;
    const int line = __LINE__ + 1;
    auto result = KF_CU_CALL(api, api.cuDeviceGetCount(&count));
    REQUIRE_FALSE(result.has_value());
    const auto& message = result.error().message;
    CHECK(contains(message, "cuDeviceGetCount(&count) failed"));
    CHECK_FALSE(contains(message, "api."));
    CHECK(contains(message, "CUDA_ERROR_NO_DEVICE (100)"));
    CHECK(contains(message, "check_test.cpp:" + std::to_string(line)));
    CHECK(contains(message, "check CUDA_VISIBLE_DEVICES or run on a GPU runner"));
    CHECK(result.error().exit_code == ExitCode::could_not_run);

    const auto last = last_failed_call();
    REQUIRE(last.has_value());
    CHECK(last->api == Api::driver);
    CHECK(last->call == "cuDeviceGetCount(&count)");
    CHECK(last->code == 100);
    CHECK(last->code_name == "CUDA_ERROR_NO_DEVICE");
    CHECK(last->place == "tests/cuda/check_test.cpp:" + std::to_string(line));
  }
  SECTION("a library that cannot name the code falls back to a built-in name, then the number") {
    api.cuGetErrorName = stub_error_name;
    CHECK(driver_result_name(api, 34) == "CUDA_ERROR_STUB_LIBRARY");
    CHECK(driver_result_name(api, 4242) == "CUresult 4242");
    api.cuGetErrorName = nullptr;
    auto result = KF_CU_CALL(api, 4242);
    REQUIRE_FALSE(result.has_value());
    CHECK(contains(result.error().message, "4242 failed: CUresult 4242 at "));
    CHECK_FALSE(contains(result.error().message, "(4242)"));
  }
}

TEST_CASE("cuda: KF_NVRTC_CALL") {
  NvrtcApi api;
  api.nvrtcGetErrorString = fake_nvrtc_error_string;
  SECTION("a failed compile points at the compile log") {
    auto result = KF_NVRTC_CALL(api, NVRTC_ERROR_COMPILATION);
    REQUIRE_FALSE(result.has_value());
    CHECK(contains(result.error().message, "NVRTC_ERROR_COMPILATION (6)"));
    CHECK(contains(result.error().message, "see the compile log"));
    CHECK(last_failed_call()->api == Api::nvrtc);
  }
  SECTION("an unknown code is its number") { CHECK(nvrtc_result_name(api, 99) == "nvrtcResult 99"); }
}

TEST_CASE("cuda: hint_for") {
  CHECK(hint_for("CUDA_ERROR_INVALID_PTX").find("compile log") != std::string_view::npos);
  CHECK(hint_for("CUDA_ERROR_STUB_LIBRARY").find("stub") != std::string_view::npos);
  CHECK(hint_for("CUDA_ERROR_SOMETHING_NEW").empty());
}
