// SPDX-License-Identifier: Apache-2.0
#pragma once

// The parts of an ELF64 little-endian file that a CUDA cubin's reader needs: the header, the
// section headers and their names, the symbol table and relocations. The input is untrusted
// (a cubin built from pull-request code): parse() checks every offset, size and index against
// the file, so a malformed file is an Error, and what it returns can be used without checks.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace kforecast::cubin {

inline constexpr std::uint16_t elf_machine_cuda = 190;    // EM_CUDA
inline constexpr std::uint16_t elf_type_relocatable = 1;  // ET_REL: nvcc -rdc=true
inline constexpr std::uint16_t elf_type_executable = 2;   // ET_EXEC: whole-program nvcc -cubin

inline constexpr std::uint32_t section_type_symbol_table = 2;  // SHT_SYMTAB
inline constexpr std::uint32_t section_type_string_table = 3;  // SHT_STRTAB
inline constexpr std::uint32_t section_type_rela = 4;          // SHT_RELA
inline constexpr std::uint32_t section_type_nobits = 8;        // SHT_NOBITS: size only, no bytes in the file
inline constexpr std::uint32_t section_type_rel = 9;           // SHT_REL

inline constexpr std::uint8_t symbol_type_object = 1;    // STT_OBJECT
inline constexpr std::uint8_t symbol_type_function = 2;  // STT_FUNC
inline constexpr std::uint8_t symbol_type_section = 3;   // STT_SECTION

struct ElfSection {
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t flags = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
  std::uint64_t entry_size = 0;
  std::uint64_t size = 0;            // for NOBITS the size it occupies at run time
  std::span<const std::byte> bytes;  // inside the parsed buffer; empty for NOBITS
};

struct ElfSymbol {
  std::string name;
  std::uint64_t value = 0;
  std::uint64_t size = 0;
  std::uint8_t type = 0;     // STT_*
  std::uint8_t binding = 0;  // STB_*
  std::uint8_t other = 0;    // st_other: a cubin sets 0x10 on kernels
  // The index of the section the symbol is defined in, or no_section (undefined, absolute or
  // common symbols, and indices the file does not have).
  std::uint32_t section = 0;
  static constexpr std::uint32_t no_section = 0xffffffff;
};

struct ElfRelocation {
  std::uint64_t offset = 0;  // in the section the relocations apply to
  std::uint32_t type = 0;    // R_CUDA_*, kept as a number
  std::uint32_t symbol = 0;  // an index into symbols(), checked
  std::int64_t addend = 0;   // 0 for SHT_REL
};

class ElfFile {
 public:
  // `bytes` must outlive the ElfFile: sections refer into it.
  static Result<ElfFile> parse(std::span<const std::byte> bytes);

  std::uint16_t type() const { return m_type; }
  std::uint32_t flags() const { return m_flags; }  // e_flags: a cubin keeps its SM version here
  const std::vector<ElfSection>& sections() const { return m_sections; }
  // The first symbol table's symbols, index 0 included; empty where the file has none.
  const std::vector<ElfSymbol>& symbols() const { return m_symbols; }

  // The entries of a SHT_REL or SHT_RELA section, every symbol index checked.
  Result<std::vector<ElfRelocation>> relocations(const ElfSection& section) const;

 private:
  std::uint16_t m_type = 0;
  std::uint32_t m_flags = 0;
  std::vector<ElfSection> m_sections;
  std::vector<ElfSymbol> m_symbols;
};

}  // namespace kforecast::cubin
