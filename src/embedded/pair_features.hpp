// SPDX-License-Identifier: Apache-2.0
#pragma once

// Features of both kernels of a pair, with NVRTC facts where a compiler is given. Each distinct
// (source, kernel) is extracted and compiled once: in a corpus every variant appears in many
// pairs. Sources are held as the shared texts they are (never copied per kernel), and a source is
// scanned once for all of its kernels that are asked about in a row (`kforecast pr` asks file by
// file).

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda/compiler.hpp"
#include "embedded/facts_cache.hpp"
#include "embedded/kernel_features.hpp"
#include "embedded/labelled_pairs.hpp"

namespace kforecast::embedded {

struct FeatureContext {
  const cuda::Compiler* compiler = nullptr;  // nullptr: no NVRTC facts
  std::string arch = "sm_90";
  Gpu gpu;
  const FactsCache* facts_cache = nullptr;                      // nullptr: facts are compiled on every run
  BuiltinHeader header = BuiltinHeader::minimal_when_possible;  // full: as before -minimal (the bench's baseline)
};

class FeatureCache {
 public:
  explicit FeatureCache(FeatureContext context) : m_context(std::move(context)) {}

  // The kernel's features; `note` (if given) receives why compiler facts are missing, if they are.
  const FeatureVector& features(const KernelText& kernel, std::string* note = nullptr);
  // Extracts (and compiles) the texts not seen yet, concurrently when more than one must be
  // compiled: a pair's two new texts cost one compile's wall time on two cores, not two.
  void prepare(std::initializer_list<const KernelText*> kernels);
  // Texts whose compiler facts were asked for (from the cache or NVRTC), and of those read from
  // the on-disk cache.
  std::size_t compiled() const { return m_compiled; }
  std::size_t facts_from_cache() const { return m_from_cache; }
  std::size_t compile_failures() const { return m_failures; }

 private:
  struct Entry {
    SourceFeatures source;
    std::optional<CompilerFacts> compiler;
    std::string note;
    bool asked_compiler = false;  // for the counters below
    bool from_cache = false;
  };
  // The kernel's source features, from the scan of its source (kept for the next kernels).
  SourceFeatures source_features(const KernelText& kernel);
  // Pure of the cache's state (so several run at once): the compiler facts.
  void compile(const KernelText& kernel, Entry& entry) const;
  void count(const Entry& entry);
  FeatureContext m_context;
  std::map<std::pair<SharedText, std::string>, Entry> m_entries;                        // (source, kernel)
  std::map<std::tuple<SharedText, std::string, std::string>, FeatureVector> m_vectors;  // + launch key
  // The scans of the sources read last (a pair's two sides), most recent first.
  std::vector<std::pair<SharedText, std::shared_ptr<const ScannedKernelSource>>> m_scans;
  std::size_t m_compiled = 0;
  std::size_t m_failures = 0;
  std::size_t m_from_cache = 0;
};

}  // namespace kforecast::embedded
