// SPDX-License-Identifier: Apache-2.0
#include "gate/affected_units.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace kforecast::gate {
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

}  // namespace

std::vector<AffectedUnit> affected_units(const RevisionSources& base, const RevisionSources& head,
                                         const std::vector<kernels::ChangedKernel>& changed) {
  std::vector<AffectedUnit> units;
  for (const auto& [path, text] : head.files()) {
    if (!path.ends_with(".cu") || !base.files().contains(path)) continue;
    const auto head_distance = include_distances(head, path);
    const auto base_distance = include_distances(base, path);
    AffectedUnit unit{path, {}, std::string::npos};
    for (std::size_t i = 0; i < changed.size(); ++i) {
      if (!changed[i].base || !changed[i].head) continue;
      const auto in_head = head_distance.find(changed[i].head->file);
      const auto in_base = base_distance.find(changed[i].base->file);
      if (in_head == head_distance.end() && in_base == base_distance.end()) continue;
      unit.kernels.push_back(i);
      unit.distance = std::min({unit.distance, in_head == head_distance.end() ? std::string::npos : in_head->second,
                                in_base == base_distance.end() ? std::string::npos : in_base->second});
    }
    if (!unit.kernels.empty()) units.push_back(std::move(unit));
  }
  std::ranges::sort(units, [](const AffectedUnit& a, const AffectedUnit& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.kernels.size() != b.kernels.size()) return a.kernels.size() > b.kernels.size();
    return a.path < b.path;
  });
  return units;
}

}  // namespace kforecast::gate
