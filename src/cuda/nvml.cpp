// SPDX-License-Identifier: Apache-2.0
#include "cuda/nvml.hpp"

#include <array>

#include "cuda/dynamic_library.hpp"

namespace kforecast::cuda {
namespace {

// From nvml.h (stable ABI): nvmlReturn_t is an int, NVML_SUCCESS is 0, and
// NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80.
using nvmlReturn_t = int;
constexpr nvmlReturn_t nvml_success = 0;
constexpr unsigned driver_version_buffer = 80;

struct NvmlApi {
  nvmlReturn_t (*nvmlInit_v2)() = nullptr;
  nvmlReturn_t (*nvmlSystemGetDriverVersion)(char*, unsigned) = nullptr;
  nvmlReturn_t (*nvmlShutdown)() = nullptr;
};

}  // namespace

std::optional<std::string> nvidia_driver_version() {
  auto library = DynamicLibrary::open("libnvidia-ml.so.1");
  if (!library) return std::nullopt;
  NvmlApi api;
  const std::string missing =
      first_unbound({KF_BIND(*library, api, nvmlInit_v2), KF_BIND(*library, api, nvmlSystemGetDriverVersion),
                     KF_BIND(*library, api, nvmlShutdown)});
  if (!missing.empty() || api.nvmlInit_v2() != nvml_success) return std::nullopt;
  std::array<char, driver_version_buffer> buffer{};
  const bool ok = api.nvmlSystemGetDriverVersion(buffer.data(), driver_version_buffer) == nvml_success;
  api.nvmlShutdown();
  if (!ok) return std::nullopt;
  buffer.back() = '\0';
  return std::string(buffer.data());
}

}  // namespace kforecast::cuda
