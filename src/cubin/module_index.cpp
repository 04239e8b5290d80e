// SPDX-License-Identifier: Apache-2.0
#include "cubin/module_index.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "cubin/little_endian.hpp"
#include "cubin/symbol_name.hpp"

namespace kforecast::cubin {

namespace {

constexpr std::string_view callgraph_section = ".nv.callgraph";
constexpr std::string_view global_info_section = ".nv.info";
constexpr std::uint32_t symbol_index_bytes = 4;

std::unexpected<Error> malformed(std::string what) {
  return fail(ExitCode::could_not_run, "malformed cubin: " + std::move(what));
}

bool starts_with_any(std::string_view name, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view prefix) { return name.starts_with(prefix); });
}

// Call graph entries whose callee is one of these mark something other than a call (nvcc 13
// writes caller 0 with each of them).
bool is_callgraph_marker(std::uint32_t callee) { return callee >= 0xfffffffc; }

}  // namespace

bool is_ignored_section(std::string_view name) {
  return name.empty() ||
         starts_with_any(name, {".debug", ".nv_debug", ".rel.debug", ".rela.debug", ".rel.nv_debug", ".rela.nv_debug",
                                ".note", ".symtab", ".strtab", ".shstrtab", ".nv.merc.debug", ".nv.merc.rela.debug",
                                ".nv.merc.nv_debug", ".nv.merc.symtab"}) ||
         name == callgraph_section || name == ".nv.prototype" ||
         // The module's summary of what its code needs (ISA features, ...): a change there is a
         // change in some kernel's code, which that kernel's own comparison names. Carried by
         // every kernel, it would mark all of a unit's kernels changed when one of them changed
         // (field test: 44 false notes on one repository's commits).
         name == ".nv.compat";
}

Result<ModuleIndex> ModuleIndex::build(const ElfFile& file) {
  ModuleIndex index;
  index.m_file = &file;
  const auto& sections = file.sections();
  for (std::uint32_t i = 0; i < sections.size(); ++i) {
    const std::string_view name = sections[i].name;
    index.m_sections_by_name.emplace(name, i);
    // `.nv.<words>.<function>`: the function's shared memory, parameter bank, sm_100's capmerc
    // code... A symbol never holds a '.', so the function is what follows the last one.
    constexpr std::string_view nv = ".nv.";
    if (!name.starts_with(nv) || name.starts_with(".nv.info.")) continue;
    if (const auto dot = name.rfind('.'); dot >= nv.size())
      index.m_sections_by_function[std::string(name.substr(dot + 1))].push_back(i);
  }
  const auto& symbols = file.symbols();
  index.m_symbol_names.reserve(symbols.size());
  for (std::uint32_t i = 0; i < symbols.size(); ++i) {
    const auto& symbol = symbols[i];
    const bool section_symbol = symbol.type == symbol_type_section && symbol.section != ElfSymbol::no_section;
    index.m_symbol_names.push_back(normalize_symbol(section_symbol ? sections[symbol.section].name : symbol.name));
    if (symbol.type == symbol_type_function && symbol.section != ElfSymbol::no_section)
      index.m_functions[symbol.section].push_back(i);
  }
  if (auto done = index.index_relocations(); !done) return std::unexpected(done.error());
  if (auto done = index.index_global_attributes(); !done) return std::unexpected(done.error());
  if (auto done = index.index_callgraph(); !done) return std::unexpected(done.error());
  return index;
}

Result<void> ModuleIndex::index_relocations() {
  const auto& sections = m_file->sections();
  for (const auto& section : sections) {
    if (section.type != section_type_rel && section.type != section_type_rela) continue;
    if (is_ignored_section(section.name)) continue;
    if (section.info >= sections.size())
      return malformed(fmt::format("relocation section {} patches section {}, but there are {} sections", section.name,
                                   section.info, sections.size()));
    auto relocations = m_file->relocations(section);
    if (!relocations) return std::unexpected(relocations.error());
    auto& into = m_relocations[section.info];
    into.insert(into.end(), relocations->begin(), relocations->end());
  }
  return {};
}

Result<CubinAttribute> ModuleIndex::normalized_attribute(const NvInfoAttribute& record,
                                                         std::string_view section) const {
  CubinAttribute attribute{.id = record.id, .value = record.value, .symbols = {}};
  // Symbol indices shift whenever a kernel is added or removed: compare what they name.
  const auto replace_index = [&](std::size_t at) -> Result<void> {
    const auto symbol = *read_u32(attribute.value, at);
    if (symbol >= m_symbol_names.size())
      return malformed(fmt::format("{} in {} names symbol {}, but the symbol table has {}", attribute_name(record.id),
                                   section, symbol, m_symbol_names.size()));
    attribute.symbols.push_back(m_symbol_names[symbol]);
    std::fill_n(attribute.value.begin() + static_cast<std::ptrdiff_t>(at), symbol_index_bytes, std::byte{0});
    return {};
  };
  if (record.format != AttributeFormat::sized_value) return attribute;
  if (record.id == static_cast<std::uint8_t>(AttributeId::param_cbank) &&
      attribute.value.size() >= symbol_index_bytes) {
    if (auto done = replace_index(0); !done) return std::unexpected(done.error());
  }
  if (record.id == static_cast<std::uint8_t>(AttributeId::externs)) {
    for (std::size_t at = 0; at + symbol_index_bytes <= attribute.value.size(); at += symbol_index_bytes)
      if (auto done = replace_index(at); !done) return std::unexpected(done.error());
  }
  return attribute;
}

Result<void> ModuleIndex::index_global_attributes() {
  const auto section = section_named(global_info_section);
  if (!section) return {};
  auto records = parse_nv_info(m_file->sections()[*section].bytes, global_info_section);
  if (!records) return std::unexpected(records.error());
  const auto& symbols = m_file->symbols();
  for (auto& record : *records) {
    // A record about a function starts with the function's symbol index: the record moves to
    // the function, without the index.
    if (record.format == AttributeFormat::sized_value && record.value.size() >= symbol_index_bytes) {
      const auto symbol = *read_u32(record.value, 0);
      if (symbol < symbols.size() && symbols[symbol].type == symbol_type_function) {
        record.value.erase(record.value.begin(), record.value.begin() + symbol_index_bytes);
        auto attribute = normalized_attribute(record, global_info_section);
        if (!attribute) return std::unexpected(attribute.error());
        m_global_attributes[symbol].push_back(std::move(*attribute));
        continue;
      }
    }
    auto attribute = normalized_attribute(record, global_info_section);
    if (!attribute) return std::unexpected(attribute.error());
    m_module_attributes.push_back(std::move(*attribute));
  }
  return {};
}

Result<void> ModuleIndex::index_callgraph() {
  const auto section = section_named(callgraph_section);
  if (!section) return {};
  const auto bytes = m_file->sections()[*section].bytes;
  constexpr std::size_t edge_bytes = 8;
  const auto& symbols = m_file->symbols();
  for (std::size_t at = 0; at + edge_bytes <= bytes.size(); at += edge_bytes) {
    const auto caller = *read_u32(bytes, at);
    const auto callee = *read_u32(bytes, at + 4);
    if (caller == 0 || is_callgraph_marker(callee)) continue;
    if (caller >= symbols.size() || callee >= symbols.size())
      return malformed(fmt::format("{} entry {} names symbols {} and {}, but the symbol table has {}",
                                   callgraph_section, at / edge_bytes, caller, callee, symbols.size()));
    m_callgraph.emplace(caller, callee);
  }
  return {};
}

std::vector<const ElfRelocation*> ModuleIndex::relocations_of(std::uint32_t section) const {
  std::vector<const ElfRelocation*> found;
  if (const auto it = m_relocations.find(section); it != m_relocations.end())
    for (const auto& relocation : it->second) found.push_back(&relocation);
  return found;
}

std::vector<CubinRelocation> ModuleIndex::named_relocations(std::uint32_t section) const {
  std::vector<CubinRelocation> relocations;
  for (const auto* relocation : relocations_of(section))
    relocations.push_back(CubinRelocation{.offset = relocation->offset,
                                          .type = relocation->type,
                                          .target = m_symbol_names[relocation->symbol],
                                          .addend = relocation->addend});
  return relocations;
}

std::vector<std::uint32_t> ModuleIndex::sections_of(std::string_view function) const {
  if (const auto it = m_sections_by_function.find(std::string(function)); it != m_sections_by_function.end())
    return it->second;
  return {};
}

std::vector<std::uint32_t> ModuleIndex::functions_in(std::uint32_t section) const {
  if (const auto it = m_functions.find(section); it != m_functions.end()) return it->second;
  return {};
}

std::vector<std::uint32_t> ModuleIndex::callgraph_callees(std::uint32_t symbol) const {
  std::vector<std::uint32_t> callees;
  const auto [first, last] = m_callgraph.equal_range(symbol);
  for (auto it = first; it != last; ++it) callees.push_back(it->second);
  return callees;
}

Result<std::vector<CubinAttribute>> ModuleIndex::attributes_of(std::uint32_t symbol) const {
  std::vector<CubinAttribute> attributes;
  const auto section_name = std::string(global_info_section) + "." + m_file->symbols()[symbol].name;
  if (const auto section = section_named(section_name)) {
    auto records = parse_nv_info(m_file->sections()[*section].bytes, section_name);
    if (!records) return std::unexpected(records.error());
    for (const auto& record : *records) {
      auto attribute = normalized_attribute(record, section_name);
      if (!attribute) return std::unexpected(attribute.error());
      attributes.push_back(std::move(*attribute));
    }
  }
  if (const auto it = m_global_attributes.find(symbol); it != m_global_attributes.end())
    attributes.insert(attributes.end(), it->second.begin(), it->second.end());
  return attributes;
}

std::optional<std::uint32_t> ModuleIndex::section_named(std::string_view name) const {
  if (const auto it = m_sections_by_name.find(std::string(name)); it != m_sections_by_name.end()) return it->second;
  return std::nullopt;
}

}  // namespace kforecast::cubin
