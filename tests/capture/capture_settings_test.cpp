// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <map>

#include "capture/injection/capture_settings.hpp"
#include "capture/injection/library_loading.hpp"

using namespace kforecast::capture::injection;

namespace {
EnvironmentLookup environment(std::map<std::string, std::string, std::less<>> variables) {
  return [variables = std::move(variables)](std::string_view name) -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}
}  // namespace

TEST_CASE("capture settings: defaults and the variables the capture command sets") {
  const auto defaults = read_capture_settings(environment({}));
  CHECK(defaults.dir == ".kforecast/captures");
  CHECK(defaults.launches_per_shape == 1);
  CHECK(defaults.byte_budget == 256u << 20);
  CHECK(defaults.kernels == "*");
  CHECK(defaults.problems.empty());
  const auto set = read_capture_settings(environment({{"KFORECAST_CAPTURE_DIR", "/tmp/c"},
                                                      {"KFORECAST_CAPTURE_LAUNCHES_PER_SHAPE", "3"},
                                                      {"KFORECAST_CAPTURE_BYTES", "1G"},
                                                      {"KFORECAST_CAPTURE_KERNELS", "*gemm*"}}));
  CHECK(set.dir == "/tmp/c");
  CHECK(set.launches_per_shape == 3);
  CHECK(set.byte_budget == std::uint64_t{1} << 30);
  CHECK(set.kernels == "*gemm*");
}

TEST_CASE("capture settings: a value not understood keeps the default and says so") {
  const auto settings = read_capture_settings(
      environment({{"KFORECAST_CAPTURE_LAUNCHES_PER_SHAPE", "0"}, {"KFORECAST_CAPTURE_BYTES", "lots"}}));
  CHECK(settings.launches_per_shape == 1);
  CHECK(settings.byte_budget == 256u << 20);
  REQUIRE(settings.problems.size() == 2);
  CHECK_THAT(settings.problems[0], Catch::Matchers::Contains("KFORECAST_CAPTURE_LAUNCHES_PER_SHAPE='0'"));
  CHECK_THAT(settings.problems[1], Catch::Matchers::Contains("KFORECAST_CAPTURE_BYTES='lots'"));
}

TEST_CASE("capture settings: byte sizes") {
  CHECK(parse_byte_size("4096") == 4096u);
  CHECK(parse_byte_size("64K") == 65536u);
  CHECK(parse_byte_size("256M") == 256u << 20);
  CHECK(parse_byte_size("256MiB") == 256u << 20);
  CHECK(parse_byte_size("2G") == std::uint64_t{2} << 30);
  CHECK(parse_byte_size("0") == 0u);
  CHECK_FALSE(parse_byte_size(""));
  CHECK_FALSE(parse_byte_size("M"));
  CHECK_FALSE(parse_byte_size("12T"));
  CHECK_FALSE(parse_byte_size("-1"));
  CHECK_FALSE(parse_byte_size("99999999999999999999G"));
  CHECK_FALSE(parse_byte_size("17179869184G"));  // overflows 64 bits once shifted
}

TEST_CASE("capture settings: the kernel glob matches the mangled or the demangled name") {
  CHECK(kernel_selected("*", "_Z1kv", "k()"));
  CHECK(kernel_selected("*gemm*", "_Z4gemmPf", "gemm(float*)"));
  CHECK(kernel_selected("void fixture::axpy*", "_ZN7fixture4axpyIfEEvT_", "void fixture::axpy<float>(float)"));
  CHECK_FALSE(kernel_selected("*gemm*", "_Z4axpyPf", "axpy(float*)"));
}

TEST_CASE("capture library loading: where libcupti is looked for, in order") {
  const auto candidates = cupti_candidates(
      environment({{"KFORECAST_CAPTURE_CUPTI", "/opt/cupti/libcupti.so.13"}, {"CUDA_HOME", "/opt/cuda"}}));
  REQUIRE(candidates.size() > 4);
  CHECK(candidates[0] == "/opt/cupti/libcupti.so.13");
  CHECK(candidates[1] == "libcupti.so");  // the loader's own search path next
  auto position = [&](const std::string& path) { return std::ranges::find(candidates, path) - candidates.begin(); };
  CHECK(position("/opt/cuda/extras/CUPTI/lib64/libcupti.so") < position("/usr/local/cuda/lib64/libcupti.so"));
  CHECK(position("/usr/local/cuda/lib64/libcupti.so") < static_cast<long>(candidates.size()));
}
