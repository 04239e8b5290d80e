// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where the embedded forecaster keeps the compiler facts it has read, for the commands that run
// it (pr, check, eval, train).

#include <optional>

#include "base/environment.hpp"
#include "embedded/facts_cache.hpp"

namespace kforecast::gate {

// …/kforecast/facts, beside the PTX cache (policy::default_ptx_cache_directory), and absent
// exactly when that is (no cache directory).
std::optional<embedded::FactsCache> default_facts_cache(const EnvLookup& env);

}  // namespace kforecast::gate
