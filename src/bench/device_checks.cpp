// SPDX-License-Identifier: Apache-2.0
#include "bench/device_checks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

namespace kforecast::bench {
namespace {

// Enough blocks to keep every multiprocessor busy; the kernels stride over the rest.
LaunchShape striding_shape(const Gpu& gpu, std::uint64_t lanes) {
  const std::uint64_t wanted = (lanes + 255) / 256;
  const auto most = static_cast<std::uint64_t>(std::max(gpu.device().sm_count, 1)) * 8;
  return {{static_cast<std::uint32_t>(std::clamp<std::uint64_t>(wanted, 1, most)), 1, 1}, {256, 1, 1}, 0};
}

std::uint64_t lanes_of(const ResolvedArgument& argument) {
  return static_cast<std::uint64_t>(argument.count) * static_cast<std::uint64_t>(argument.type.lanes);
}

// One lane's value at `address` (element `lane` of `type`), read back for a mismatch's message.
Result<double> lane_at(Gpu& gpu, cuda::CUdeviceptr address, const ElementType& type, std::uint64_t lane) {
  std::vector<std::byte> bytes(static_cast<std::size_t>(type.lane_bytes));
  if (auto ok = gpu.download(bytes, address + lane * static_cast<std::uint64_t>(type.lane_bytes)); !ok)
    return std::unexpected(ok.error());
  return lane_value(type, bytes, 0);
}

}  // namespace

int lane_kind(const ElementType& type) {
  switch (type.kind) {
    case ScalarKind::floating:
      return type.lane_bytes == 8 ? 1 : 0;
    case ScalarKind::half:
      return 2;
    case ScalarKind::bfloat16:
      return 3;
    case ScalarKind::signed_integer:
      return type.lane_bytes == 1 ? 4 : type.lane_bytes == 2 ? 5 : type.lane_bytes == 4 ? 6 : 7;
    case ScalarKind::unsigned_integer:
      return type.lane_bytes == 1 ? 8 : type.lane_bytes == 2 ? 9 : type.lane_bytes == 4 ? 10 : 11;
  }
  return 0;
}

Result<void> fill_on_device(Gpu& gpu, cuda::CUfunction fill, cuda::CUdeviceptr out, const ResolvedArgument& argument,
                            std::uint64_t seed) {
  unsigned long long lanes = lanes_of(argument);
  int kind = lane_kind(argument.type);
  int distribution = static_cast<int>(argument.init.distribution);
  double a = argument.init.a, b = argument.init.b;
  unsigned long long key = lane_random_key(argument, seed);
  void* parameters[] = {&out, &lanes, &kind, &distribution, &a, &b, &key};
  return gpu.launch(fill, striding_shape(gpu, lanes), parameters);
}

Result<Comparison> compare_on_device(Gpu& gpu, cuda::CUfunction compare, cuda::CUdeviceptr scratch,
                                     cuda::CUdeviceptr expected, cuda::CUdeviceptr actual,
                                     const ResolvedArgument& argument) {
  std::array<std::uint64_t, 4> start{0, ~std::uint64_t{0}, 0, 0};
  if (auto ok = gpu.upload(scratch, std::as_bytes(std::span(start))); !ok) return std::unexpected(ok.error());
  unsigned long long lanes = lanes_of(argument);
  int kind = lane_kind(argument.type);
  double rtol = argument.rtol, atol = argument.atol;
  void* parameters[] = {&expected, &actual, &lanes, &kind, &rtol, &atol, &scratch};
  if (auto ok = gpu.launch(compare, striding_shape(gpu, lanes), parameters); !ok) return std::unexpected(ok.error());
  if (auto ok = gpu.synchronize(); !ok) return std::unexpected(ok.error());
  std::array<std::uint64_t, 4> found{};
  if (auto ok = gpu.download(std::as_writable_bytes(std::span(found)), scratch); !ok) return std::unexpected(ok.error());
  Comparison result;
  result.argument = argument.name;
  result.elements = static_cast<std::int64_t>(lanes);
  result.mismatches = static_cast<std::int64_t>(found[0]);
  result.max_abs_error = std::bit_cast<double>(found[2]);
  result.max_rel_error = std::bit_cast<double>(found[3]);
  result.rtol = argument.rtol;
  result.atol = argument.atol;
  if (result.mismatches > 0 && found[1] < lanes) {
    result.first_mismatch = static_cast<std::int64_t>(found[1]);
    auto reference = lane_at(gpu, expected, argument.type, found[1]);
    if (!reference) return std::unexpected(reference.error());
    auto candidate = lane_at(gpu, actual, argument.type, found[1]);
    if (!candidate) return std::unexpected(candidate.error());
    result.reference_value = *reference;
    result.candidate_value = *candidate;
  }
  return result;
}

}  // namespace kforecast::bench
