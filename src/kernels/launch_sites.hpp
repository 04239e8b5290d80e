// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where host code launches a kernel with the triple-chevron syntax, and with what: the kernel
// as written, its template arguments and the launch configuration. A kernel whose body is
// unchanged runs differently when its grid, block, shared memory or template arguments change,
// so a change to these counts as a change to the kernel.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::kernels {

struct LaunchSite {
  std::string kernel;              // as written, template arguments left out: "k", "ns::k"
  std::string template_arguments;  // as written: "<float, 4>", or empty
  // The template arguments and the configuration (between <<< and >>>) as launches compare:
  // their canonical tokens (canonical_tokens.hpp) joined by single spaces, so that layout and
  // what a formatter rewrites never make two launches differ. "< float , 4 >", "grid , 64 , 0 , s".
  std::string compared_template_arguments;
  std::string configuration;
  std::uint32_t line = 0;  // of the kernel's name
  std::size_t offset = 0;  // of the kernel's name, in the text
};

// Every k<<<...>>> and k<T><<<...>>> in the text, in source order (comments and strings are not
// read). A launch whose kernel is not a name (through a pointer, (*fp)<<<...>>>) is left out.
// Bounded work: each site reads at most a fixed number of tokens either side.
std::vector<LaunchSite> launch_sites(std::string_view text);

// The launches of `head_text` whose configuration or template arguments are new: not among the
// launches of the same kernel in `base_text` (as many times over). Only kernels that
// `base_text` launches count: a launch moved in from elsewhere is not a configuration change.
std::vector<LaunchSite> changed_launches(std::string_view base_text, std::string_view head_text);

}  // namespace kforecast::kernels
