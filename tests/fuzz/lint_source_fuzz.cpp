// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the lint reads kernel sources under review, which may hold any bytes. Every
// built-in rule runs over the input; it must return, never crash or hang.

#include <cstdint>
#include <string_view>

#include "lint/linter.hpp"
#include "lint/rule_set.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kforecast::lint::RuleSet rules = kforecast::lint::builtin_rules();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)kforecast::lint::lint_source("fuzz.cu", text, rules.rules());
  return 0;
}
