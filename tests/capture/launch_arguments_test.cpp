// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/launch_arguments.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>

using namespace kforecast::capture::injection;

namespace {

std::vector<std::byte> bytes_of(std::uint64_t value, std::size_t size) {
  std::vector<std::byte> bytes(size);
  std::memcpy(bytes.data(), &value, size);
  return bytes;
}

}  // namespace

TEST_CASE("capture injection: a launch's parameters are read from kernelParams or from extra's one buffer") {
  std::uint32_t n = 1024;
  std::uint64_t pointer = 0x7f0000001000;
  void* params[] = {&pointer, &n};
  const LaunchArguments by_params{nullptr, {}, params, nullptr};
  CHECK(parameter_bytes(by_params, {1, 8, 4}) == bytes_of(1024, 4));
  CHECK(parameter_bytes(by_params, {0, 0, 8}) == bytes_of(pointer, 8));

  // The same two parameters packed in one buffer that `extra` passes with its size.
  std::vector<std::byte> buffer(12);
  std::memcpy(buffer.data(), &pointer, 8);
  std::memcpy(buffer.data() + 8, &n, 4);
  std::size_t size = buffer.size();
  void* extra[] = {reinterpret_cast<void*>(launch_param_buffer_pointer), buffer.data(),  // NOLINT
                   reinterpret_cast<void*>(launch_param_buffer_size), &size,             // NOLINT
                   reinterpret_cast<void*>(launch_param_end)};                             // NOLINT
  const LaunchArguments by_extra{nullptr, {}, nullptr, extra};
  CHECK(parameter_bytes(by_extra, {1, 8, 4}) == bytes_of(1024, 4));
  // A slot past the buffer's size is not read.
  CHECK_FALSE(parameter_bytes(by_extra, {2, 10, 4}).has_value());
  CHECK_FALSE(parameter_bytes(LaunchArguments{}, {0, 0, 8}).has_value());
}

TEST_CASE("capture injection: a per-thread-stream launch's null stream is the per-thread stream, and Ex reads its config") {
  cuLaunchKernel_params plain{};
  plain.gridDimX = 4;
  plain.blockDimX = 128;
  plain.sharedMemBytes = 256;
  const auto legacy = launch_arguments(DriverCallback::cuLaunchKernel, &plain);
  CHECK(legacy.stream == nullptr);
  CHECK(legacy.shape.grid[0] == 4);
  CHECK(legacy.shape.block[0] == 128);
  CHECK(legacy.shape.shared_bytes == 256);
  CHECK(launch_arguments(DriverCallback::cuLaunchKernel_ptsz, &plain).stream == per_thread_stream);

  LaunchConfig config{2, 3, 1, 64, 1, 1, 0, nullptr, nullptr, 0};
  cuLaunchKernelEx_params ex{&config, nullptr, nullptr, nullptr};
  const auto launched = launch_arguments(DriverCallback::cuLaunchKernelEx, &ex);
  CHECK(launched.shape.grid[1] == 3);
  CHECK(launched.shape.block[0] == 64);
  // No config: the driver refuses the launch; nothing is read.
  cuLaunchKernelEx_params no_config{nullptr, nullptr, nullptr, nullptr};
  CHECK(launch_arguments(DriverCallback::cuLaunchKernelEx, &no_config).kernel_params == nullptr);
}
