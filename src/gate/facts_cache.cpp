// SPDX-License-Identifier: Apache-2.0
#include "gate/facts_cache.hpp"

#include "policy/ptx_cache.hpp"

namespace kforecast::gate {

std::optional<embedded::FactsCache> default_facts_cache(const EnvLookup& env) {
  if (auto directory = policy::default_ptx_cache_directory(env))
    return embedded::FactsCache(directory->parent_path() / "facts");
  return std::nullopt;
}

}  // namespace kforecast::gate
