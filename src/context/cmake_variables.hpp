// SPDX-License-Identifier: Apache-2.0
#pragma once

// How set(), list() and string() change the variables of the build-file reader
// (cmake_defines.hpp), and the value of a variable it cannot work out.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "context/cmake_condition.hpp"

namespace kforecast::context {

class VariableCommands {
 public:
  // `arch`: the target architecture's number, which variables named for one take; a value longer
  // than `max_value_bytes` is not known.
  VariableCommands(std::optional<int> arch, std::size_t max_value_bytes)
      : m_arch(arch), m_max_value_bytes(max_value_bytes) {}

  std::string computed(const std::string& name) const;
  void set_variable(Variables& variables, const std::string& name, std::string value) const;
  // Each takes the command's expanded arguments.
  void set(const std::vector<std::string>& words, Variables& variables) const;
  void list(const std::vector<std::string>& words, Variables& variables) const;
  void string(const std::vector<std::string>& words, Variables& variables) const;

 private:
  std::optional<int> m_arch;
  std::size_t m_max_value_bytes;
};

}  // namespace kforecast::context
