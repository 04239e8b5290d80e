// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/capture_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <span>

#include "capture/injection/sha256.hpp"

namespace kforecast::capture::injection {
namespace {

std::span<const std::byte> as_bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

// Writes `bytes` to `path` through `path`.tmp and a rename; an error message or empty.
std::string write_whole(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const std::filesystem::path temporary = path.string() + ".tmp";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return "cannot write " + temporary.string() + ": " + std::strerror(errno);
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const bool closed = std::fclose(file) == 0;
  std::error_code error;
  if (!written || !closed) {
    std::filesystem::remove(temporary, error);
    return "cannot write " + temporary.string() + " (disk full?)";
  }
  std::filesystem::rename(temporary, path, error);
  if (error) return "cannot rename " + temporary.string() + ": " + error.message();
  return {};
}

}  // namespace

std::string kernel_folder_name(std::string_view mangled) { return sha256_hex(as_bytes(mangled)).substr(0, 16); }

std::string capture_file_name(const LaunchRecord& record) {
  return sha256_hex(as_bytes(shape_key(record))).substr(0, 12) + "-" + std::to_string(record.ordinal) + ".json";
}

std::string write_capture(const std::string& dir, LaunchRecord& record, const ProgramFacts& program) {
  const std::filesystem::path folder = std::filesystem::path(dir) / kernel_folder_name(record.mangled);
  std::error_code error;
  std::filesystem::create_directories(folder / "blobs", error);
  if (error) return "cannot create " + (folder / "blobs").string() + ": " + error.message();
  for (AllocationRecord& allocation : record.allocations) {
    if (allocation.contents != Contents::captured) continue;
    allocation.blob = "blobs/" + sha256_hex(allocation.data) + ".bin";
    const std::filesystem::path blob = folder / allocation.blob;
    if (!std::filesystem::exists(blob, error)) {
      if (auto problem = write_whole(blob, allocation.data); !problem.empty()) return problem;
    }
    allocation.data.clear();
    allocation.data.shrink_to_fit();
  }
  return write_whole(folder / capture_file_name(record), as_bytes(capture_json(record, program)));
}

}  // namespace kforecast::capture::injection
