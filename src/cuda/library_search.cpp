// SPDX-License-Identifier: Apache-2.0
#include "cuda/library_search.hpp"

#include <filesystem>

#include <algorithm>
#include <charconv>
#include <functional>
#include <utility>

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

// The toolkit's library folder: lib64 as the installers make it, or lib where that is all there
// is (NVIDIA's wheels, conda), so a CUDA_HOME naming a private toolkit finds its NVRTC too.
std::string toolkit_lib64(const EnvLookup& env, std::string_view variable) {
  if (!env) return {};
  auto root = env(variable);
  if (!root || root->empty()) return {};
  std::string dir = *root;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::error_code ec;
  if (!std::filesystem::exists(dir + "/lib64", ec) && std::filesystem::is_directory(dir + "/lib", ec))
    return dir + "/lib";
  return dir + "/lib64";
}

// "13.0.88" as numbers, for ordering folder names; a part that is not a number counts as 0.
std::vector<int> version_numbers(std::string_view text) {
  std::vector<int> numbers;
  while (!text.empty()) {
    const auto dot = text.find('.');
    const auto part = text.substr(0, dot);
    int number = 0;
    std::from_chars(part.data(), part.data() + part.size(), number);
    numbers.push_back(number);
    text = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  }
  return numbers;
}

}  // namespace

std::string private_toolkit_parent(const EnvLookup& env) {
  if (!env) return {};
  if (auto xdg = env("XDG_CACHE_HOME"); xdg && !xdg->empty()) return *xdg + "/kforecast";
  if (auto home = env("HOME"); home && !home->empty()) return *home + "/.cache/kforecast";
  return {};
}

std::vector<std::string> private_toolkit_roots(const EnvLookup& env) {
  const std::string parent = private_toolkit_parent(env);
  if (parent.empty()) return {};
  std::vector<std::pair<std::vector<int>, std::string>> found;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with("cuda-")) continue;
    const auto root = it->path() / "toolkit";
    std::error_code exists_ec;
    if (std::filesystem::exists(root / "bin/nvcc", exists_ec) || std::filesystem::is_directory(root / "lib", exists_ec))
      found.emplace_back(version_numbers(std::string_view(name).substr(5)), root.string());
  }
  std::ranges::sort(found, std::greater<>());
  std::vector<std::string> roots;
  for (auto& [version, root] : found) roots.push_back(std::move(root));
  return roots;
}

std::string nvrtc_builtins_beside(const std::string& nvrtc_path, int major, int minor) {
  const auto directory = std::filesystem::path(nvrtc_path).parent_path();
  if (directory.empty()) return {};
  const auto builtins = directory / ("libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor));
  std::error_code ec;
  return std::filesystem::exists(builtins, ec) ? builtins.string() : std::string();
}

std::vector<std::string> nvrtc_candidates(const LoaderOptions& options, const EnvLookup& env) {
  // An explicit path is used as given: if it cannot be loaded that is the answer, rather than a
  // silent fall back to another NVRTC than the one the user asked for.
  if (!options.nvrtc_library.empty()) return {options.nvrtc_library};
  std::vector<std::string> candidates;
  std::vector<std::string> directories;
  add_unique(directories, toolkit_lib64(env, "CUDA_HOME"));
  add_unique(directories, toolkit_lib64(env, "CUDA_PATH"));
  add_unique(directories, "/usr/local/cuda/lib64");
  for (const auto& root : private_toolkit_roots(env)) add_unique(directories, root + "/lib");

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
  if (std::filesystem::exists("/usr/local/cuda/include/cuda.h", ec)) return "/usr/local/cuda/include";
  for (const auto& root : private_toolkit_roots(env))
    if (std::filesystem::exists(root + "/include/cuda.h", ec)) return root + "/include";
  return {};
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
