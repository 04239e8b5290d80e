// SPDX-License-Identifier: Apache-2.0
#include "cuda/check.hpp"

#include <array>
#include <utility>

namespace kforecast::cuda {

namespace {

thread_local std::optional<FailedCall> t_last_failure;

struct Hint {
  std::string_view name;
  std::string_view hint;
};

constexpr std::string_view fault_hint =
    "the kernel faulted and the context is unusable; check the launch spec's buffer sizes, grid and arguments";
constexpr std::string_view too_new_ptx_hint =
    "the driver cannot load this code; compile for the GPU's own sm_XX or update the NVIDIA driver, and see the "
    "compile log";

// The common failures and what to do; extend as users meet new ones.
constexpr std::array hints = {
    Hint{"CUDA_ERROR_NO_DEVICE", "no CUDA device visible; check CUDA_VISIBLE_DEVICES or run on a GPU runner"},
    Hint{"CUDA_ERROR_STUB_LIBRARY",
         "the CUDA driver found is a stub library; install the NVIDIA driver, or point cuda.driver_library / "
         "KFORECAST_CUDA_DRIVER_LIBRARY at the real libcuda.so.1"},
    Hint{"CUDA_ERROR_INSUFFICIENT_DRIVER", "the NVIDIA driver is older than this code needs; update the driver"},
    Hint{"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
         "the driver's kernel module and libcuda versions differ; reinstall the driver or reboot"},
    Hint{"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
         "the CUDA forward-compatibility package does not support this GPU; use the system driver"},
    Hint{"CUDA_ERROR_DEVICE_UNAVAILABLE", "the GPU is busy or in exclusive-process mode; free it or pick another"},
    Hint{"CUDA_ERROR_NOT_INITIALIZED", "cuInit was not called first; this is a kforecast bug, please report it"},
    Hint{"CUDA_ERROR_OUT_OF_MEMORY", "the GPU ran out of memory; use smaller sizes in the launch spec or free the GPU"},
    Hint{"CUDA_ERROR_INVALID_PTX", too_new_ptx_hint},
    Hint{"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", too_new_ptx_hint},
    Hint{"CUDA_ERROR_NO_BINARY_FOR_GPU", "the module has no code for this GPU; compile for its compute capability"},
    Hint{"CUDA_ERROR_INVALID_IMAGE", "the module image is not valid for this driver; recompile it for this GPU"},
    Hint{"CUDA_ERROR_NOT_FOUND", "the kernel name is not in the module; check the name or its template instantiation"},
    Hint{"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
         "the launch needs more registers or shared memory than the GPU has; reduce the block size"},
    Hint{"CUDA_ERROR_INVALID_VALUE",
         "an argument was out of range; check the launch spec's grid, block and shared bytes"},
    Hint{"CUDA_ERROR_LAUNCH_TIMEOUT",
         "the kernel ran past the display watchdog; use a GPU without a display or smaller sizes"},
    Hint{"CUDA_ERROR_ILLEGAL_ADDRESS", fault_hint},
    Hint{"CUDA_ERROR_MISALIGNED_ADDRESS", fault_hint},
    Hint{"CUDA_ERROR_ILLEGAL_INSTRUCTION", fault_hint},
    Hint{"CUDA_ERROR_LAUNCH_FAILED", fault_hint},
    Hint{"CUDA_ERROR_ASSERT", "a device-side assert failed in the kernel"},
    Hint{"NVRTC_ERROR_COMPILATION", "the source did not compile; see the compile log"},
    Hint{"NVRTC_ERROR_INVALID_OPTION",
         "NVRTC rejected an option; check the target arch (see `kforecast doctor`), include_dirs and defines"},
    Hint{"NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
         "the kernel name is not a __global__ function or instantiation in the source; check the name in the launch "
         "spec"},
    Hint{"NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
         "NVRTC could not load libnvrtc-builtins; install the builtins library of the same version next to libnvrtc"},
    Hint{"NVRTC_ERROR_OUT_OF_MEMORY", "NVRTC ran out of host memory"},
};

// Names for codes a library may not name itself (a stub driver names nothing).
constexpr std::array<std::pair<int, std::string_view>, 8> known_driver_codes = {{
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
}};

// "m_api.cuInit(0)" -> "cuInit(0)": the table the call went through is noise to a user.
std::string_view call_text(std::string_view call) {
  const auto paren = call.find('(');
  const auto head = call.substr(0, paren);
  const auto dot = head.find_last_of(".>");
  return dot == std::string_view::npos ? call : call.substr(dot + 1);
}

// "/home/ci/kforecast/src/cuda/nvrtc.cpp" -> "src/cuda/nvrtc.cpp": short, and the same on
// every build machine.
std::string place_of(const std::source_location& where) {
  std::string_view file = where.file_name();
  for (std::string_view root : {"/src/", "/tests/"}) {
    if (auto at = file.rfind(root); at != std::string_view::npos) {
      file.remove_prefix(at + 1);
      break;
    }
  }
  return std::string(file) + ":" + std::to_string(where.line());
}

}  // namespace

std::string_view hint_for(std::string_view result_name) {
  for (const auto& entry : hints)
    if (entry.name == result_name) return entry.hint;
  return {};
}

std::string driver_result_name(const DriverApi& api, CUresult code) {
  const char* name = nullptr;
  if (api.cuGetErrorName != nullptr && api.cuGetErrorName(code, &name) == CUDA_SUCCESS && name != nullptr) return name;
  for (const auto& [known, known_name] : known_driver_codes)
    if (known == code) return std::string(known_name);
  return "CUresult " + std::to_string(code);
}

std::string nvrtc_result_name(const NvrtcApi& api, nvrtcResult code) {
  if (api.nvrtcGetErrorString != nullptr) {
    const char* name = api.nvrtcGetErrorString(code);
    if (name != nullptr && std::string_view(name).starts_with("NVRTC_")) return name;
  }
  return "nvrtcResult " + std::to_string(code);
}

Error call_error(const FailedCall& failure) {
  std::string message = failure.call + " failed: " + failure.code_name;
  if (!failure.code_name.ends_with(" " + std::to_string(failure.code)))
    message += " (" + std::to_string(failure.code) + ")";
  message += " at " + failure.place;
  if (auto hint = hint_for(failure.code_name); !hint.empty()) message += "; " + std::string(hint);
  t_last_failure = failure;
  return Error{std::move(message), ExitCode::could_not_run};
}

Result<void> check_driver_call(const DriverApi& api, CUresult code, std::string_view call, std::source_location where) {
  if (code == CUDA_SUCCESS) return {};
  return std::unexpected(
      call_error({Api::driver, std::string(call_text(call)), code, driver_result_name(api, code), place_of(where)}));
}

Result<void> check_nvrtc_call(const NvrtcApi& api, nvrtcResult code, std::string_view call,
                              std::source_location where) {
  if (code == NVRTC_SUCCESS) return {};
  return std::unexpected(
      call_error({Api::nvrtc, std::string(call_text(call)), code, nvrtc_result_name(api, code), place_of(where)}));
}

std::optional<FailedCall> last_failed_call() { return t_last_failure; }

}  // namespace kforecast::cuda
