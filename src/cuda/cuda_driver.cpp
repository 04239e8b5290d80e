// SPDX-License-Identifier: Apache-2.0
#include "cuda/cuda_driver.hpp"

#include <array>
#include <utility>

#include "cuda/check.hpp"

namespace kforecast::cuda {

namespace {

constexpr std::string_view benchmarks_skipped = "benchmarks skipped";
constexpr std::string_view install_driver = "install the NVIDIA driver or run on a GPU runner";

// The name of the first required entry point `library` lacks, or empty when it has them all.
std::string bind_api(const DynamicLibrary& library, DriverApi& api) {
  const std::string missing = first_unbound({
      KF_BIND(library, api, cuGetErrorName),
      KF_BIND(library, api, cuInit),
      KF_BIND(library, api, cuDriverGetVersion),
      KF_BIND(library, api, cuDeviceGetCount),
      KF_BIND(library, api, cuDeviceGet),
      KF_BIND(library, api, cuDeviceGetName),
      KF_BIND(library, api, cuDeviceGetAttribute),
      KF_BIND(library, api, cuDeviceTotalMem_v2),
      KF_BIND(library, api, cuDevicePrimaryCtxRetain),
      KF_BIND(library, api, cuDevicePrimaryCtxRelease_v2),
      KF_BIND(library, api, cuCtxSetCurrent),
      KF_BIND(library, api, cuDeviceGetPCIBusId),
      KF_BIND(library, api, cuCtxSynchronize),
      KF_BIND(library, api, cuMemGetInfo_v2),
      KF_BIND(library, api, cuModuleLoadData),
      KF_BIND(library, api, cuModuleUnload),
      KF_BIND(library, api, cuModuleGetFunction),
      KF_BIND(library, api, cuFuncSetAttribute),
      KF_BIND(library, api, cuMemAlloc_v2),
      KF_BIND(library, api, cuMemFree_v2),
      KF_BIND(library, api, cuMemcpyHtoDAsync_v2),
      KF_BIND(library, api, cuMemcpyDtoH_v2),
      KF_BIND(library, api, cuMemcpyDtoDAsync_v2),
      KF_BIND(library, api, cuMemsetD8Async),
      KF_BIND(library, api, cuLaunchKernel),
      KF_BIND(library, api, cuStreamCreate),
      KF_BIND(library, api, cuStreamDestroy_v2),
      KF_BIND(library, api, cuStreamSynchronize),
      KF_BIND(library, api, cuEventCreate),
      KF_BIND(library, api, cuEventDestroy_v2),
      KF_BIND(library, api, cuEventRecord),
      KF_BIND(library, api, cuEventSynchronize),
      KF_BIND(library, api, cuEventElapsedTime),
      KF_BIND(library, api, cuStreamBeginCapture_v2),
      KF_BIND(library, api, cuStreamEndCapture),
      KF_BIND(library, api, cuGraphInstantiateWithFlags),
      KF_BIND(library, api, cuGraphLaunch),
      KF_BIND(library, api, cuGraphExecDestroy),
      KF_BIND(library, api, cuGraphDestroy),
  });
  return missing;
}

Unavailable unavailable(std::string what, std::string fix, std::vector<LoadAttempt> tried) {
  return Unavailable{std::move(what), std::string(benchmarks_skipped), std::move(fix), std::move(tried)};
}

// Why cuInit failed, in the words a user needs.
Unavailable init_failed(const Error& error, const std::string& path, std::vector<LoadAttempt> tried) {
  const auto failure = last_failed_call();
  const int code = failure ? failure->code : -1;
  tried.push_back({path, error.message});
  if (code == CUDA_ERROR_STUB_LIBRARY)
    return unavailable("the CUDA driver found is a stub library (" + path + ")",
                       std::string(install_driver) + "; the toolkit's stubs/libcuda.so is for linking only",
                       std::move(tried));
  if (code == CUDA_ERROR_NO_DEVICE)
    return unavailable("no CUDA device visible (cuInit: CUDA_ERROR_NO_DEVICE)",
                       "check CUDA_VISIBLE_DEVICES or run on a GPU runner", std::move(tried));
  std::string fix(hint_for(failure ? failure->code_name : ""));
  if (fix.empty()) fix = "check the driver with nvidia-smi";
  return unavailable("the CUDA driver did not initialise (" + error.message + ")", std::move(fix), std::move(tried));
}

}  // namespace

CudaDriver::CudaDriver(DynamicLibrary library, DriverApi api, std::string path, DriverVersion version)
    : m_library(std::move(library)), m_api(api), m_path(std::move(path)), m_version(version) {}

std::expected<std::unique_ptr<CudaDriver>, Unavailable> CudaDriver::load(std::span<const std::string> candidates) {
  auto opened = open_first(candidates);
  if (!opened)
    return std::unexpected(
        unavailable("libcuda.so.1 not found", std::string(install_driver), std::move(opened.error().tried)));
  // The driver starts threads and registers exit handlers; it stays loaded for the process.
  opened->library.keep_loaded();
  std::string path = opened->library.loaded_path();
  if (path.empty()) path = opened->path;
  auto tried = std::move(opened->failed);

  DriverApi api;
  if (auto missing = bind_api(opened->library, api); !missing.empty()) {
    tried.push_back({path, "opened, but it does not export " + missing});
    return std::unexpected(
        unavailable("the CUDA driver at " + path + " lacks " + missing, "update the NVIDIA driver", std::move(tried)));
  }
  if (auto ok = KF_CU_CALL(api, api.cuInit(0)); !ok)
    return std::unexpected(init_failed(ok.error(), path, std::move(tried)));
  int encoded = 0;
  if (auto ok = KF_CU_CALL(api, api.cuDriverGetVersion(&encoded)); !ok)
    return std::unexpected(init_failed(ok.error(), path, std::move(tried)));
  return std::unique_ptr<CudaDriver>(
      new CudaDriver(std::move(opened->library), api, std::move(path), DriverVersion::from_encoded(encoded)));
}

LoadedDriver load_driver(const LoaderOptions& options) {
  const auto candidates = driver_candidates(options);
  auto driver = CudaDriver::load(candidates);
  if (!driver) return std::unexpected(std::move(driver.error()));
  return std::unique_ptr<Driver>(std::move(*driver));
}

Result<std::vector<DeviceInfo>> CudaDriver::devices() const {
  int count = 0;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuDeviceGetCount(&count)); !ok) return std::unexpected(ok.error());
  std::vector<DeviceInfo> devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    auto info = device(ordinal);
    if (!info) return std::unexpected(info.error());
    devices.push_back(std::move(*info));
  }
  return devices;
}

Result<DeviceInfo> CudaDriver::device(int ordinal) const {
  CUdevice device = 0;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuDeviceGet(&device, ordinal)); !ok) return std::unexpected(ok.error());
  DeviceInfo info;
  info.ordinal = ordinal;

  std::array<char, 256> name{};
  if (auto ok = KF_CU_CALL(m_api, m_api.cuDeviceGetName(name.data(), static_cast<int>(name.size()) - 1, device)); !ok)
    return std::unexpected(ok.error());
  info.name = name.data();

  std::size_t memory = 0;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuDeviceTotalMem_v2(&memory, device)); !ok) return std::unexpected(ok.error());
  info.total_memory_bytes = static_cast<std::int64_t>(memory);

  const auto attribute = [&](DeviceAttribute which) -> Result<int> {
    int value = 0;
    if (auto ok = KF_CU_CALL(m_api, m_api.cuDeviceGetAttribute(&value, static_cast<int>(which), device)); !ok)
      return fail(ok.error().exit_code, "device " + std::to_string(ordinal) + ", attribute " +
                                            std::to_string(static_cast<int>(which)) + ": " + ok.error().message);
    return value;
  };
  // The facts every later step relies on; a driver that cannot report them is not usable.
  for (auto [which, field] : {std::pair{DeviceAttribute::compute_capability_major, &DeviceInfo::compute_major},
                              std::pair{DeviceAttribute::compute_capability_minor, &DeviceInfo::compute_minor},
                              std::pair{DeviceAttribute::multiprocessor_count, &DeviceInfo::sm_count}}) {
    auto value = attribute(which);
    if (!value) return std::unexpected(value.error());
    info.*field = *value;
  }
  // Descriptive facts: a driver that no longer reports one (CUDA 13 deprecates the clock
  // rates) leaves it at zero.
  for (auto [which, field] :
       {std::pair{DeviceAttribute::clock_rate_khz, &DeviceInfo::clock_rate_khz},
        std::pair{DeviceAttribute::memory_clock_rate_khz, &DeviceInfo::memory_clock_rate_khz},
        std::pair{DeviceAttribute::global_memory_bus_width, &DeviceInfo::memory_bus_width_bits},
        std::pair{DeviceAttribute::max_registers_per_multiprocessor, &DeviceInfo::registers_per_sm},
        std::pair{DeviceAttribute::max_threads_per_multiprocessor, &DeviceInfo::max_threads_per_sm}})
    info.*field = attribute(which).value_or(0);
  for (auto [which, field] :
       {std::pair{DeviceAttribute::l2_cache_size, &DeviceInfo::l2_cache_bytes},
        std::pair{DeviceAttribute::max_shared_memory_per_block_optin, &DeviceInfo::max_shared_per_block_optin_bytes},
        std::pair{DeviceAttribute::max_shared_memory_per_multiprocessor, &DeviceInfo::max_shared_per_sm_bytes}})
    info.*field = attribute(which).value_or(0);
  return info;
}

Result<void> CudaDriver::check_context(int ordinal) const {
  CUdevice device = 0;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuDeviceGet(&device, ordinal)); !ok) return ok;
  CUcontext context = nullptr;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuDevicePrimaryCtxRetain(&context, device)); !ok) return ok;
  return KF_CU_CALL(m_api, m_api.cuDevicePrimaryCtxRelease_v2(device));
}

}  // namespace kforecast::cuda
