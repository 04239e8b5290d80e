// SPDX-License-Identifier: Apache-2.0
#pragma once

// A shared library opened at run time. kforecast links neither libcuda nor libnvrtc, so the
// binary starts on machines without them and finds out what is there when it needs it.

#include <expected>
#include <initializer_list>
#include <span>
#include <string>

#include "cuda/unavailable.hpp"

namespace kforecast::cuda {

class DynamicLibrary {
 public:
  // dlopen(path, RTLD_NOW | RTLD_LOCAL); a bare soname goes through the loader's own search.
  // The error is dlerror()'s text.
  static std::expected<DynamicLibrary, std::string> open(const std::string& path);

  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  // The address of `name`, or nullptr when the library does not export it.
  void* symbol(const char* name) const;

  // Stores `name`'s address in `function`; false when absent.
  template <class Function>
  bool bind(const char* name, Function*& function) const {
    function = reinterpret_cast<Function*>(symbol(name));
    return function != nullptr;
  }

  // The file the loader actually mapped (a soname resolved to its full path).
  std::string loaded_path() const;

  // Never dlclose: for libraries that start threads or register exit handlers (the CUDA driver),
  // where unloading while those may still run is undefined.
  void keep_loaded() { m_keep_loaded = true; }

 private:
  explicit DynamicLibrary(void* handle) : m_handle(handle) {}
  void close();

  void* m_handle = nullptr;
  bool m_keep_loaded = false;
};

struct OpenedLibrary {
  DynamicLibrary library;
  std::string path;                 // the candidate that opened
  std::size_t index = 0;            // its position in the candidate list
  std::vector<LoadAttempt> failed;  // the candidates before it, with their errors
};

// The first candidate that opens. When none does: Unavailable with every path and its dlerror();
// the caller fills in what is missing and how to fix it.
std::expected<OpenedLibrary, Unavailable> open_first(std::span<const std::string> candidates);

// One entry point a loader needs: its name and whether binding it worked. KF_BIND spells the
// symbol once, so the name looked up and the member filled can never disagree.
struct Binding {
  const char* name;
  bool bound;
};
#define KF_BIND(library, table, symbol) \
  ::kforecast::cuda::Binding { #symbol, (library).bind(#symbol, (table).symbol) }

// The first entry point that could not be bound, or empty when all were.
inline std::string first_unbound(std::initializer_list<Binding> bindings) {
  for (const Binding& binding : bindings)
    if (!binding.bound) return binding.name;
  return {};
}

}  // namespace kforecast::cuda
