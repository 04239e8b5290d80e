// SPDX-License-Identifier: Apache-2.0
#include "cubin/elf_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "cubin/little_endian.hpp"

namespace kforecast::cubin {

namespace {

constexpr std::uint64_t header_size = 64;
constexpr std::uint64_t section_header_size = 64;
constexpr std::uint64_t symbol_size = 24;
constexpr std::uint64_t rel_size = 16;
constexpr std::uint64_t rela_size = 24;
constexpr std::uint16_t first_reserved_section = 0xff00;  // SHN_LORESERVE: SHN_ABS, SHN_COMMON, SHN_XINDEX...

std::unexpected<Error> malformed(std::string what) {
  return fail(ExitCode::could_not_run, "malformed cubin: " + std::move(what));
}

// The NUL-terminated string at `offset` of a string table, or nullopt where the offset is past
// the table or the string runs off its end.
std::optional<std::string> string_at(std::span<const std::byte> table, std::uint64_t offset) {
  if (offset >= table.size()) return std::nullopt;
  const auto rest = table.subspan(static_cast<std::size_t>(offset));
  const auto end = std::find(rest.begin(), rest.end(), std::byte{0});
  if (end == rest.end()) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(rest.data()), static_cast<std::size_t>(end - rest.begin()));
}

Result<void> check_identification(std::span<const std::byte> bytes) {
  if (bytes.size() < header_size)
    return malformed(fmt::format("{} bytes is shorter than an ELF64 header ({} bytes)", bytes.size(), header_size));
  constexpr std::string_view magic =
      "\x7f"
      "ELF";
  if (!std::equal(magic.begin(), magic.end(), bytes.begin(),
                  [](char expected, std::byte actual) { return static_cast<std::byte>(expected) == actual; }))
    return malformed("not an ELF file (the first bytes are not \\x7fELF)");
  if (const auto elf_class = *read_u8(bytes, 4); elf_class != 2)
    return malformed(fmt::format("ELF class {} is not ELFCLASS64 (2); a cubin is a 64-bit ELF file", elf_class));
  if (const auto encoding = *read_u8(bytes, 5); encoding != 1)
    return malformed(fmt::format("ELF data encoding {} is not little-endian (1)", encoding));
  if (const auto machine = *read_u16(bytes, 18); machine != elf_machine_cuda)
    return malformed(fmt::format("e_machine is {}, not EM_CUDA ({}): not a CUDA cubin", machine, elf_machine_cuda));
  return {};
}

struct RawSectionHeader {
  std::uint32_t name = 0;
  ElfSection section;
  std::uint64_t offset = 0;
};

Result<std::vector<RawSectionHeader>> read_section_headers(std::span<const std::byte> bytes) {
  const auto table_offset = *read_u64(bytes, 0x28);
  const auto entry_size = *read_u16(bytes, 0x3a);
  const auto count = *read_u16(bytes, 0x3c);
  std::vector<RawSectionHeader> headers;
  if (count == 0) {
    // e_shnum 0 with a table means extended numbering (more than 65279 sections): no cubin needs it.
    if (table_offset != 0) return malformed("extended section numbering (e_shnum 0) is not supported");
    return headers;
  }
  if (entry_size != section_header_size)
    return malformed(fmt::format("section header size is {} bytes, not {}", entry_size, section_header_size));
  const auto table = byte_range(bytes, table_offset, std::uint64_t{count} * section_header_size);
  if (!table)
    return malformed(
        fmt::format("the section header table ({} entries at offset {}) lies past the end of the file "
                    "({} bytes)",
                    count, table_offset, bytes.size()));
  headers.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto at = i * section_header_size;
    RawSectionHeader header;
    header.name = *read_u32(*table, at);
    header.section.type = *read_u32(*table, at + 4);
    header.section.flags = *read_u64(*table, at + 8);
    header.offset = *read_u64(*table, at + 24);
    header.section.size = *read_u64(*table, at + 32);
    header.section.link = *read_u32(*table, at + 40);
    header.section.info = *read_u32(*table, at + 44);
    header.section.entry_size = *read_u64(*table, at + 56);
    if (header.section.type != section_type_nobits && header.section.type != 0) {
      const auto data = byte_range(bytes, header.offset, header.section.size);
      if (!data)
        return malformed(fmt::format("section {} ({} bytes at offset {}) lies past the end of the file ({} bytes)", i,
                                     header.section.size, header.offset, bytes.size()));
      header.section.bytes = *data;
    }
    headers.push_back(std::move(header));
  }
  return headers;
}

Result<void> name_sections(std::span<const std::byte> bytes, std::vector<RawSectionHeader>& headers) {
  if (headers.empty()) return {};
  const auto names_index = *read_u16(bytes, 0x3e);
  if (names_index >= headers.size())
    return malformed(
        fmt::format("the section name table is section {}, but there are {} sections", names_index, headers.size()));
  const auto names = headers[names_index].section.bytes;
  for (std::size_t i = 0; i < headers.size(); ++i) {
    auto name = string_at(names, headers[i].name);
    if (!name)
      return malformed(
          fmt::format("section {}'s name (offset {}) is not a string of the section name table "
                      "({} bytes)",
                      i, headers[i].name, names.size()));
    headers[i].section.name = std::move(*name);
  }
  return {};
}

Result<std::vector<ElfSymbol>> read_symbols(const std::vector<ElfSection>& sections) {
  std::vector<ElfSymbol> symbols;
  const auto table = std::find_if(sections.begin(), sections.end(),
                                  [](const ElfSection& s) { return s.type == section_type_symbol_table; });
  if (table == sections.end()) return symbols;
  if (table->entry_size != symbol_size || table->bytes.size() % symbol_size != 0)
    return malformed(
        fmt::format("symbol table {} has entries of {} bytes and {} bytes in all; ELF64 symbols are {} "
                    "bytes",
                    table->name, table->entry_size, table->bytes.size(), symbol_size));
  if (table->link >= sections.size() || sections[table->link].type != section_type_string_table)
    return malformed(fmt::format("symbol table {} names section {} as its string table, which is not one", table->name,
                                 table->link));
  const auto names = sections[table->link].bytes;
  const auto count = table->bytes.size() / symbol_size;
  symbols.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto entry = table->bytes.subspan(i * symbol_size, symbol_size);
    ElfSymbol symbol;
    const auto name_offset = *read_u32(entry, 0);
    auto name = string_at(names, name_offset);
    if (!name)
      return malformed(fmt::format("symbol {}'s name (offset {}) is not a string of {} ({} bytes)", i, name_offset,
                                   sections[table->link].name, names.size()));
    symbol.name = std::move(*name);
    const auto info = *read_u8(entry, 4);
    symbol.type = info & 0xf;
    symbol.binding = info >> 4;
    symbol.other = *read_u8(entry, 5);
    const auto section = *read_u16(entry, 6);
    symbol.section = section == 0 || section >= first_reserved_section || section >= sections.size()
                         ? ElfSymbol::no_section
                         : section;
    if (section != 0 && section < first_reserved_section && section >= sections.size())
      return malformed(fmt::format("symbol {} ({}) is defined in section {}, but there are {} sections", i, symbol.name,
                                   section, sections.size()));
    symbol.value = *read_u64(entry, 8);
    symbol.size = *read_u64(entry, 16);
    symbols.push_back(std::move(symbol));
  }
  return symbols;
}

}  // namespace

Result<ElfFile> ElfFile::parse(std::span<const std::byte> bytes) {
  if (auto identified = check_identification(bytes); !identified) return std::unexpected(identified.error());
  auto headers = read_section_headers(bytes);
  if (!headers) return std::unexpected(headers.error());
  if (auto named = name_sections(bytes, *headers); !named) return std::unexpected(named.error());
  ElfFile file;
  file.m_type = *read_u16(bytes, 16);
  file.m_flags = *read_u32(bytes, 0x30);
  file.m_sections.reserve(headers->size());
  for (auto& header : *headers) file.m_sections.push_back(std::move(header.section));
  auto symbols = read_symbols(file.m_sections);
  if (!symbols) return std::unexpected(symbols.error());
  file.m_symbols = std::move(*symbols);
  return file;
}

Result<std::vector<ElfRelocation>> ElfFile::relocations(const ElfSection& section) const {
  const bool with_addend = section.type == section_type_rela;
  if (!with_addend && section.type != section_type_rel)
    return malformed(fmt::format("section {} is not a relocation section", section.name));
  const auto entry_size = with_addend ? rela_size : rel_size;
  if (section.bytes.size() % entry_size != 0)
    return malformed(fmt::format("relocation section {} is {} bytes, not a whole number of {}-byte entries",
                                 section.name, section.bytes.size(), entry_size));
  std::vector<ElfRelocation> relocations;
  relocations.reserve(section.bytes.size() / entry_size);
  for (std::size_t at = 0; at < section.bytes.size(); at += entry_size) {
    const auto entry = section.bytes.subspan(at, entry_size);
    const auto info = *read_u64(entry, 8);
    ElfRelocation relocation{.offset = *read_u64(entry, 0),
                             .type = static_cast<std::uint32_t>(info & 0xffffffff),
                             .symbol = static_cast<std::uint32_t>(info >> 32),
                             .addend = with_addend ? static_cast<std::int64_t>(*read_u64(entry, 16)) : 0};
    if (relocation.symbol >= m_symbols.size())
      return malformed(fmt::format("relocation {} of {} names symbol {}, but the symbol table has {}", at / entry_size,
                                   section.name, relocation.symbol, m_symbols.size()));
    relocations.push_back(relocation);
  }
  return relocations;
}

}  // namespace kforecast::cubin
