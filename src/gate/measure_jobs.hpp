// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kernels the GPU step measures, as self-contained jobs: both revisions' texts of each kernel
// (its file and the local headers it reaches, each text shared by every job that needs it), the
// name it is measured by and the project's context to build it with, so a job can be measured
// where the repository is not (a plan's GPU shard).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/shared_text.hpp"
#include "gate/kernel_case.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::gate {

// One kernel to measure, self-contained: both sides' texts (the kernel's file and the local
// headers it reaches), so it can be measured where the repository is not (a plan's GPU shard).
struct MeasureSide {
  std::string file;                                       // the kernel's file
  std::string kernel;                                     // its qualified name
  std::vector<std::pair<std::string, SharedText>> files;  // path, text: `file` and its closure (shared by jobs)
  // The project's context to build it with (nvcc); nullopt: NVRTC (KernelCase::build_arguments).
  std::optional<std::vector<std::string>> build_arguments;
};
struct MeasureJob {
  std::size_t entry = 0;  // index into run.cases (and the report's kernels)
  bool complete = false;  // false: a version is missing at one revision, nothing to compare
  MeasureSide base;
  MeasureSide head;
  // Where both sides are measured at an instantiation the build made, the build's others, for a
  // capture that launched one of those instead (builds::Instances::others); not in a plan.
  std::vector<std::string> other_instances;
};

// The jobs of `to_measure`, in the same order.
std::vector<MeasureJob> measure_jobs(std::span<const std::size_t> to_measure, const kernels::RevisionSources& base,
                                     const kernels::RevisionSources& head, std::span<const KernelCase> cases);

}  // namespace kforecast::gate
