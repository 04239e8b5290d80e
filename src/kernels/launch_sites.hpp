// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where host code launches a kernel, and with what: the kernel as written, its template
// arguments and the launch configuration. A kernel whose body is unchanged runs differently when
// its grid, block, shared memory or template arguments change, so a change to these counts as a
// change to the kernel. The forms read:
//   k<<<grid, block>>>(...), k<T><<<...>>>(...);
//   a local that holds the kernel: auto kernel = &k<T, true>; kernel<<<grid, block>>>(...)
//     (flash-attention), or several assignments to one before the launch;
//   with api_calls, the runtime's launch functions: cudaLaunchKernelEx(&cfg, k<T>, args...),
//     cudaLaunchKernel((void*)k, grid, block, args, smem, stream), cudaLaunchCooperativeKernel;
//   with wrappers, a macro that launches the kernel a parameter names:
//     #define LAUNCH_KERNEL(config, kernel, ...) CHECK(cudaLaunchKernelEx(config, kernel, __VA_ARGS__))
//     LAUNCH_KERNEL(&cfg, notify<ranks>, a, b);   (DeepEP)

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"

namespace kforecast::kernels {

struct LaunchSite {
  std::string kernel;              // as written, template arguments left out: "k", "ns::k"
  std::string template_arguments;  // as written: "<float, 4>", or empty
  // The template arguments and the configuration as launches compare: their canonical tokens
  // (canonical_tokens.hpp) joined by single spaces, so that layout and what a formatter rewrites
  // never make two launches differ. "< float , 4 >"; between <<< and >>>, "grid , 64 , 0 , s";
  // for cudaLaunchKernelEx its configuration argument ("& cfg"); for cudaLaunchKernel its grid,
  // block, shared memory and stream.
  std::string compared_template_arguments;
  std::string configuration;
  // The names passed whole as the kernel's arguments ((params, n) gives params and n): what a
  // kernel template deduces its template arguments from.
  std::vector<std::string> argument_names;
  // What the kernel is launched through where it is not launched by its name with <<<...>>>:
  // the local that holds it ("kernel"), the runtime's function ("cudaLaunchKernelEx"), or the
  // wrapper macro ("LAUNCH_KERNEL"). Empty otherwise.
  std::string through;
  // The macro whose #define holds the launch, which runs where the macro is used; or empty.
  std::string in_macro;
  std::uint32_t line = 0;  // of the launch's first token
  std::size_t offset = 0;  // of the launch's first token, in the text
};

// A function-like macro that launches the kernel one of its parameters names (the forms above).
struct LaunchWrapper {
  std::string name;
  std::vector<std::string> parameters;
  std::size_t kernel_parameter = 0;
  std::string configuration;  // canonical, in terms of the parameters: "& config"
};

// The macros among `macros` that launch a kernel their parameter names.
std::vector<LaunchWrapper> launch_wrappers(std::span<const Macro> macros);

struct LaunchSiteOptions {
  bool api_calls = false;  // read cudaLaunchKernelEx and the like too
  std::span<const LaunchWrapper> wrappers;
};

// Every launch in the text, in source order (comments and strings are not read). A launch
// whose kernel is not a name (through a pointer, (*fp)<<<...>>>) is left out.
// Bounded work: each site reads at most a fixed number of tokens either side.
std::vector<LaunchSite> launch_sites(std::string_view text, const LaunchSiteOptions& options = {});

// Whether the text may launch a kernel in one of the forms `options` reads: a cheap test
// before launch_sites.
bool may_launch(std::string_view text, const LaunchSiteOptions& options = {});

// The launches of `head_text` whose configuration or template arguments are new: not among the
// launches of the same kernel in `base_text` (as many times over). Only kernels that
// `base_text` launches count: a launch moved in from elsewhere is not a configuration change.
std::vector<LaunchSite> changed_launches(std::string_view base_text, std::string_view head_text);
// The same over launches already read.
std::vector<LaunchSite> changed_launches(std::span<const LaunchSite> base_launches,
                                         std::span<const LaunchSite> head_launches);

}  // namespace kforecast::kernels
