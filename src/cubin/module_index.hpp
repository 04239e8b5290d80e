// SPDX-License-Identifier: Apache-2.0
#pragma once

// What read_cubin_kernels looks up, built once per cubin from the parsed ELF file: names for
// symbol indices, relocations and functions by section, the global .nv.info records by the
// function they are about, and the call graph. Everything it returns is normalised
// (cubin_kernel.hpp says how).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/error.hpp"
#include "cubin/cubin_kernel.hpp"
#include "cubin/elf_file.hpp"
#include "cubin/nv_info.hpp"

namespace kforecast::cubin {

class ModuleIndex {
 public:
  static Result<ModuleIndex> build(const ElfFile& file);

  const ElfFile& file() const { return *m_file; }

  // The normalised name of a symbol; a section symbol is named by its section.
  const std::string& symbol_name(std::uint32_t symbol) const { return m_symbol_names[symbol]; }
  // The relocations that patch section `section`, their offsets and targets as they are.
  std::vector<const ElfRelocation*> relocations_of(std::uint32_t section) const;
  // The relocations that patch `section`, their targets named.
  std::vector<CubinRelocation> named_relocations(std::uint32_t section) const;
  // The sections `.nv.X.<function>` of a function (`.nv.info.<function>` aside), by index.
  std::vector<std::uint32_t> sections_of(std::string_view function) const;
  // The FUNC symbols defined in a section, by index.
  std::vector<std::uint32_t> functions_in(std::uint32_t section) const;
  // The callees .nv.callgraph gives a function symbol.
  std::vector<std::uint32_t> callgraph_callees(std::uint32_t symbol) const;
  // The function's attributes: its `.nv.info.<symbol>` section's records, then the global
  // .nv.info records about it.
  Result<std::vector<CubinAttribute>> attributes_of(std::uint32_t symbol) const;
  // The global .nv.info records that name no function: module data.
  const std::vector<CubinAttribute>& module_attributes() const { return m_module_attributes; }
  // A section by name, or nullopt.
  std::optional<std::uint32_t> section_named(std::string_view name) const;

 private:
  Result<void> index_relocations();
  Result<void> index_global_attributes();
  Result<void> index_callgraph();
  Result<CubinAttribute> normalized_attribute(const NvInfoAttribute& record, std::string_view section) const;

  const ElfFile* m_file = nullptr;
  std::vector<std::string> m_symbol_names;
  std::unordered_map<std::string, std::uint32_t> m_sections_by_name;
  std::unordered_map<std::uint32_t, std::vector<ElfRelocation>> m_relocations;         // by the section they patch
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> m_functions;           // by section
  std::unordered_map<std::uint32_t, std::vector<CubinAttribute>> m_global_attributes;  // by symbol
  std::vector<CubinAttribute> m_module_attributes;
  std::multimap<std::uint32_t, std::uint32_t> m_callgraph;                             // caller -> callee
  std::unordered_map<std::string, std::vector<std::uint32_t>> m_sections_by_function;  // .nv.X.<function>
};

// Debug data, notes and the tables the reader has already folded into what it returns: sections
// that say nothing about how a kernel runs.
bool is_ignored_section(std::string_view name);

}  // namespace kforecast::cubin
