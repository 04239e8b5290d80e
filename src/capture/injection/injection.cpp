// SPDX-License-Identifier: Apache-2.0
// The injection library's entry point and CUPTI callbacks. The CUDA driver loads this library
// into the user's program (CUDA_INJECTION64_PATH) and calls InitializeInjection once; from then
// on every module load, allocation, free and kernel launch passes through on_callback. Rules
// for code here: nothing is printed on standard output, no exception leaves a callback, the
// program's results never change (the library only reads device memory, on the launch's own
// stream, before the launch), and each problem is one line on standard error.

#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "capture/injection/capture_files.hpp"
#include "capture/injection/launch_arguments.hpp"
#include "capture/injection/library_loading.hpp"
#include "capture/injection/sha256.hpp"

namespace kforecast::capture::injection {
namespace {

struct KernelInModule {
  std::string module;  // sha256 of the cubin
  std::vector<ParameterSlot> slots;
};

struct State {
  std::mutex mutex;
  CaptureSettings settings;
  LoadedApis apis;
  ProgramFacts program;
  bool device_known = false;
  AllocationTable allocations;
  std::map<std::string, std::vector<KernelInModule>, std::less<>> kernels;  // by mangled name
  std::map<std::string, std::string, std::less<>> demangled;
  std::map<std::string, std::map<std::string, std::uint32_t>, std::less<>> shapes_seen;  // kernel -> shape -> launches
  std::uint64_t budget_left = 0;
  std::set<std::string, std::less<>> reported;
};

constexpr std::size_t max_shapes_per_kernel = 32;

State* state = nullptr;
// Set while a callback runs on this thread: the driver calls the library makes must not enter it again.
thread_local bool inside_callback = false;

void report(State& s, const std::string& message) {
  if (!s.reported.insert(message).second) return;
  std::fprintf(stderr, "kforecast capture: %s\n", message.c_str());
}

std::optional<std::string> environment(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::vector<std::string> program_arguments() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> argv;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\0') {
      argv.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return argv;
}

std::string error_name(const State& s, CUresult result) {
  const char* name = nullptr;
  if (s.apis.driver.cuGetErrorName(result, &name) == CUDA_SUCCESS && name != nullptr) return name;
  return "CUresult " + std::to_string(result);
}

const std::string& demangled_name(State& s, const std::string& mangled) {
  auto it = s.demangled.find(mangled);
  if (it != s.demangled.end()) return it->second;
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                   &std::free);
  return s.demangled.emplace(mangled, status == 0 && text ? std::string(text.get()) : mangled).first->second;
}

void learn_device(State& s) {
  if (s.device_known) return;
  s.device_known = true;
  const DriverApi& driver = s.apis.driver;
  CUdevice device = 0;
  if (driver.cuCtxGetDevice(&device) != CUDA_SUCCESS) return;
  char name[256] = {};
  if (driver.cuDeviceGetName(name, sizeof name, device) == CUDA_SUCCESS) s.program.device_name = name;
  int major = 0, minor = 0;
  if (driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) == CUDA_SUCCESS &&
      driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) == CUDA_SUCCESS)
    s.program.compute_capability = std::to_string(major) + "." + std::to_string(minor);
}

void on_module_loaded(State& s, const CUpti_ResourceData& resource) {
  const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource.resourceDescriptor);
  if (module == nullptr || module->pCubin == nullptr) return;
  const auto image = std::as_bytes(std::span(module->pCubin, module->cubinSize));
  CubinLayouts layouts = read_parameter_layouts(image);
  if (!layouts.problem.empty()) {
    report(s, "module " + std::to_string(module->moduleId) + ": " + layouts.problem +
                  "; its kernels' launches are recorded without parameters");
    return;
  }
  const std::string hash = sha256_hex(image);
  for (auto& [name, slots] : layouts.kernels) {
    auto& modules = s.kernels[name];
    if (std::ranges::find(modules, hash, &KernelInModule::module) == modules.end())
      modules.push_back(KernelInModule{.module = hash, .slots = std::move(slots)});
  }
}

// Copies each captured region to the host in the launch's stream order, before the launch.
void read_contents(State& s, LaunchRecord& record, CUstream stream) {
  const DriverApi& driver = s.apis.driver;
  int capturing = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver.cuStreamIsCapturing(stream, &capturing) != CUDA_SUCCESS || capturing != CU_STREAM_CAPTURE_STATUS_NONE) {
    for (auto& allocation : record.allocations) allocation.contents = Contents::synthetic;
    record.notes.emplace_back(
        "launched while its stream was being captured into a CUDA graph: contents not read "
        "(synchronizing would break the capture)");
    return;
  }
  choose_regions(record, s.budget_left);
  for (std::size_t i = 0; i < record.allocations.size(); ++i) {
    AllocationRecord& allocation = record.allocations[i];
    if (allocation.contents != Contents::captured) continue;
    allocation.data.resize(allocation.region_bytes);
    const CUresult copied = driver.cuMemcpyDtoHAsync_v2(
        allocation.data.data(), allocation.allocation.base + allocation.region_offset, allocation.region_bytes, stream);
    if (copied != CUDA_SUCCESS) {
      allocation.contents = Contents::synthetic;
      allocation.data = {};
      s.budget_left += allocation.region_bytes;
      record.notes.push_back("allocation " + std::to_string(i) + ": reading it failed (" + error_name(s, copied) +
                             "): replay fills synthetic data");
      report(s, record.mangled + ": " + record.notes.back());
    }
  }
  if (const CUresult synced = driver.cuStreamSynchronize(stream); synced != CUDA_SUCCESS) {
    for (auto& allocation : record.allocations) {
      if (allocation.contents == Contents::captured) s.budget_left += allocation.region_bytes;
      allocation.contents = Contents::synthetic;
      allocation.data = {};
    }
    record.notes.push_back("synchronizing the launch's stream failed (" + error_name(s, synced) +
                           "): contents not kept, replay fills synthetic data");
    report(s, record.mangled + ": " + record.notes.back());
  }
}

void on_launch(State& s, const CUpti_CallbackData& data, const LaunchArguments& launch) {
  if (data.symbolName == nullptr) return;
  const std::string mangled = data.symbolName;
  const std::string& demangled = demangled_name(s, mangled);
  if (!kernel_selected(s.settings.kernels, mangled, demangled)) return;
  LaunchRecord record{.mangled = mangled, .demangled = demangled, .shape = launch.shape};
  auto lookup = [&](std::uint64_t address) -> std::optional<Allocation> {
    if (auto tracked = s.allocations.find(address)) return tracked;
    if (address == 0) return std::nullopt;
    CUdeviceptr base = 0;
    std::size_t bytes = 0;
    if (s.apis.driver.cuMemGetAddressRange_v2(&base, &bytes, address) != CUDA_SUCCESS) return std::nullopt;
    return Allocation{.base = base, .bytes = bytes};
  };
  auto known = s.kernels.find(mangled);
  if (known != s.kernels.end() && !known->second.empty()) {
    const KernelInModule& kernel = known->second.back();
    record.module = kernel.module;
    record.layout_known = true;
    if (known->second.size() > 1)
      record.notes.push_back("the kernel is in " + std::to_string(known->second.size()) +
                             " different modules; the layout and module of the last one loaded were taken");
    classify_parameters(
        record, kernel.slots, [&](const ParameterSlot& slot) { return parameter_bytes(launch, slot); }, lookup);
  } else {
    record.notes.emplace_back(
        "no loaded module gave this kernel's parameter layout (a module loaded lazily after "
        "the launch, or PTX): parameters not recorded, cannot replay");
  }
  auto& shapes = s.shapes_seen[mangled];
  const std::string key = shape_key(record);
  if (!shapes.contains(key) && shapes.size() >= max_shapes_per_kernel) {
    // A scalar that changes at every launch (a step counter, a time) makes every launch a shape
    // of its own; without a cap each would be synchronized, copied and written.
    report(s, demangled + ": more than " + std::to_string(max_shapes_per_kernel) +
                  " shapes (a scalar argument that changes at every launch?); later shapes are not recorded");
    return;
  }
  std::uint32_t& seen = shapes[key];
  if (seen >= s.settings.launches_per_shape) return;
  record.ordinal = seen++;
  learn_device(s);
  read_contents(s, record, launch.stream);
  if (auto problem = write_capture(s.settings.dir, record, s.program); !problem.empty()) report(s, problem);
}

bool succeeded(const CUpti_CallbackData& data) {
  return data.functionReturnValue != nullptr && *static_cast<const CUresult*>(data.functionReturnValue) == CUDA_SUCCESS;
}

void on_driver_call(State& s, DriverCallback id, const CUpti_CallbackData& data) {
  const void* params = data.functionParams;
  const bool enter = data.callbackSite == CUPTI_API_ENTER;
  switch (id) {
    case DriverCallback::cuLaunchKernel:
    case DriverCallback::cuLaunchKernel_ptsz:
    case DriverCallback::cuLaunchKernelEx:
    case DriverCallback::cuLaunchKernelEx_ptsz:
    case DriverCallback::cuLaunchCooperativeKernel:
    case DriverCallback::cuLaunchCooperativeKernel_ptsz:
      if (enter) on_launch(s, data, launch_arguments(id, params));
      return;
    case DriverCallback::cuMemAlloc_v2:
      if (!enter && succeeded(data)) {
        const auto& p = *static_cast<const cuMemAlloc_v2_params*>(params);
        s.allocations.add(*p.dptr, p.bytesize);
      }
      return;
    case DriverCallback::cuMemAllocManaged:
      if (!enter && succeeded(data)) {
        const auto& p = *static_cast<const cuMemAllocManaged_params*>(params);
        s.allocations.add(*p.dptr, p.bytesize);
      }
      return;
    case DriverCallback::cuMemAllocPitch_v2:
      if (!enter && succeeded(data)) {
        const auto& p = *static_cast<const cuMemAllocPitch_v2_params*>(params);
        s.allocations.add(*p.dptr, std::uint64_t{*p.pPitch} * p.Height);
      }
      return;
    case DriverCallback::cuMemAllocAsync:
    case DriverCallback::cuMemAllocAsync_ptsz:
      if (!enter && succeeded(data)) {
        const auto& p = *static_cast<const cuMemAllocAsync_params*>(params);
        s.allocations.add(*p.dptr, p.bytesize);
      }
      return;
    case DriverCallback::cuMemAllocFromPoolAsync:
    case DriverCallback::cuMemAllocFromPoolAsync_ptsz:
      if (!enter && succeeded(data)) {
        const auto& p = *static_cast<const cuMemAllocFromPoolAsync_params*>(params);
        s.allocations.add(*p.dptr, p.bytesize);
      }
      return;
    case DriverCallback::cuMemMap:
      if (!enter && succeeded(data)) {
        const auto& p = *static_cast<const cuMemMap_params*>(params);
        s.allocations.add(p.ptr, p.size);
      }
      return;
    case DriverCallback::cuMemFree_v2:
      if (enter) s.allocations.remove(static_cast<const cuMemFree_v2_params*>(params)->dptr);
      return;
    case DriverCallback::cuMemFreeAsync:
    case DriverCallback::cuMemFreeAsync_ptsz:
      if (enter) s.allocations.remove(static_cast<const cuMemFreeAsync_params*>(params)->dptr);
      return;
    case DriverCallback::cuMemUnmap:
      if (enter) s.allocations.remove(static_cast<const cuMemUnmap_params*>(params)->ptr);
      return;
  }
}

void on_callback(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (inside_callback || state == nullptr || data == nullptr) return;
  inside_callback = true;
  try {
    const std::lock_guard lock(state->mutex);
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
      on_driver_call(*state, static_cast<DriverCallback>(id), *static_cast<const CUpti_CallbackData*>(data));
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == static_cast<CUpti_CallbackId>(ResourceCallback::module_loaded))
      on_module_loaded(*state, *static_cast<const CUpti_ResourceData*>(data));
  } catch (const std::exception& error) {
    report(*state, std::string("internal error, this launch is not recorded: ") + error.what());
  } catch (...) {
    report(*state, "internal error, this launch is not recorded");
  }
  inside_callback = false;
}

constexpr DriverCallback driver_callbacks[] = {
    DriverCallback::cuMemAlloc_v2,
    DriverCallback::cuMemAllocPitch_v2,
    DriverCallback::cuMemFree_v2,
    DriverCallback::cuLaunchKernel,
    DriverCallback::cuMemAllocManaged,
    DriverCallback::cuLaunchKernel_ptsz,
    DriverCallback::cuLaunchCooperativeKernel,
    DriverCallback::cuLaunchCooperativeKernel_ptsz,
    DriverCallback::cuMemMap,
    DriverCallback::cuMemUnmap,
    DriverCallback::cuMemAllocAsync,
    DriverCallback::cuMemAllocAsync_ptsz,
    DriverCallback::cuMemFreeAsync,
    DriverCallback::cuMemFreeAsync_ptsz,
    DriverCallback::cuMemAllocFromPoolAsync,
    DriverCallback::cuMemAllocFromPoolAsync_ptsz,
    DriverCallback::cuLaunchKernelEx,
    DriverCallback::cuLaunchKernelEx_ptsz,
};

std::string cupti_error(const CuptiApi& cupti, CUptiResult result) {
  const char* text = nullptr;
  if (cupti.cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return "CUptiResult " + std::to_string(result);
}

void initialize() {
  auto owned = std::make_unique<State>();
  State& s = *owned;
  s.settings = read_capture_settings(environment);
  for (const std::string& problem : s.settings.problems) report(s, problem);
  s.budget_left = s.settings.byte_budget;
  s.program.argv = program_arguments();
  s.apis = load_apis(environment);
  if (!s.apis.problem.empty()) {
    report(s, s.apis.problem);
    return;
  }
  const CuptiApi& cupti = s.apis.cupti;
  state = owned.release();  // lives as long as the process: callbacks may come until its end
  CUpti_SubscriberHandle subscriber = nullptr;
  if (const CUptiResult subscribed = cupti.cuptiSubscribe(&subscriber, on_callback, nullptr);
      subscribed != CUPTI_SUCCESS) {
    report(s, "cuptiSubscribe failed (" + cupti_error(cupti, subscribed) +
                  "; another profiler or tool already subscribed?): nothing is captured");
    return;
  }
  for (DriverCallback id : driver_callbacks)
    if (const CUptiResult enabled =
            cupti.cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, static_cast<CUpti_CallbackId>(id));
        enabled != CUPTI_SUCCESS)
      report(s, "cuptiEnableCallback(driver " + std::to_string(static_cast<CUpti_CallbackId>(id)) + ") failed (" +
                    cupti_error(cupti, enabled) + "): those calls are not followed");
  if (const CUptiResult enabled = cupti.cuptiEnableCallback(
          1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, static_cast<CUpti_CallbackId>(ResourceCallback::module_loaded));
      enabled != CUPTI_SUCCESS)
    report(s, "cuptiEnableCallback(module loaded) failed (" + cupti_error(cupti, enabled) +
                  "): no parameter layouts, launches are recorded without parameters");
}

}  // namespace
}  // namespace kforecast::capture::injection

// Called by the CUDA driver once, when it loads the library named by CUDA_INJECTION64_PATH.
// Returns 1 whatever happens: a capture that cannot run must not stop the program.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  try {
    kforecast::capture::injection::initialize();
  } catch (...) {
    std::fputs("kforecast capture: internal error while starting: nothing is captured\n", stderr);
  }
  return 1;
}
