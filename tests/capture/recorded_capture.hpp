// SPDX-License-Identifier: Apache-2.0
#pragma once

// A recorded capture for tests, written with the capture writer as the injection library would
// write it: saxpy(int n, float a, const float* x, float* y) with x captured whole and y pointing
// 16 bytes into a pooled allocation whose region is kept from its start.

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "capture/capture_file.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::testing {

inline std::vector<std::byte> float_bytes(const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

inline std::vector<std::byte> int_bytes(int value) {
  std::vector<std::byte> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  return bytes;
}

inline void write_bytes(const std::filesystem::path& file, const std::vector<std::byte>& bytes) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
}

inline std::vector<kernels::Parameter> saxpy_parameters() {
  return {{"int", "n", ""}, {"float", "a", ""}, {"const float*", "x", ""}, {"float*", "y", ""}};
}

inline capture::Capture saxpy_capture(int n = 16) {
  capture::Capture recorded;
  recorded.kernel = {"_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)", "0123abcd"};
  recorded.program = {"./build/saxpy_test", "--filter=Saxpy.*"};
  recorded.device_name = "NVIDIA H100 80GB HBM3";
  recorded.compute_capability = "9.0";
  recorded.grid = {static_cast<std::uint32_t>((n + 255) / 256), 1, 1};
  recorded.block = {256, 1, 1};
  recorded.parameters = {
      {0, 0, 4, capture::ParameterKind::value, -1, 0, int_bytes(n), ""},
      {1, 4, 4, capture::ParameterKind::value, -1, 0, float_bytes({2.0f}), ""},
      {2, 8, 8, capture::ParameterKind::pointer, 0, 0, {}, ""},
      {3, 16, 8, capture::ParameterKind::pointer, 1, 16, {}, ""},
  };
  const auto bytes = static_cast<std::uint64_t>(n) * 4;
  recorded.allocations = {
      {0, bytes, 0, bytes, capture::Contents::captured, "blobs/x.bin"},
      {1, bytes + 16 + 4096, 0, bytes + 16, capture::Contents::captured, "blobs/y.bin"},
  };
  recorded.notes = {"allocation 1: a pool; kept from its start to the end of y"};
  return recorded;
}

// copy(const float* x, float* y, int n) of fixtures/bench/copy.cu (and its variants of the same
// signature), as the capture library records it: x and y whole, one launch of 256-thread blocks.
inline capture::Capture copy_capture(int n, std::string name = "copy") {
  capture::Capture recorded;
  recorded.kernel = {"_Z" + std::to_string(name.size()) + name + "PKfPfi", name + "(float const*, float*, int)", ""};
  recorded.grid = {static_cast<std::uint32_t>((n + 255) / 256), 1, 1};
  recorded.block = {256, 1, 1};
  recorded.parameters = {
      {0, 0, 8, capture::ParameterKind::pointer, 0, 0, {}, ""},
      {1, 8, 8, capture::ParameterKind::pointer, 1, 0, {}, ""},
      {2, 16, 4, capture::ParameterKind::value, -1, 0, int_bytes(n), ""},
  };
  const auto bytes = static_cast<std::uint64_t>(n) * 4;
  recorded.allocations = {
      {0, bytes, 0, bytes, capture::Contents::captured, "blobs/x.bin"},
      {1, bytes, 0, bytes, capture::Contents::captured, "blobs/y.bin"},
  };
  return recorded;
}

// Writes `recorded` as `folder/name.json` with blobs for its captured allocations (x: 0, 1, 2...;
// y's region: 0.5 each). Returns the capture file's path.
inline std::filesystem::path write_capture(const std::filesystem::path& folder, const capture::Capture& recorded,
                                           const std::string& name = "saxpy-0") {
  std::filesystem::create_directories(folder);
  for (const auto& allocation : recorded.allocations) {
    if (allocation.contents != capture::Contents::captured) continue;
    std::vector<float> values(allocation.region_bytes / 4);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = allocation.id == 0 ? static_cast<float>(i) : 0.5f;
    auto bytes = float_bytes(values);
    bytes.resize(allocation.region_bytes);
    write_bytes(folder / allocation.blob, bytes);
  }
  const auto file = folder / (name + ".json");
  std::ofstream(file, std::ios::binary) << capture::capture_json(recorded);
  return file;
}

}  // namespace kforecast::testing
