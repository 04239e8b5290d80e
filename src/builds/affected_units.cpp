// SPDX-License-Identifier: Apache-2.0
#include "builds/affected_units.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "kernels/lexer.hpp"

namespace kforecast::builds {
namespace {

using kernels::RevisionSources;

// Distance from each file to `unit` in the include graph: 0 for the unit, 1 for what it includes, ...
std::map<std::string, std::size_t> include_distances(const RevisionSources& sources, const std::string& unit) {
  std::map<std::string, std::size_t> distance{{unit, 0}};
  std::deque<std::string> queue{unit};
  while (!queue.empty()) {
    const std::string file = std::move(queue.front());
    queue.pop_front();
    for (const auto& header : sources.includes(file))
      if (distance.emplace(header, distance[file] + 1).second) queue.push_back(header);
  }
  return distance;
}

// The files whose text differs between the revisions (or that only one has).
std::set<std::string> changed_files(const RevisionSources& base, const RevisionSources& head) {
  std::set<std::string> changed;
  for (const auto& [path, text] : head.files())
    if (const auto found = base.files().find(path); found == base.files().end() || found->second != text)
      changed.insert(path);
  for (const auto& [path, text] : base.files())
    if (!head.files().contains(path)) changed.insert(path);
  return changed;
}

// Whether two texts of a file differ in their tokens, not only in comments, whitespace or line
// endings: a comment-only edit cannot change what any unit compiles.
bool tokens_differ(std::string_view base, std::string_view head) {
  const auto a = kernels::lex(base);
  const auto b = kernels::lex(head);
  return !std::ranges::equal(a, b, [](const kernels::Token& x, const kernels::Token& y) {
    return x.kind == y.kind && x.text() == y.text();
  });
}

// The changed files whose code changed (a file only one revision has counts).
std::set<std::string> code_changed_files(const RevisionSources& base, const RevisionSources& head) {
  std::set<std::string> changed;
  for (const auto& path : changed_files(base, head)) {
    const auto in_base = base.files().find(path);
    const auto in_head = head.files().find(path);
    if (in_base == base.files().end() || in_head == head.files().end() ||
        tokens_differ(in_base->second, in_head->second))
      changed.insert(path);
  }
  return changed;
}

struct UnitReach {
  std::string path;
  std::map<std::string, std::size_t> head, base;  // include distances at each revision
  std::size_t distance_to(const std::string& file) const {
    const auto in_head = head.find(file);
    const auto in_base = base.find(file);
    return std::min(in_head == head.end() ? std::string::npos : in_head->second,
                    in_base == base.end() ? std::string::npos : in_base->second);
  }
};

}  // namespace

std::vector<AffectedUnit> affected_units(const RevisionSources& base, const RevisionSources& head,
                                         const std::vector<kernel_changes::ChangedKernel>& changed) {
  std::vector<UnitReach> reaches;
  for (const auto& [path, text] : head.files())
    if (path.ends_with(".cu") && base.files().contains(path))
      reaches.push_back({path, include_distances(head, path), include_distances(base, path)});

  std::vector<AffectedUnit> units;
  for (const auto& reach : reaches) {
    AffectedUnit unit{reach.path, {}, std::string::npos};
    for (std::size_t i = 0; i < changed.size(); ++i) {
      if (!changed[i].base || !changed[i].head) continue;
      const std::size_t distance =
          std::min(reach.distance_to(changed[i].head->file), reach.distance_to(changed[i].base->file));
      if (distance == std::string::npos) continue;
      unit.kernels.push_back(i);
      unit.distance = std::min(unit.distance, distance);
    }
    if (!unit.kernels.empty()) units.push_back(std::move(unit));
  }
  std::ranges::sort(units, [](const AffectedUnit& a, const AffectedUnit& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.kernels.size() != b.kernels.size()) return a.kernels.size() > b.kernels.size();
    return a.path < b.path;
  });

  // For the scanner's gaps: changed .cu files that hold no reported kernel, then the nearest unit
  // of each changed header no unit so far reaches. A file changed only in comments or whitespace
  // is no gap: a unit can cost minutes (a header of documentation edits reached a 90-second unit).
  const auto changed_paths = code_changed_files(base, head);
  std::set<std::string> kernel_files, chosen;
  for (const auto& kernel : changed) {
    if (kernel.base) kernel_files.insert(kernel.base->file);
    if (kernel.head) kernel_files.insert(kernel.head->file);
  }
  for (const auto& unit : units) chosen.insert(unit.path);
  const auto reached = [&](const std::string& file) {
    return std::ranges::any_of(reaches, [&](const UnitReach& reach) {
      return chosen.contains(reach.path) && reach.distance_to(file) != std::string::npos;
    });
  };
  for (const auto& reach : reaches)
    if (changed_paths.contains(reach.path) && !kernel_files.contains(reach.path) && chosen.insert(reach.path).second)
      units.push_back({reach.path, {}, 0});
  for (const auto& file : changed_paths) {
    if (file.ends_with(".cu") || reached(file)) continue;
    const UnitReach* nearest = nullptr;
    for (const auto& reach : reaches)
      if (reach.distance_to(file) != std::string::npos &&
          (nearest == nullptr || reach.distance_to(file) < nearest->distance_to(file)))
        nearest = &reach;
    if (nearest != nullptr && chosen.insert(nearest->path).second)
      units.push_back({nearest->path, {}, nearest->distance_to(file)});
  }
  return units;
}

}  // namespace kforecast::builds
