// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which removed kernel became which added one. A commit that wraps a file's kernels in a
// namespace, renames one, or renames and edits one removes a kernel and adds another that is
// the same kernel to a reader; left unpaired, it gets no forecast and no benchmark. Pairs are
// found within one file (after file renames), one to one, in three passes, each over what the
// previous left:
//   1. qualification: the same unqualified name (ns::k was k);
//   2. identical code: the same body tokens and parameter types (a rename);
//   3. similar code: token-trigram Jaccard of the bodies at least similar_code_threshold, best
//      pairs first (a rename with an edit).
// Deterministic: ties go to the earlier kernel in site order.

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::kernel_changes {

enum class PairedBy { qualification, identical_code, similar_code };

struct KernelPair {
  std::size_t removed = 0;  // index into the removed sites
  std::size_t added = 0;    // index into the added sites
  PairedBy by = PairedBy::qualification;
};

inline constexpr double similar_code_threshold = 0.6;

// Bounds the similarity pass on hostile or generated input: beyond this many removed or added
// kernels in one file, the later ones are left unpaired by similarity (they may still pair by
// name or identical code).
inline constexpr std::size_t most_kernels_compared_per_file = 128;

// `to_head_path` maps a base file renamed by the change to its head path.
std::vector<KernelPair> pair_removed_with_added(const kernels::RevisionSources& base,
                                                std::span<const KernelSite> removed,
                                                const kernels::RevisionSources& head, std::span<const KernelSite> added,
                                                const std::map<std::string, std::string>& to_head_path);

}  // namespace kforecast::kernel_changes
