// SPDX-License-Identifier: Apache-2.0
#pragma once

// The macros that mean something to the scanner: object-like macros that stand for CUDA
// specifiers (#define DEVICE_INLINE __device__ __forceinline__), and function-like macros that
// define a kernel named by one of their parameters (#define DEFINE_KERNEL(name) __global__ ...).
// Other macros are left out, so looking a name up is cheap in the common case.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

struct Specifiers {
  bool global = false;
  bool device = false;
  bool host = false;

  bool any() const { return global || device || host; }
  void add(const Specifiers& other);
};

struct MacroMeaning {
  std::string name;
  std::vector<std::string> parameters;
  Specifiers specifiers;  // what the macro stands for when it is object-like
  // For a kernel-defining macro: which parameter names the kernel, and the kernel as the macro
  // body declares it, still in terms of the macro's parameters. The kernel's name lists are
  // empty: the names its body uses and calls are kept here, owned, since the macro's text may
  // not outlive the table.
  std::optional<std::size_t> kernel_name_parameter;
  Function kernel;
  std::vector<std::string> kernel_identifiers;
  std::vector<std::string> kernel_calls;
};

class MacroTable {
 public:
  void define(const Macro& macro);
  const MacroMeaning* find(std::string_view name) const {
    // Most names looked up are not macros with a meaning: their length alone says so.
    if ((m_name_lengths & length_bit(name.size())) == 0) return nullptr;
    const auto found = m_meanings.find(name);
    return found == m_meanings.end() ? nullptr : &found->second;
  }
  // The kernel that `meaning` defines when invoked with `arguments` (each argument's tokens);
  // nothing when the argument that names the kernel is not one identifier. Its name lists view
  // `store`.
  std::optional<Function> expand(const MacroMeaning& meaning, std::span<const std::span<const Token>> arguments,
                                 TextStore& store) const;

 private:
  static std::uint64_t length_bit(std::size_t length) { return std::uint64_t{1} << std::min<std::size_t>(length, 63); }
  bool may_mean_something(const Macro& macro) const;
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  std::unordered_map<std::string, MacroMeaning, Hash, std::equal_to<>> m_meanings;
  std::uint64_t m_name_lengths = 0;  // a bit per length of a name in m_meanings (63: longer)
};

}  // namespace kforecast::kernels
