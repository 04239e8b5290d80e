// SPDX-License-Identifier: Apache-2.0
#include "cubin/kernel_difference.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <unordered_map>

#include "cubin/nv_info.hpp"

namespace kforecast::cubin {

namespace {

std::string optional_number(const std::optional<std::uint32_t>& number) {
  return number ? fmt::format("{}", *number) : std::string("none");
}

// Lists hold named things by value (CubinData) or shared (CubinFunction).
template <class Named>
const Named* address_of(const Named& item) {
  return &item;
}
template <class Named>
const Named* address_of(const std::shared_ptr<const Named>& item) {
  return item.get();
}

template <class Item>
auto find_named(const std::vector<Item>& items, std::string_view name) -> decltype(address_of(items.front())) {
  const auto it =
      std::find_if(items.begin(), items.end(), [&](const Item& item) { return address_of(item)->name == name; });
  return it == items.end() ? nullptr : address_of(*it);
}

// The names in either list, each once, sorted.
template <class Item>
std::set<std::string> names_of(const std::vector<Item>& base, const std::vector<Item>& head) {
  std::set<std::string> names;
  for (const auto& item : base) names.insert(address_of(item)->name);
  for (const auto& item : head) names.insert(address_of(item)->name);
  return names;
}

// The ids of the attributes that differ between the two lists, compared id by id in order.
std::set<std::uint8_t> differing_attribute_ids(const std::vector<CubinAttribute>& base,
                                               const std::vector<CubinAttribute>& head) {
  std::map<std::uint8_t, std::vector<const CubinAttribute*>> by_id_base, by_id_head;
  for (const auto& attribute : base) by_id_base[attribute.id].push_back(&attribute);
  for (const auto& attribute : head) by_id_head[attribute.id].push_back(&attribute);
  std::set<std::uint8_t> ids;
  const auto equal = [](const std::vector<const CubinAttribute*>& a, const std::vector<const CubinAttribute*>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto* x, const auto* y) { return *x == *y; });
  };
  for (const auto& [id, records] : by_id_base)
    if (!by_id_head.contains(id) || !equal(records, by_id_head[id])) ids.insert(id);
  for (const auto& [id, records] : by_id_head)
    if (!by_id_base.contains(id)) ids.insert(id);
  return ids;
}

class Reasons {
 public:
  void add(std::string reason) { m_reasons.push_back(std::move(reason)); }
  bool empty() const { return m_reasons.empty(); }
  std::optional<std::string> joined() const {
    if (m_reasons.empty()) return std::nullopt;
    return fmt::format("{}", fmt::join(m_reasons, "; "));
  }

 private:
  std::vector<std::string> m_reasons;
};

void compare_facts(const CubinKernel& base, const CubinKernel& head, Reasons& reasons) {
  if (base.registers != head.registers) reasons.add(fmt::format("registers {} → {}", base.registers, head.registers));
  if (base.max_threads != head.max_threads)
    reasons.add(fmt::format("launch bounds {} → {} threads", optional_number(base.max_threads),
                            optional_number(head.max_threads)));
  if (base.register_limit != head.register_limit)
    reasons.add(fmt::format("register limit {} → {}", optional_number(base.register_limit),
                            optional_number(head.register_limit)));
  if (base.static_shared_bytes != head.static_shared_bytes)
    reasons.add(fmt::format("static shared memory {} → {} bytes", base.static_shared_bytes, head.static_shared_bytes));
  if (base.parameter_bank_bytes != head.parameter_bank_bytes)
    reasons.add(fmt::format("parameter bank {} → {} bytes", base.parameter_bank_bytes, head.parameter_bank_bytes));
}

// The same code, or code that differs only in where the module data it reads lies.
bool same_code(const CubinFunction& base, const CubinFunction& head) {
  return base.code == head.code ||
         same_code_but_module_addresses(base.code, base.module_references, head.code, head.module_references);
}

// CubinFunction's equality, with the code compared by same_code.
bool same_function(const CubinFunction& base, const CubinFunction& head) {
  return base.name == head.name && same_code(base, head) && base.relocations == head.relocations &&
         base.attributes == head.attributes && base.section_flags == head.section_flags &&
         base.section_info_top == head.section_info_top;
}

void compare_code(const CubinKernel& base, const CubinKernel& head, Reasons& reasons) {
  if (!same_code(base.body, head.body) || base.body.relocations != head.body.relocations)
    reasons.add(base.instructions == head.instructions
                    // "24 → 24 instructions" read as no change; the count is the same, the code is not.
                    ? fmt::format("code differs ({} instructions at both revisions, some of them changed)",
                                  head.instructions)
                    : fmt::format("code differs ({} → {} instructions)", base.instructions, head.instructions));
  if (base.body.section_flags != head.body.section_flags || base.body.section_info_top != head.body.section_info_top)
    reasons.add("text section header differs");
  for (const auto& name : names_of(base.callees, head.callees)) {
    const auto* before = find_named(base.callees, name);
    const auto* after = find_named(head.callees, name);
    if (!before)
      reasons.add(fmt::format("calls {} now", name));
    else if (!after)
      reasons.add(fmt::format("no longer calls {}", name));
    else if (!same_function(*before, *after))
      reasons.add(fmt::format("callee {} changed", name));
  }
}

// Attributes the facts above do not already explain, by name.
void compare_attributes(const CubinKernel& base, const CubinKernel& head, Reasons& reasons) {
  static const std::set<std::uint8_t> explained = {static_cast<std::uint8_t>(AttributeId::register_count),
                                                   static_cast<std::uint8_t>(AttributeId::max_threads),
                                                   static_cast<std::uint8_t>(AttributeId::max_register_count)};
  std::vector<std::string> names;
  for (const auto id : differing_attribute_ids(base.body.attributes, head.body.attributes))
    if (!explained.contains(id)) names.push_back(attribute_name(id));
  if (names.empty()) return;
  // Instruction offsets move with any code change; name them only where nothing else differs.
  if (!reasons.empty()) return;
  reasons.add(fmt::format("{} {}", fmt::join(names, ", "), names.size() == 1 ? "differs" : "differ"));
}

// `explained`: sections whose change a fact already names (a size).
void compare_data(const std::vector<CubinData>& base, const std::vector<CubinData>& head, std::string_view what,
                  const std::set<std::string_view>& explained, Reasons& reasons) {
  for (const auto& name : names_of(base, head)) {
    if (explained.contains(name)) continue;
    const auto* before = find_named(base, name);
    const auto* after = find_named(head, name);
    if (!before || !after || *before != *after) reasons.add(fmt::format("{} {} changed", what, name));
  }
}

}  // namespace

std::optional<std::string> kernel_difference(const CubinKernel& base, const CubinKernel& head, ModuleData module_data) {
  Reasons reasons;
  compare_facts(base, head, reasons);
  compare_code(base, head, reasons);
  compare_attributes(base, head, reasons);
  std::set<std::string_view> explained;
  if (base.static_shared_bytes != head.static_shared_bytes) explained.insert(".nv.shared");
  if (base.parameter_bank_bytes != head.parameter_bank_bytes) explained.insert(".nv.constant0");
  compare_data(base.sections, head.sections, "section", explained, reasons);
  static const std::vector<CubinData> none;
  if (module_data == ModuleData::compare)
    compare_data(base.module_data ? *base.module_data : none, head.module_data ? *head.module_data : none,
                 "module data", {}, reasons);
  return reasons.joined();
}

KernelPairs pair_kernels(const std::vector<CubinKernel>& base, const std::vector<CubinKernel>& head) {
  std::unordered_map<std::string_view, std::vector<const CubinKernel*>> unpaired_base;
  for (const auto& kernel : base) unpaired_base[kernel.normalized_symbol].push_back(&kernel);
  std::unordered_map<std::string_view, std::size_t> taken;
  KernelPairs pairs;
  for (const auto& kernel : head) {
    auto& candidates = unpaired_base[kernel.normalized_symbol];
    auto& next = taken[kernel.normalized_symbol];
    if (next < candidates.size())
      pairs.paired.push_back({candidates[next++], &kernel});
    else
      pairs.added.push_back(&kernel);
  }
  for (const auto& kernel : base) {
    // The first `taken` occurrences of each name were paired.
    auto& seen = taken[kernel.normalized_symbol];
    if (seen > 0)
      --seen;
    else
      pairs.removed.push_back(&kernel);
  }
  return pairs;
}

}  // namespace kforecast::cubin
