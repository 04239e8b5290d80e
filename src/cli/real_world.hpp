// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real implementations of every seam the stage libraries reach the outside world through,
// built here and nowhere else (scripts/check-layers.py holds the line): NVRTC in a confined
// child and the toolkit's nvcc confined, the CUDA driver and the benchmark child, libcurl for an
// LLM endpoint, git, the project's programs run confined, the caches on disk, the clock.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "base/environment.hpp"
#include "builds/compilers.hpp"
#include "builds/unit_cache.hpp"
#include "change/pr_sources.hpp"
#include "config/config.hpp"
#include "embedded/facts_cache.hpp"
#include "forecasters/llm_settings.hpp"
#include "measure/bench_measure.hpp"
#include "measure/gpu_access.hpp"
#include "measure/project_programs.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::cli {

// `config` must outlive each result that keeps it.
builds::Compilers real_compilers(const config::Config& config, const EnvLookup& env);
measure::GpuAccess real_gpu(const config::Config& config);
forecasters::LlmWorld real_llm_world(const config::Config& config, const EnvLookup& env);
measure::BenchWorld real_bench_world(const config::Config& config, const EnvLookup& env);
measure::ProjectPrograms real_project_programs(const EnvLookup& env);

// The caches of kforecast's cache folder ($XDG_CACHE_HOME/kforecast, else ~/.cache/kforecast);
// each absent where there is no cache folder.
struct OpenedCaches {
  std::optional<builds::UnitCache> units;
  std::optional<policy::PtxCache> ptx;
  std::optional<embedded::FactsCache> facts;
};
OpenedCaches open_caches(const EnvLookup& env);
std::optional<embedded::FactsCache> default_facts_cache(const EnvLookup& env);

// compile.submodules = "fetch": fetches a pinned commit into kforecast's cache folder
// (submodules/) and opens it; nullopt where the config does not ask for it or there is no cache
// folder (then a note says why in `notes`).
std::optional<change::SubmoduleFetcher> real_submodule_fetcher(const config::Config& config,
                                                                              const EnvLookup& env,
                                                                              std::vector<std::string>& notes);

// Where lint keeps its compiler facts, or nullopt.
std::optional<std::filesystem::path> lint_facts_folder(const EnvLookup& env);

// Now, as the ledger records it (UTC, ISO 8601).
std::string utc_timestamp();

}  // namespace kforecast::cli
