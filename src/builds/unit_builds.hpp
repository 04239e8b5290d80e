// SPDX-License-Identifier: Apache-2.0
#pragma once

// Building the units a change affects (builds/affected_units.hpp) at both revisions with the
// project's compiler, the way its build does: in parallel, each answer from the unit cache where
// it has one, within a time budget after which the rest are left to the forecast with a note.

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "builds/unit_cache.hpp"
#include "cuda/nvcc_unit.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::builds {

// The project's compile context of a kernel's unit at each revision, as nvcc arguments: what the
// measuring child builds it with, so that what is measured is what ships (measure/shipped_build.hpp).
struct BuildArguments {
  std::vector<std::string> base, head;
  friend bool operator==(const BuildArguments&, const BuildArguments&) = default;
};

// A template kernel's instantiation a unit built at each revision, as a name expression
// ("tiled<64>", "ns::gemm<128, 8>"): what the measuring child instantiates where the kernel's own
// file names none (a template in a header, instantiated by the runner that launches it).
struct Instances {
  std::string base, head;
  // The unit's other instantiations built at both revisions: where a capture holds launches of
  // one of them only (a runner that launches <128, 128> for every size the program runs, and
  // <64, 64> for none), the measurement tries them in turn.
  std::vector<std::string> others;
  friend bool operator==(const Instances&, const Instances&) = default;
};

// The compile context of one unit at one revision: nvcc's arguments and where they came from.
struct UnitContext {
  std::vector<std::string> arguments;  // -I (relative to the repository), -D, -std=, flags
  std::string origin;                  // "build/compile_commands.json", "inferred from the tree", ...
  // Why the unit cannot be compiled as the project builds it here (context::CompileContext::
  // unavailable), or "": then it is not compiled, and that is its not_run reason.
  std::string unavailable;
};
using UnitContextLookup = std::function<UnitContext(const std::string& unit, const kernels::RevisionSources& sources)>;

struct UnitBuildSettings {
  const cuda::UnitCompiler& compiler;
  std::string arch;
  UnitContextLookup context;
  const UnitCache* cache = nullptr;
  std::size_t jobs = 1;
  // For all compiles of the run: a compile still running when it ends is stopped, and the units
  // left are answered from the cache where it can, else not compiled, with `budget_reason`.
  std::chrono::milliseconds budget{600'000};
  std::size_t max_units = 32;  // nearest first (affected_units' order)
  // Whether the compiler's file reads are confined (Landlock): then computed includes are allowed.
  bool reads_confined = true;
  // Called as compiles finish: (done, total).
  std::function<void(std::size_t done, std::size_t total)> progress = {};
  // Why the units left past `budget` were not compiled, for their notes.
  std::string budget_reason = "the compile budget (compile.budget_seconds) was spent";
};

struct SideBuild {
  enum class State { not_run, compiled, failed };
  State state = State::not_run;
  std::vector<std::byte> cubin;
  std::string log;  // warnings, or the compile error
  bool from_cache = false;
  bool refused = false;  // code under review asked for a file outside the tree: never compiled
};

struct UnitBuild {
  std::string unit;
  std::vector<std::size_t> kernels;  // the changed kernels it may build
  UnitContext base_context, head_context;
  SideBuild base, head;
  // Why it was not compiled (UnitBuildSettings::budget_reason, compile.max_units, or its context's
  // UnitContext::unavailable), or "".
  std::string not_run;
};

struct UnitBuilds {
  std::string compiler;  // "nvcc 13.0"
  std::vector<UnitBuild> units;
  std::size_t compiles = 0;    // compiler runs
  std::size_t cache_hits = 0;  // answers from the cache
  std::vector<std::string> notes;
};

UnitBuilds build_affected_units(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                const std::vector<kernel_changes::ChangedKernel>& changed, const UnitBuildSettings& settings);

}  // namespace kforecast::builds
