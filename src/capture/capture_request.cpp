// SPDX-License-Identifier: Apache-2.0
#include "capture/capture_request.hpp"

#include <fmt/format.h>

#include <charconv>

#include "capture/injection/capture_settings.hpp"

namespace kforecast::capture {

namespace injection_names = kforecast::capture::injection;

Result<CaptureRequest> make_capture_request(const CaptureOptions& options,
                                            const std::filesystem::path& working_directory,
                                            const std::filesystem::path& repository_root) {
  CaptureRequest request;
  if (options.command.empty())
    return usage_error(
        "'kforecast capture' needs the program to run after '--', e.g. "
        "'kforecast capture -- ./build/kernel_test'");
  request.command = options.command;
  request.dir = options.dir ? working_directory / *options.dir : repository_root / ".kforecast" / "captures";
  request.dir = request.dir.lexically_normal();
  if (options.launches_per_shape) {
    const std::string& text = *options.launches_per_shape;
    std::uint32_t count = 0;
    const auto [rest, error] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (error != std::errc() || rest != text.data() + text.size() || count == 0)
      return usage_error(fmt::format("--launches-per-shape '{}' is not a positive whole number (e.g. 3)", text));
    request.launches_per_shape = count;
  }
  request.byte_budget = injection_names::default_byte_budget;
  if (options.bytes) {
    auto bytes = injection_names::parse_byte_size(*options.bytes);
    if (!bytes)
      return usage_error(
          fmt::format("--bytes '{}' is not a byte count (e.g. 268435456, 512K, 256M, 2G)", *options.bytes));
    request.byte_budget = *bytes;
  }
  if (options.kernels) {
    if (options.kernels->empty()) return usage_error("--kernels needs a glob, e.g. '*gemm*'");
    request.kernels = *options.kernels;
  }
  return request;
}

std::filesystem::path repository_root_above(const std::filesystem::path& start) {
  std::error_code error;
  for (auto folder = start; !folder.empty(); folder = folder.parent_path()) {
    if (std::filesystem::exists(folder / ".git", error)) return folder;
    if (folder == folder.parent_path()) break;
  }
  return start;
}

std::vector<EnvironmentEntry> capture_environment(const CaptureRequest& request,
                                                  const std::filesystem::path& injection_library,
                                                  const EnvLookup& env) {
  std::vector<EnvironmentEntry> entries = {
      {"CUDA_INJECTION64_PATH", injection_library.string()},
      {std::string(injection_names::env_dir), request.dir.string()},
      {std::string(injection_names::env_launches_per_shape), std::to_string(request.launches_per_shape)},
      {std::string(injection_names::env_bytes), std::to_string(request.byte_budget)},
      {std::string(injection_names::env_kernels), request.kernels},
  };
  if (!env("CUDA_MODULE_LOADING")) entries.emplace_back("CUDA_MODULE_LOADING", "EAGER");
  return entries;
}

}  // namespace kforecast::capture
