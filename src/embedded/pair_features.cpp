// SPDX-License-Identifier: Apache-2.0
#include "embedded/pair_features.hpp"

#include <fmt/format.h>

#include "cuda/nvrtc.hpp"

namespace kforecast::embedded {

const FeatureVector& FeatureCache::features(const KernelText& kernel, std::string* note) {
  auto [it, inserted] = m_entries.try_emplace({kernel.source, kernel.kernel});
  Entry& entry = it->second;
  if (inserted) {
    entry.source = extract_source_features(kernel.source, kernel.kernel);
    if (m_context.compiler) {
      ++m_compiled;
      bool from_cache = false;
      auto facts = compile_facts(*m_context.compiler, kernel.source, kernel.kernel, m_context.arch,
                                 m_context.facts_cache, &from_cache);
      if (from_cache) ++m_from_cache;
      if (facts) {
        entry.compiler = std::move(*facts);
      } else {
        ++m_failures;
        entry.note = "no NVRTC facts: " + cuda::log_excerpt(facts.error().message, 3);
      }
    } else {
      entry.note = "no NVRTC facts: NVRTC not loaded";
    }
  }
  if (note) *note = entry.note;
  std::string launch_key;
  if (kernel.launch) {
    const auto& l = *kernel.launch;
    launch_key = fmt::format("{} {} {} / {} {} {} / {}", l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1],
                             l.block[2], l.shared_bytes);
  }
  auto [vector, fresh] = m_vectors.try_emplace({kernel.source, kernel.kernel, launch_key});
  if (fresh) vector->second = kernel_features(entry.source, entry.compiler, kernel.launch, m_context.gpu);
  return vector->second;
}

}  // namespace kforecast::embedded
