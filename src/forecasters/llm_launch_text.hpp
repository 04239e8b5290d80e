// SPDX-License-Identifier: Apache-2.0
#pragma once

// The launch configuration the LLM prompt shows for a changed kernel: its launch spec, looked up
// as `kforecast bench` looks it up (each side's own spec is its `// kforecast:` comment block,
// else a [[kernel]] table of the config; the candidate's gives the sizes and arguments, else the
// reference's), evaluated for each problem size and bound to the candidate's parameters. Where
// the reference has a spec of its own with another geometry (grid, block, shared memory,
// instantiation, defines), that launch is shown too, as the runner would launch it. No spec
// leaves the text empty (the prompt then says the sizes are unknown). A spec that cannot be read is left out of the
// prompt and named in a note, as is a size that does not resolve: the report says so rather than the forecast silently
// going without.

#include <optional>
#include <string>
#include <vector>

#include "bench/launch_spec.hpp"
#include "bench/resolved_launch.hpp"
#include "config/config.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::forecasters {

// The config's [[kernel]] tables, read once per run. A config whose tables cannot be read gives
// no specs and a note naming the problem's place.
struct ConfigLaunchSpecs {
  std::vector<bench::LaunchSpec> specs;
  std::vector<std::string> notes;
};
ConfigLaunchSpecs config_launch_specs(const config::Config& config);

struct KernelLaunchText {
  std::string text;                // "" when the kernel has no usable spec
  std::vector<std::string> notes;  // for the kernel's report entry
};

KernelLaunchText kernel_launch_text(const kernels::RevisionSources& base, const kernel_changes::KernelSite& base_site,
                                    const kernels::RevisionSources& head, const kernel_changes::KernelSite& head_site,
                                    const std::vector<bench::LaunchSpec>& config_specs);

// Each side's launch as the runner would launch it at the spec's first size (the same lookup as
// above), for the embedded forecaster's launch features; nullopt for a side with no usable spec
// or a first size that does not resolve (the forecast then goes without, and says so).
struct PairLaunches {
  std::optional<bench::ResolvedLaunch> reference;
  std::optional<bench::ResolvedLaunch> candidate;
};
PairLaunches kernel_launches(const kernels::RevisionSources& base, const kernel_changes::KernelSite& base_site,
                             const kernels::RevisionSources& head, const kernel_changes::KernelSite& head_site,
                             const std::vector<bench::LaunchSpec>& config_specs);

}  // namespace kforecast::forecasters
