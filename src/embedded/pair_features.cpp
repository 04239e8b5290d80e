// SPDX-License-Identifier: Apache-2.0
#include "embedded/pair_features.hpp"

#include <algorithm>
#include <future>
#include <vector>

#include <fmt/format.h>

#include "cuda/nvrtc.hpp"

namespace kforecast::embedded {

SourceFeatures FeatureCache::source_features(const KernelText& kernel) {
  auto scan = std::ranges::find_if(m_scans, [&](const auto& held) { return held.first == kernel.source; });
  if (scan == m_scans.end()) {
    // Two are kept: a pair's reference and candidate alternate, file after file.
    if (m_scans.size() >= 2) m_scans.pop_back();
    m_scans.insert(m_scans.begin(), {kernel.source, std::make_shared<const ScannedKernelSource>(kernel.source.view())});
    scan = m_scans.begin();
  }
  return scan->second->features(kernel.kernel);
}

void FeatureCache::compile(const KernelText& kernel, Entry& entry) const {
  if (!m_context.compiler) {
    entry.note = "no NVRTC facts: NVRTC not loaded";
    return;
  }
  entry.asked_compiler = true;
  auto facts = compile_facts(*m_context.compiler, kernel.source, kernel.kernel, m_context.arch, m_context.facts_cache,
                             &entry.from_cache, m_context.header);
  if (facts)
    entry.compiler = std::move(*facts);
  else
    entry.note = "no NVRTC facts: " + cuda::log_excerpt(facts.error().message, 3);
}

void FeatureCache::count(const Entry& entry) {
  if (!entry.asked_compiler) return;
  ++m_compiled;
  if (entry.from_cache) ++m_from_cache;
  if (!entry.compiler) ++m_failures;
}

void FeatureCache::prepare(std::initializer_list<const KernelText*> kernels) {
  std::vector<const KernelText*> missing;
  for (const KernelText* kernel : kernels) {
    const bool seen = m_entries.contains({kernel->source, kernel->kernel}) ||
                      std::ranges::any_of(missing, [&](const KernelText* other) {
                        return other->source == kernel->source && other->kernel == kernel->kernel;
                      });
    if (!seen) missing.push_back(kernel);
  }
  // Without a compiler an extraction is microseconds: a thread would cost more than it saves.
  if (missing.size() < 2 || !m_context.compiler) return;
  std::vector<Entry> entries(missing.size());
  for (std::size_t i = 0; i < missing.size(); ++i) entries[i].source = source_features(*missing[i]);
  std::vector<std::future<void>> others;
  for (std::size_t i = 1; i < missing.size(); ++i)
    others.push_back(
        std::async(std::launch::async, [this, kernel = missing[i], entry = &entries[i]] { compile(*kernel, *entry); }));
  compile(*missing.front(), entries.front());
  for (auto& other : others) other.get();
  for (std::size_t i = 0; i < missing.size(); ++i) {
    count(entries[i]);
    m_entries.emplace(std::pair{missing[i]->source, missing[i]->kernel}, std::move(entries[i]));
  }
}

const FeatureVector& FeatureCache::features(const KernelText& kernel, std::string* note) {
  auto it = m_entries.find({kernel.source, kernel.kernel});
  if (it == m_entries.end()) {
    Entry entry;
    entry.source = source_features(kernel);
    compile(kernel, entry);
    count(entry);
    it = m_entries.emplace(std::pair{kernel.source, kernel.kernel}, std::move(entry)).first;
  }
  const Entry& entry = it->second;
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
