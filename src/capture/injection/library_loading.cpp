// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/library_loading.hpp"

#include <dlfcn.h>

namespace kforecast::capture::injection {
namespace {

constexpr const char* cupti_names[] = {"libcupti.so", "libcupti.so.13", "libcupti.so.12"};
constexpr const char* toolkit_folders[] = {"/lib64/", "/extras/CUPTI/lib64/", "/targets/x86_64-linux/lib/",
                                           "/targets/sbsa-linux/lib/"};

template <class Function>
bool bind(void* library, const char* name, Function& slot) {
  slot = reinterpret_cast<Function>(::dlsym(library, name));
  return slot != nullptr;
}

}  // namespace

std::vector<std::string> cupti_candidates(const EnvironmentLookup& env) {
  std::vector<std::string> candidates;
  if (auto path = env(env_cupti); path && !path->empty()) candidates.push_back(*path);
  for (const char* name : cupti_names) candidates.emplace_back(name);
  std::vector<std::string> roots;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (auto root = env(variable); root && !root->empty()) roots.push_back(*root);
  roots.emplace_back("/usr/local/cuda");
  for (const std::string& root : roots)
    for (const char* folder : toolkit_folders)
      for (const char* name : cupti_names) candidates.push_back(root + folder + name);
  return candidates;
}

LoadedApis load_apis(const EnvironmentLookup& env) {
  LoadedApis apis;
  void* cupti = nullptr;
  std::string tried;
  for (const std::string& candidate : cupti_candidates(env)) {
    cupti = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (cupti != nullptr) break;
    if (tried.size() < 400) tried += (tried.empty() ? "" : ", ") + candidate;
  }
  if (cupti == nullptr) {
    apis.problem = "libcupti could not be loaded (tried " + tried +
                   "): nothing is captured; install the CUDA toolkit's CUPTI, or set KFORECAST_CAPTURE_CUPTI to "
                   "the path of libcupti.so";
    return apis;
  }
  void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (driver == nullptr) driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) {
    apis.problem = "libcuda.so.1 could not be opened: nothing is captured";
    return apis;
  }
  const bool cupti_bound = bind(cupti, "cuptiSubscribe", apis.cupti.cuptiSubscribe) &&
                           bind(cupti, "cuptiEnableCallback", apis.cupti.cuptiEnableCallback) &&
                           bind(cupti, "cuptiGetResultString", apis.cupti.cuptiGetResultString);
  const bool driver_bound = bind(driver, "cuStreamSynchronize", apis.driver.cuStreamSynchronize) &&
                            bind(driver, "cuStreamIsCapturing", apis.driver.cuStreamIsCapturing) &&
                            bind(driver, "cuMemcpyDtoHAsync_v2", apis.driver.cuMemcpyDtoHAsync_v2) &&
                            bind(driver, "cuMemGetAddressRange_v2", apis.driver.cuMemGetAddressRange_v2) &&
                            bind(driver, "cuCtxGetDevice", apis.driver.cuCtxGetDevice) &&
                            bind(driver, "cuDeviceGetName", apis.driver.cuDeviceGetName) &&
                            bind(driver, "cuDeviceGetAttribute", apis.driver.cuDeviceGetAttribute) &&
                            bind(driver, "cuGetErrorName", apis.driver.cuGetErrorName);
  if (!cupti_bound)
    apis.problem = "libcupti lacks cuptiSubscribe or cuptiEnableCallback: nothing is captured";
  else if (!driver_bound)
    apis.problem = "libcuda.so.1 lacks an entry point the capture needs (driver too old?)";
  return apis;
}

}  // namespace kforecast::capture::injection
