// SPDX-License-Identifier: Apache-2.0
#include "cuda/library_search.hpp"

#include <filesystem>

#include <algorithm>

namespace kforecast::cuda {

std::vector<std::string> nvrtc_sonames() {
  // CUDA 11.2 to 11.8 all ship libnvrtc.so.11.2; 11.0 and 11.1 predate that soname policy.
  return {"libnvrtc.so.13",   "libnvrtc.so.12",   "libnvrtc.so.11.2",
          "libnvrtc.so.11.1", "libnvrtc.so.11.0", "libnvrtc.so"};
}

namespace {

void add_unique(std::vector<std::string>& list, std::string item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) list.push_back(std::move(item));
}

std::string toolkit_lib64(const EnvLookup& env, std::string_view variable) {
  if (!env) return {};
  auto root = env(variable);
  if (!root || root->empty()) return {};
  std::string dir = *root;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + "/lib64";
}

}  // namespace

std::vector<std::string> nvrtc_candidates(const LoaderOptions& options, const EnvLookup& env) {
  // An explicit path is used as given: if it cannot be loaded that is the answer, rather than a
  // silent fall back to another NVRTC than the one the user asked for.
  if (!options.nvrtc_library.empty()) return {options.nvrtc_library};
  std::vector<std::string> candidates;
  std::vector<std::string> directories;
  add_unique(directories, toolkit_lib64(env, "CUDA_HOME"));
  add_unique(directories, toolkit_lib64(env, "CUDA_PATH"));
  add_unique(directories, "/usr/local/cuda/lib64");

  const auto sonames = nvrtc_sonames();
  for (const auto& directory : directories)
    for (const auto& soname : sonames) add_unique(candidates, directory + "/" + soname);
  for (const auto& soname : sonames) add_unique(candidates, soname);
  return candidates;
}

std::vector<std::string> driver_candidates(const LoaderOptions& options) {
  if (!options.driver_library.empty()) return {options.driver_library};
  std::vector<std::string> candidates;
  add_unique(candidates, "libcuda.so.1");
  add_unique(candidates, "libcuda.so");
  return candidates;
}

std::string toolkit_include_dir(const EnvLookup& env) {
  std::error_code ec;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (auto root = env(variable); root && !root->empty() && std::filesystem::exists(*root + "/include/cuda.h", ec))
      return *root + "/include";
  return std::filesystem::exists("/usr/local/cuda/include/cuda.h", ec) ? "/usr/local/cuda/include" : "";
}

std::vector<std::string> toolkit_header_dirs(const std::string& include_dir) {
  if (include_dir.empty()) return {};
  std::vector<std::string> dirs{include_dir};
  std::error_code ec;
  if (const auto cccl = std::filesystem::path(include_dir) / "cccl"; std::filesystem::is_directory(cccl, ec))
    dirs.push_back(cccl.string());
  return dirs;
}

bool toolkit_has_header(const std::string& include_dir, std::string_view header) {
  std::error_code ec;
  return std::ranges::any_of(toolkit_header_dirs(include_dir), [&](const std::string& dir) {
    return std::filesystem::exists(std::filesystem::path(dir) / header, ec);
  });
}

}  // namespace kforecast::cuda
