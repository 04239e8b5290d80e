// SPDX-License-Identifier: Apache-2.0
// measure_pair on a simulated GPU (support/fake_device.hpp): the guard zones around every buffer
// catch a store a little outside it, name the side that made it, and blame a broken reference as
// such. The device places allocations back to back, as a real allocator does, so without the
// zones these stores would land in the next allocation and pass unseen.
#include "bench/runner.hpp"

#include <array>
#include <bit>

#include <catch2/catch.hpp>

#include "bench/host_buffers.hpp"
#include "bench/launch_spec_reader.hpp"
#include "cuda/fake_driver.hpp"
#include "support/fake_device.hpp"

using namespace kforecast;
using namespace kforecast::bench;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using testing::FakeDevice;
using testing::FakeLaunch;

namespace {

// n = 1000 with blocks of 256: the grid has 24 threads more than n, as `i <= n` needs to go wrong.
constexpr std::string_view copy_spec = R"spec([[kernel]]
name = "copy"
sizes = [{ n = 1000 }]
grid = ["ceil_div(n, 256)"]
block = [256]
[kernel.args]
x = { count = "n", init = "uniform(-1, 1)" }
y = { count = "n", role = "out" }
n = "n"
)spec";

const std::vector<kernels::Parameter> copy_parameters{
    {"const float*", "x", ""}, {"float*", "y", ""}, {"int", "n", ""}};

// y[i] = x[i] for i in [first, n + past_end): first = -1 or past_end = 1 is one float outside y.
FakeDevice::Kernel copy_kernel(int first = 0, int past_end = 0) {
  return [=](FakeLaunch& launch) {
    const auto x = launch.argument<cuda::CUdeviceptr>(0);
    const auto y = launch.argument<cuda::CUdeviceptr>(1);
    const int n = launch.argument<int>(2);
    for (int i = first; i < n + past_end && i < static_cast<int>(launch.threads()); ++i) {
      const auto offset = static_cast<cuda::CUdeviceptr>(static_cast<std::int64_t>(i) * 4);
      launch.store<float>(y + offset, i >= 0 && i < n ? launch.load<float>(x + offset) : 12345.0f);
    }
  };
}

// The support kernels' lane kind (bench/device_checks.hpp) as an element type of one lane.
ElementType type_of_kind(int kind) {
  static const std::array<ElementType, 12> types{
      ElementType{"float", ScalarKind::floating, 4, 1},          ElementType{"double", ScalarKind::floating, 8, 1},
      ElementType{"__half", ScalarKind::half, 2, 1},             ElementType{"__nv_bfloat16", ScalarKind::bfloat16, 2, 1},
      ElementType{"int8_t", ScalarKind::signed_integer, 1, 1},   ElementType{"int16_t", ScalarKind::signed_integer, 2, 1},
      ElementType{"int", ScalarKind::signed_integer, 4, 1},      ElementType{"int64_t", ScalarKind::signed_integer, 8, 1},
      ElementType{"uint8_t", ScalarKind::unsigned_integer, 1, 1}, ElementType{"uint16_t", ScalarKind::unsigned_integer, 2, 1},
      ElementType{"unsigned", ScalarKind::unsigned_integer, 4, 1}, ElementType{"uint64_t", ScalarKind::unsigned_integer, 8, 1}};
  return types.at(static_cast<std::size_t>(kind));
}

std::vector<std::byte> read_bytes(const FakeLaunch& launch, cuda::CUdeviceptr address, std::size_t count) {
  std::vector<std::byte> bytes(count);
  for (std::size_t i = 0; i < count; ++i) bytes[i] = launch.load<std::byte>(address + i);
  return bytes;
}

// kforecast_fill and kforecast_compare as the GPU runs them, through the host's own draws and
// comparison: the device's kernels are checked against these on a real GPU
// (tests/bench/runner_gpu_test.cpp), and the runner's logic around them here.
void fake_fill(FakeLaunch& launch) {
  ResolvedArgument argument;
  argument.type = type_of_kind(launch.argument<int>(2));
  argument.count = static_cast<std::int64_t>(launch.argument<unsigned long long>(1));
  argument.init.distribution = static_cast<Distribution>(launch.argument<int>(3));
  argument.init.a = launch.argument<double>(4);
  argument.init.b = launch.argument<double>(5);
  const auto out = launch.argument<cuda::CUdeviceptr>(0);
  const auto bytes = drawn_values(argument, launch.argument<unsigned long long>(6));
  for (std::size_t i = 0; i < bytes.size(); ++i) launch.store<std::byte>(out + i, bytes[i]);
}

void fake_compare(FakeLaunch& launch) {
  ResolvedArgument argument;
  argument.type = type_of_kind(launch.argument<int>(3));
  argument.count = static_cast<std::int64_t>(launch.argument<unsigned long long>(2));
  argument.rtol = launch.argument<double>(4);
  argument.atol = launch.argument<double>(5);
  const auto bytes = static_cast<std::size_t>(argument.bytes());
  const auto reference = read_bytes(launch, launch.argument<cuda::CUdeviceptr>(0), bytes);
  const auto candidate = read_bytes(launch, launch.argument<cuda::CUdeviceptr>(1), bytes);
  const Comparison c = compare_outputs(argument, reference, candidate);
  const auto result = launch.argument<cuda::CUdeviceptr>(6);
  launch.store<std::uint64_t>(result, static_cast<std::uint64_t>(c.mismatches));
  launch.store<std::uint64_t>(result + 8, c.mismatches ? static_cast<std::uint64_t>(c.first_mismatch) : ~std::uint64_t{0});
  launch.store<std::uint64_t>(result + 16, std::bit_cast<std::uint64_t>(c.max_abs_error));
  launch.store<std::uint64_t>(result + 24, std::bit_cast<std::uint64_t>(c.max_rel_error));
}

// Stores far outside every allocation: an illegal address.
void faulting_kernel(FakeLaunch& launch) { launch.store<float>(launch.argument<cuda::CUdeviceptr>(1) + (1ULL << 40), 1); }

struct Bench {
  FakeDevice device{[] {
    auto info = cuda::fake_h100();
    info.l2_cache_bytes = 1 << 20;  // a small flush buffer
    return info;
  }()};
  std::unique_ptr<Gpu> gpu;
  SupportKernels support;
  RunnerOptions options;
  LaunchSpec spec;

  Bench() {
    device.define_kernel(std::string(spin_kernel_name), [](FakeLaunch&) {}, 0.02);
    device.define_kernel(std::string(flush_kernel_name), [](FakeLaunch&) {}, 0.01);
    device.define_kernel(std::string(fill_kernel_name), fake_fill, 0.001);
    device.define_kernel(std::string(compare_kernel_name), fake_compare, 0.001);
    auto opened = Gpu::open(device.api(), device.info());
    if (!opened) FAIL(opened.error().message);
    gpu = std::move(*opened);
    support.spin = *gpu->load_function({}, std::string(spin_kernel_name));
    support.flush = *gpu->load_function({}, std::string(flush_kernel_name));
    support.fill = *gpu->load_function({}, std::string(fill_kernel_name));
    support.compare = *gpu->load_function({}, std::string(compare_kernel_name));
    options.warmup_ms = 0;
    auto specs = read_config_specs(copy_spec, ".kforecast.toml");
    if (!specs) FAIL(specs.error().message);
    spec = specs->front();
  }

  Measurement measure(const std::string& reference, FakeDevice::Kernel reference_kernel, const std::string& candidate,
                      FakeDevice::Kernel candidate_kernel) {
    device.define_kernel(reference, std::move(reference_kernel));
    device.define_kernel(candidate, std::move(candidate_kernel));
    const CompiledKernel base{"reference a.cu:" + reference, {}, reference, copy_parameters};
    const CompiledKernel head{"candidate b.cu:" + candidate, {}, candidate, copy_parameters};
    return measure_pair(*gpu, support, base, spec, head, spec, options);
  }
};

}  // namespace

TEST_CASE("bench fake device: a correct pair passes its guard zones and is timed") {
  Bench bench;
  const auto m = bench.measure("copy", copy_kernel(), "copy_too", copy_kernel());
  INFO(m.reason);
  CHECK(m.verdict == Verdict::same);
  CHECK(m.interval.speedup == Approx(1.0));
  REQUIRE(m.sizes.size() == 1);
  CHECK(m.sizes.front().checks.size() == 2);  // two seeds, one output
  CHECK(bench.device.launches("copy_too") > 2);  // timed beyond the correctness launches
}

TEST_CASE("bench fake device: inputs are drawn and outputs compared by the support kernels, not on the host") {
  // The fill and compare kernels run once per seed per buffer: nothing of a buffer crosses to the host.
  SECTION("a wrong element is found, with its values") {
    Bench bench;
    const auto wrong_at_17 = [](FakeLaunch& launch) {
      copy_kernel()(launch);
      launch.store<float>(launch.argument<cuda::CUdeviceptr>(1) + 17 * 4, 99.0f);
    };
    const auto m = bench.measure("copy", copy_kernel(), "copy_wrong", wrong_at_17);
    CHECK(m.verdict == Verdict::failed);
    CHECK_THAT(m.reason, Contains("the candidate's output disagrees with the reference's (seed 1)") &&
                             Contains("y: 1 of 1000 elements differ; first at 17") && Contains("candidate 99"));
    CHECK(bench.device.launches(std::string(fill_kernel_name)) == 1);     // x, seed 1 (y is an output: poisoned)
    CHECK(bench.device.launches(std::string(compare_kernel_name)) == 1);  // y, seed 1: it failed there
  }
  SECTION("an agreeing pair draws and compares once per seed") {
    Bench bench;
    const auto same = bench.measure("copy", copy_kernel(), "copy_too", copy_kernel());
    CHECK(same.verdict == Verdict::same);
    CHECK(bench.device.launches(std::string(fill_kernel_name)) == 2);     // x, for each of two seeds
    CHECK(bench.device.launches(std::string(compare_kernel_name)) == 2);  // y, for each of two seeds
  }
}

TEST_CASE("bench fake device: a candidate that writes past its output fails, naming the buffer and the bytes") {
  Bench bench;
  // y[n] = ...: the `i <= n` bug. Its output agrees with the reference's, so only the zone tells.
  const auto m = bench.measure("copy", copy_kernel(), "copy_one_past", copy_kernel(0, 1));
  CHECK(m.verdict == Verdict::failed);
  CHECK(m.blame == Blame::candidate);
  CHECK_THAT(m.reason, Contains("size n=1000: the candidate b.cu:copy_one_past wrote 4 bytes past 'y' (seed 1)"));
  CHECK_THAT(m.reason, !Contains("reference (base) is broken"));
  // Not timed: no speedup, and the candidate ran only its correctness launch.
  CHECK(m.interval.speedup == 0);
  CHECK(bench.device.launches("copy_one_past") == 1);
  REQUIRE(m.sizes.size() == 1);
  CHECK(m.sizes.front().verdict == Verdict::failed);
}

TEST_CASE("bench fake device: a candidate that writes before its output fails") {
  Bench bench;
  const auto m = bench.measure("copy", copy_kernel(), "copy_one_before", copy_kernel(-1, 0));
  CHECK(m.verdict == Verdict::failed);
  CHECK(m.blame == Blame::candidate);
  CHECK_THAT(m.reason, Contains("wrote 4 bytes before 'y'"));
}

TEST_CASE("bench fake device: a reference that writes past a buffer is broken, not the candidate's failure") {
  Bench bench;
  const auto m = bench.measure("copy_one_past", copy_kernel(0, 1), "copy", copy_kernel());
  CHECK(m.verdict == Verdict::failed);
  CHECK(m.blame == Blame::reference);
  CHECK_THAT(m.reason, StartsWith(std::string(broken_reference_prefix)));
  CHECK_THAT(m.reason, Contains("the reference a.cu:copy_one_past wrote 4 bytes past 'y'"));
  // The candidate still ran once on restored zones, and was clean.
  CHECK(bench.device.launches("copy") == 1);
}

TEST_CASE("bench fake device: a candidate that breaks the zones as the reference does still fails") {
  Bench bench;
  const auto m = bench.measure("copy_one_past", copy_kernel(0, 1), "copy_two_past", copy_kernel(0, 2));
  CHECK(m.verdict == Verdict::failed);
  CHECK(m.blame == Blame::candidate);
  CHECK_THAT(m.reason, Contains("the candidate b.cu:copy_two_past wrote 8 bytes past 'y'"));
  CHECK_THAT(m.reason, Contains("; the reference did too: wrote 4 bytes past 'y'"));
  // Both writing past a buffer is also what a spec that sizes it too small looks like.
  CHECK_THAT(m.reason, Contains("the spec's count for it is too small"));
}

TEST_CASE("bench fake device: a faulting reference is broken, a faulting candidate fails") {
  SECTION("the reference") {
    Bench bench;
    const auto m = bench.measure("faults", faulting_kernel, "copy", copy_kernel());
    CHECK(m.verdict == Verdict::failed);
    CHECK(m.blame == Blame::reference);
    CHECK_THAT(m.reason, StartsWith(std::string(broken_reference_prefix)));
    CHECK_THAT(m.reason, Contains("CUDA_ERROR_ILLEGAL_ADDRESS"));
  }
  SECTION("the candidate") {
    Bench bench;
    const auto m = bench.measure("copy", copy_kernel(), "faults", faulting_kernel);
    CHECK(m.verdict == Verdict::failed);
    CHECK(m.blame == Blame::candidate);
    CHECK_THAT(m.reason, Contains("the candidate b.cu:faults failed"));
    CHECK_THAT(m.reason, Contains("CUDA_ERROR_ILLEGAL_ADDRESS"));
  }
}

TEST_CASE("bench fake device: the simulated device places allocations back to back") {
  // What makes the tests above meaningful: without guard zones, y[n] would be inside the next
  // allocation, not an illegal address.
  Bench bench;
  cuda::CUdeviceptr first = 0, second = 0;
  REQUIRE(bench.device.api().cuMemAlloc_v2(&first, 4000) == 0);
  REQUIRE(bench.device.api().cuMemAlloc_v2(&second, 4000) == 0);
  CHECK(second == first + 4096);
  const float value = 1;
  REQUIRE(bench.device.write(first + 4096, &value, sizeof value));  // y[1024] of a 4000-byte y
  float landed = 0;
  REQUIRE(bench.device.read(second, &landed, sizeof landed));
  CHECK(landed == 1);
  CHECK_FALSE(bench.device.write(second + 4096, &value, sizeof value));
}
