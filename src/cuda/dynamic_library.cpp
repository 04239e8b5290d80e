// SPDX-License-Identifier: Apache-2.0
#include "cuda/dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <utility>

namespace kforecast::cuda {

std::expected<DynamicLibrary, std::string> DynamicLibrary::open(const std::string& path) {
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    return std::unexpected(std::string(error != nullptr ? error : "dlopen failed"));
  }
  return DynamicLibrary(handle);
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr)), m_keep_loaded(other.m_keep_loaded) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    close();
    m_handle = std::exchange(other.m_handle, nullptr);
    m_keep_loaded = other.m_keep_loaded;
  }
  return *this;
}

DynamicLibrary::~DynamicLibrary() { close(); }

void DynamicLibrary::close() {
  if (m_handle != nullptr && !m_keep_loaded) dlclose(m_handle);
  m_handle = nullptr;
}

void* DynamicLibrary::symbol(const char* name) const {
  if (m_handle == nullptr) return nullptr;
  return dlsym(m_handle, name);
}

std::string DynamicLibrary::loaded_path() const {
  link_map* map = nullptr;
  if (m_handle == nullptr || dlinfo(m_handle, RTLD_DI_LINKMAP, static_cast<void*>(&map)) != 0 || map == nullptr ||
      map->l_name == nullptr)
    return {};
  return map->l_name;
}

std::expected<OpenedLibrary, Unavailable> open_first(std::span<const std::string> candidates) {
  std::vector<LoadAttempt> failed;
  for (std::size_t index = 0; index < candidates.size(); ++index) {
    const auto& path = candidates[index];
    auto library = DynamicLibrary::open(path);
    if (library) return OpenedLibrary{std::move(*library), path, index, std::move(failed)};
    failed.push_back({path, library.error()});
  }
  Unavailable missing;
  missing.what = "no library could be loaded";
  if (candidates.empty()) missing.what += " (no candidates)";
  missing.tried = std::move(failed);
  return std::unexpected(std::move(missing));
}

}  // namespace kforecast::cuda
