// SPDX-License-Identifier: Apache-2.0
#pragma once

// A kernel's launch in host code (`k<<<grid, block, shared>>>(...)`), read back into launch-spec
// expressions for spec_draft: a dim3 variable is followed to its declaration, a constant
// (constexpr, const, #define) becomes its value, a host variable passed as a size parameter
// becomes that size variable, CEIL_DIV-like macros become ceil_div, sizeof of a basic type its
// bytes. A part with anything else stays nullopt, its original text kept for the reader.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench/spec_draft.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::bench {

struct HostLaunch {
  std::string where;  // "src/runner.cu:42"
  // Each template argument as a literal (64, float), when every one is; else empty.
  std::vector<std::string> template_arguments;
  std::string template_text;                            // as written: "<BM, BN>"
  std::vector<std::optional<std::string>> grid, block;  // one per dimension
  std::optional<std::string> shared;                    // nullopt when not translated
  std::string grid_text, block_text, shared_text;       // as written; shared_text empty when not given
};

// The first launch of the kernel named `kernel` (its last name component) in `hosts`, in order.
std::optional<HostLaunch> find_host_launch(std::span<const HostSource> hosts, std::string_view kernel,
                                           std::span<const kernels::Parameter> parameters,
                                           std::span<const std::string> size_names);

}  // namespace kforecast::bench
