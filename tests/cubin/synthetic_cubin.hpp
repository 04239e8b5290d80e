// SPDX-License-Identifier: Apache-2.0
#pragma once

// Cubin-shaped ELF files built in memory, for tests of the reader on inputs nvcc never writes:
// each test builds a small valid file, then breaks the one field it is about.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cubin/elf_file.hpp"

namespace kforecast::testing {

using Bytes = std::vector<std::byte>;

inline void put_le(Bytes& bytes, std::uint64_t value, int size) {
  for (int i = 0; i < size; ++i) bytes.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
}
inline void patch_le(Bytes& bytes, std::size_t offset, std::uint64_t value, int size) {
  for (int i = 0; i < size; ++i) bytes.at(offset + i) = static_cast<std::byte>((value >> (8 * i)) & 0xff);
}
inline Bytes bytes_of(std::initializer_list<int> values) {
  Bytes bytes;
  for (const int v : values) bytes.push_back(static_cast<std::byte>(v));
  return bytes;
}

// One .nv.info record: format, id, then the value (SVAL gets its u16 size prepended).
inline Bytes nv_info_record(std::uint8_t format, std::uint8_t id, const Bytes& value) {
  // Byte by byte into reserved room: GCC 12 at -O3 warns falsely (-Wstringop-overflow) when a
  // vector built from an initializer list grows.
  Bytes record;
  record.reserve(4 + value.size());
  record.push_back(static_cast<std::byte>(format));
  record.push_back(static_cast<std::byte>(id));
  if (format == 0x04) {
    record.push_back(static_cast<std::byte>(value.size() & 0xff));
    record.push_back(static_cast<std::byte>((value.size() >> 8) & 0xff));
  }
  for (const auto byte : value) record.push_back(byte);
  return record;
}
inline Bytes u32_words(std::initializer_list<std::uint32_t> words) {
  Bytes bytes;
  for (const auto word : words) put_le(bytes, word, 4);
  return bytes;
}

// Sections 0 to 3 are always NULL, .shstrtab, .strtab and .symtab; added sections follow.
class SyntheticCubin {
 public:
  static constexpr std::size_t section_header_size = 64;
  static constexpr std::uint32_t symtab_index = 3;

  struct Section {
    std::string name;
    std::uint32_t type = 1;  // PROGBITS
    std::uint32_t link = 0;
    std::uint32_t info = 0;
    std::uint64_t entry_size = 0;
    std::uint64_t flags = 0;
    Bytes data;
    std::uint64_t nobits_size = 0;
  };
  struct Symbol {
    std::string name;
    std::uint8_t type = cubin::symbol_type_function;
    std::uint8_t binding = 1;  // GLOBAL
    std::uint8_t other = 0;
    std::uint16_t section = 0;
    std::uint64_t value = 0;
    std::uint64_t size = 0;
  };

  std::uint16_t type = cubin::elf_type_executable;

  std::uint16_t add_section(Section section) {
    m_sections.push_back(std::move(section));
    return static_cast<std::uint16_t>(m_sections.size() + 3);
  }
  std::uint32_t add_symbol(Symbol symbol) {
    m_symbols.push_back(std::move(symbol));
    return static_cast<std::uint32_t>(m_symbols.size());  // index 0 is the null symbol
  }
  Section& section(std::uint16_t index) { return m_sections.at(index - 4u); }

  // The layout: header, section contents in order, then the section header table.
  Bytes build() const {
    Bytes shstrtab{std::byte{0}}, strtab{std::byte{0}}, symtab(24, std::byte{0});
    const auto add_name = [](Bytes& table, const std::string& name) {
      const auto offset = table.size();
      for (const char c : name) table.push_back(static_cast<std::byte>(c));
      table.push_back(std::byte{0});
      return offset;
    };
    std::vector<Section> all;
    all.push_back(Section{.name = "", .type = 0});
    all.push_back(Section{.name = ".shstrtab", .type = 3});
    all.push_back(Section{.name = ".strtab", .type = 3});
    all.push_back(Section{.name = ".symtab", .type = 2, .link = 2, .entry_size = 24});
    all.insert(all.end(), m_sections.begin(), m_sections.end());
    for (const auto& symbol : m_symbols) {
      put_le(symtab, add_name(strtab, symbol.name), 4);
      symtab.push_back(static_cast<std::byte>((symbol.binding << 4) | symbol.type));
      symtab.push_back(static_cast<std::byte>(symbol.other));
      put_le(symtab, symbol.section, 2);
      put_le(symtab, symbol.value, 8);
      put_le(symtab, symbol.size, 8);
    }
    std::vector<std::uint64_t> name_offsets;
    for (const auto& section : all) name_offsets.push_back(add_name(shstrtab, section.name));
    all[1].data = shstrtab;
    all[2].data = strtab;
    all[3].data = symtab;

    Bytes file(64, std::byte{0});
    std::vector<std::uint64_t> offsets;
    for (const auto& section : all) {
      while (file.size() % 8 != 0) file.push_back(std::byte{0});
      offsets.push_back(file.size());
      if (section.type != cubin::section_type_nobits) file.insert(file.end(), section.data.begin(), section.data.end());
    }
    while (file.size() % 8 != 0) file.push_back(std::byte{0});
    const auto table_offset = file.size();
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& section = all[i];
      put_le(file, name_offsets[i], 4);
      put_le(file, section.type, 4);
      put_le(file, section.flags, 8);
      put_le(file, 0, 8);  // address
      put_le(file, i == 0 ? 0 : offsets[i], 8);
      put_le(file, section.type == cubin::section_type_nobits ? section.nobits_size : section.data.size(), 8);
      put_le(file, section.link, 4);
      put_le(file, section.info, 4);
      put_le(file, 1, 8);  // alignment
      put_le(file, section.entry_size, 8);
    }
    const Bytes identification = bytes_of({0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, 8});
    std::copy(identification.begin(), identification.end(), file.begin());
    patch_le(file, 16, type, 2);
    patch_le(file, 18, cubin::elf_machine_cuda, 2);
    patch_le(file, 20, 1, 4);               // e_version
    patch_le(file, 0x28, table_offset, 8);  // e_shoff
    patch_le(file, 0x30, 0x6005a04, 4);     // e_flags as nvcc 13 writes for sm_90
    patch_le(file, 0x34, 64, 2);            // e_ehsize
    patch_le(file, 0x3a, section_header_size, 2);
    patch_le(file, 0x3c, all.size(), 2);
    patch_le(file, 0x3e, 1, 2);  // e_shstrndx
    return file;
  }

  // Where section `index`'s header starts in a built file.
  static std::size_t section_header_at(const Bytes& file, std::size_t index) {
    std::uint64_t table = 0;
    for (int i = 7; i >= 0; --i) table = (table << 8) | std::to_integer<std::uint64_t>(file.at(0x28 + i));
    return table + index * section_header_size;
  }

 private:
  std::vector<Section> m_sections;
  std::vector<Symbol> m_symbols;
};

// What one synthetic kernel is made of; the defaults are a small valid kernel.
struct SyntheticKernel {
  std::string symbol = "_Z6kernelPf";
  Bytes code = Bytes(64, std::byte{0x11});
  std::uint32_t registers = 16;
  std::optional<std::uint32_t> max_threads;
  std::uint64_t shared_bytes = 0;  // 0: no .nv.shared section
  std::uint64_t parameter_bytes = 0x218;
  Bytes extra_attributes;                  // appended to .nv.info.<kernel>
  std::uint64_t text_flags = 0;            // the text section's sh_flags
  std::optional<std::uint32_t> min_stack;  // a global EIATTR_MIN_STACK_SIZE record
};

// Adds the kernel's sections and symbols, and its REGCOUNT record to `global_info`.
inline void add_kernel(SyntheticCubin& cubin, const SyntheticKernel& kernel, Bytes& global_info) {
  const auto text =
      cubin.add_section({.name = ".text." + kernel.symbol, .flags = kernel.text_flags, .data = kernel.code});
  const auto symbol =
      cubin.add_symbol({.name = kernel.symbol, .other = 0x10, .section = text, .size = kernel.code.size()});
  const auto bank = cubin.add_section(
      {.name = ".nv.constant0." + kernel.symbol, .info = text, .data = Bytes(kernel.parameter_bytes, std::byte{0})});
  const auto bank_symbol =
      cubin.add_symbol({.name = "", .type = cubin::symbol_type_section, .binding = 0, .section = bank});
  Bytes info = nv_info_record(0x04, 0x0a, u32_words({bank_symbol, 0x00080210}));
  if (kernel.max_threads) {
    const auto record = nv_info_record(0x04, 0x05, u32_words({*kernel.max_threads, 1, 1}));
    info.insert(info.end(), record.begin(), record.end());
  }
  info.insert(info.end(), kernel.extra_attributes.begin(), kernel.extra_attributes.end());
  cubin.add_section({.name = ".nv.info." + kernel.symbol,
                     .type = 0x70000000,
                     .link = SyntheticCubin::symtab_index,
                     .info = text,
                     .data = info});
  if (kernel.shared_bytes > 0)
    cubin.add_section({.name = ".nv.shared." + kernel.symbol,
                       .type = cubin::section_type_nobits,
                       .info = text,
                       .nobits_size = kernel.shared_bytes});
  const auto record = nv_info_record(0x04, 0x2f, u32_words({symbol, kernel.registers}));
  global_info.insert(global_info.end(), record.begin(), record.end());
  if (kernel.min_stack) {
    const auto stack = nv_info_record(0x04, 0x12, u32_words({symbol, *kernel.min_stack}));
    global_info.insert(global_info.end(), stack.begin(), stack.end());
  }
}

// A whole cubin of the given kernels.
inline Bytes synthetic_cubin(const std::vector<SyntheticKernel>& kernels) {
  SyntheticCubin cubin;
  Bytes global_info;
  for (const auto& kernel : kernels) add_kernel(cubin, kernel, global_info);
  cubin.add_section(
      {.name = ".nv.info", .type = 0x70000000, .link = SyntheticCubin::symtab_index, .data = global_info});
  return cubin.build();
}

}  // namespace kforecast::testing
