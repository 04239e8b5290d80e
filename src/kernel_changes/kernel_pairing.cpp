// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/kernel_pairing.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

#include "kernels/fingerprint.hpp"
#include "kernels/token_similarity.hpp"

namespace kforecast::kernel_changes {

using kernels::Function;
using kernels::jaccard;
using kernels::RevisionSources;
using kernels::token_fingerprint;
using kernels::TokenShingles;

namespace {

std::string_view unqualified(std::string_view name) {
  const std::size_t colons = name.rfind("::");
  return colons == std::string_view::npos ? name : name.substr(colons + 2);
}

const Function& function_at(const RevisionSources& sources, const KernelSite& site) {
  return sources.scanned(site.file).functions[site.function_index];
}

// What identifies a kernel's code apart from its name: body tokens and parameter types.
std::pair<std::uint64_t, std::string> shape(const RevisionSources& sources, const KernelSite& site) {
  const Function& function = function_at(sources, site);
  std::string parameters;
  for (const auto& parameter : function.parameters) parameters += parameter.type + ",";
  return {token_fingerprint(sources.files().at(site.file), function.body), parameters};
}

class Pairing {
 public:
  Pairing(const RevisionSources& base, std::span<const KernelSite> removed, const RevisionSources& head,
          std::span<const KernelSite> added, const std::map<std::string, std::string>& to_head_path)
      : m_base(base), m_removed(removed), m_head(head), m_added(added) {
    for (const KernelSite& site : removed) {
      const auto mapped = to_head_path.find(site.file);
      m_removed_file.push_back(mapped == to_head_path.end() ? site.file : mapped->second);
    }
    m_removed_taken.assign(removed.size(), false);
    m_added_taken.assign(added.size(), false);
    m_removed_shapes.resize(removed.size());
    m_added_shapes.resize(added.size());
  }

  std::vector<KernelPair> run() {
    by_name_or_code(PairedBy::qualification);
    by_name_or_code(PairedBy::identical_code);
    by_similar_code();
    return std::move(m_pairs);
  }

 private:
  void take(std::size_t r, std::size_t a, PairedBy by) {
    m_removed_taken[r] = m_added_taken[a] = true;
    m_pairs.push_back({r, a, by});
  }

  using Shape = std::pair<std::uint64_t, std::string>;
  const Shape& removed_shape(std::size_t r) {
    if (!m_removed_shapes[r]) m_removed_shapes[r] = shape(m_base, m_removed[r]);
    return *m_removed_shapes[r];
  }
  const Shape& added_shape(std::size_t a) {
    if (!m_added_shapes[a]) m_added_shapes[a] = shape(m_head, m_added[a]);
    return *m_added_shapes[a];
  }

  // Candidates are looked up by (file, key), so a file with thousands of kernels costs no more
  // than sorting them. Name pairs prefer the candidate with the same code, so that k and ns::k
  // pair with each other where both an edited and an unedited one exist.
  void by_name_or_code(PairedBy by) {
    auto key_of_added = [&](std::size_t a) {
      return by == PairedBy::identical_code ? code_key(added_shape(a))
                                            : std::string(unqualified(m_added[a].qualified_name));
    };
    std::map<std::pair<std::string_view, std::string>, std::vector<std::size_t>> open;
    for (std::size_t a = 0; a < m_added.size(); ++a)
      if (!m_added_taken[a]) open[{m_added[a].file, key_of_added(a)}].push_back(a);
    for (std::size_t r = 0; r < m_removed.size(); ++r) {
      if (m_removed_taken[r]) continue;
      const std::string key = by == PairedBy::identical_code ? code_key(removed_shape(r))
                                                             : std::string(unqualified(m_removed[r].qualified_name));
      const auto found = open.find({m_removed_file[r], key});
      if (found == open.end()) continue;
      std::optional<std::size_t> chosen;
      for (const std::size_t a : found->second) {
        if (m_added_taken[a]) continue;
        if (!chosen) chosen = a;
        if (by == PairedBy::identical_code || removed_shape(r) == added_shape(a)) {
          chosen = a;
          break;
        }
      }
      if (chosen) take(r, *chosen, by);
    }
  }

  static std::string code_key(const Shape& code) { return std::to_string(code.first) + "|" + code.second; }

  void by_similar_code() {
    struct Candidate {
      double similarity;
      std::size_t removed;
      std::size_t added;
    };
    std::vector<Candidate> candidates;
    std::vector<std::optional<TokenShingles>> added_shingles(m_added.size());
    auto shingles_of_added = [&](std::size_t a) -> const TokenShingles& {
      if (!added_shingles[a]) added_shingles[a] = body_shingles(m_head, m_added[a]);
      return *added_shingles[a];
    };
    std::map<std::string_view, std::vector<std::size_t>> added_by_file;
    for (std::size_t a = 0; a < m_added.size(); ++a) {
      auto& in_file = added_by_file[m_added[a].file];
      if (!m_added_taken[a] && in_file.size() < most_kernels_compared_per_file) in_file.push_back(a);
    }
    std::map<std::string_view, std::size_t> removed_seen_per_file;
    for (std::size_t r = 0; r < m_removed.size(); ++r) {
      if (m_removed_taken[r] || ++removed_seen_per_file[m_removed_file[r]] > most_kernels_compared_per_file) continue;
      const auto in_file = added_by_file.find(m_removed_file[r]);
      if (in_file == added_by_file.end()) continue;
      const TokenShingles removed_shingles = body_shingles(m_base, m_removed[r]);
      for (const std::size_t a : in_file->second) {
        const TokenShingles& other = shingles_of_added(a);
        // The Jaccard index is at most the ratio of the sizes: most unrelated pairs stop here.
        const std::size_t fewer = std::min(removed_shingles.hashes.size(), other.hashes.size());
        const std::size_t more = std::max(removed_shingles.hashes.size(), other.hashes.size());
        if (static_cast<double>(fewer) < similar_code_threshold * static_cast<double>(more)) continue;
        const double similarity = jaccard(removed_shingles, other);
        if (similarity >= similar_code_threshold) candidates.push_back({similarity, r, a});
      }
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
      return std::tuple(-x.similarity, x.removed, x.added) < std::tuple(-y.similarity, y.removed, y.added);
    });
    for (const Candidate& c : candidates)
      if (!m_removed_taken[c.removed] && !m_added_taken[c.added]) take(c.removed, c.added, PairedBy::similar_code);
  }

  static TokenShingles body_shingles(const RevisionSources& sources, const KernelSite& site) {
    return token_shingles(sources.files().at(site.file), function_at(sources, site).body);
  }

  const RevisionSources& m_base;
  std::span<const KernelSite> m_removed;
  const RevisionSources& m_head;
  std::span<const KernelSite> m_added;
  std::vector<std::string> m_removed_file;  // in the head's naming
  std::vector<bool> m_removed_taken;
  std::vector<bool> m_added_taken;
  std::vector<std::optional<Shape>> m_removed_shapes;
  std::vector<std::optional<Shape>> m_added_shapes;
  std::vector<KernelPair> m_pairs;
};

}  // namespace

std::vector<KernelPair> pair_removed_with_added(const RevisionSources& base, std::span<const KernelSite> removed,
                                                const RevisionSources& head, std::span<const KernelSite> added,
                                                const std::map<std::string, std::string>& to_head_path) {
  return Pairing(base, removed, head, added, to_head_path).run();
}

}  // namespace kforecast::kernel_changes
