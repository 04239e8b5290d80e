// SPDX-License-Identifier: Apache-2.0
#pragma once

// A measure::BenchWorld for tests of preparing a pair: git and CUDA's headers as kforecast finds
// them for `env`; no driver or compiler (tests that measure use the GPU tests' own).

#include "base/environment.hpp"
#include "cuda/library_search.hpp"
#include "git/repository.hpp"
#include "measure/bench_measure.hpp"

namespace kforecast::testing {

// The real git, for tests of what a stage reads through a repository.
inline git::RepositoryOpener git_opener() {
  return [](const std::filesystem::path& folder) { return git::open_repository(folder); };
}

inline measure::BenchWorld bench_world(const EnvLookup& env) {
  return {.repository = [](const std::filesystem::path& folder) { return git::open_repository(folder); },
          .cuda_include_dir = cuda::toolkit_include_dir(env)};
}

}  // namespace kforecast::testing
