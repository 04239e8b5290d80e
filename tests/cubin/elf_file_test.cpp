// SPDX-License-Identifier: Apache-2.0
#include "cubin/elf_file.hpp"

#include <catch2/catch.hpp>

#include "synthetic_cubin.hpp"

using namespace kforecast;
using namespace kforecast::cubin;
using kforecast::testing::Bytes;
using kforecast::testing::patch_le;
using kforecast::testing::SyntheticCubin;

namespace {

Bytes one_section_file() {
  SyntheticCubin cubin;
  const auto text = cubin.add_section({.name = ".text.k", .data = Bytes(32, std::byte{0x42})});
  cubin.add_symbol({.name = "k", .other = 0x10, .section = text, .size = 32});
  return cubin.build();
}

std::string error_of(const Bytes& bytes) {
  auto file = ElfFile::parse(bytes);
  REQUIRE_FALSE(file.has_value());
  return file.error().message;
}

}  // namespace

TEST_CASE("cubin: ElfFile::parse reads what a valid file holds") {
  const auto bytes = one_section_file();
  auto file = ElfFile::parse(bytes);
  REQUIRE(file.has_value());
  CHECK(file->type() == elf_type_executable);
  CHECK(file->flags() == 0x6005a04);
  REQUIRE(file->sections().size() == 5);
  CHECK(file->sections()[4].name == ".text.k");
  CHECK(file->sections()[4].bytes.size() == 32);
  CHECK(file->sections()[4].bytes[0] == std::byte{0x42});
  REQUIRE(file->symbols().size() == 2);
  CHECK(file->symbols()[1].name == "k");
  CHECK(file->symbols()[1].other == 0x10);
  CHECK(file->symbols()[1].section == 4);
  CHECK(file->symbols()[0].section == ElfSymbol::no_section);
}

TEST_CASE("cubin: ElfFile::parse refuses what is not a cubin") {
  SECTION("empty input") { CHECK(error_of({}).find("0 bytes is shorter than an ELF64 header") != std::string::npos); }
  SECTION("a truncated header") {
    auto bytes = one_section_file();
    bytes.resize(63);
    CHECK(error_of(bytes).find("63 bytes is shorter than an ELF64 header") != std::string::npos);
  }
  SECTION("no ELF magic") {
    auto bytes = one_section_file();
    bytes[1] = std::byte{'X'};
    CHECK(error_of(bytes).find("not an ELF file") != std::string::npos);
  }
  SECTION("a 32-bit ELF file") {
    auto bytes = one_section_file();
    bytes[4] = std::byte{1};
    CHECK(error_of(bytes).find("ELF class 1 is not ELFCLASS64") != std::string::npos);
  }
  SECTION("a big-endian file") {
    auto bytes = one_section_file();
    bytes[5] = std::byte{2};
    CHECK(error_of(bytes).find("not little-endian") != std::string::npos);
  }
  SECTION("another machine's ELF file") {
    auto bytes = one_section_file();
    patch_le(bytes, 18, 62, 2);  // EM_X86_64
    CHECK(error_of(bytes).find("e_machine is 62, not EM_CUDA (190)") != std::string::npos);
  }
}

TEST_CASE("cubin: ElfFile::parse checks every offset, size and index") {
  auto bytes = one_section_file();
  const auto text_header = SyntheticCubin::section_header_at(bytes, 4);
  SECTION("a section past the end of the file") {
    patch_le(bytes, text_header + 32, bytes.size(), 8);  // sh_size
    CHECK(error_of(bytes).find("section 4 (") != std::string::npos);
    CHECK(error_of(bytes).find("lies past the end of the file") != std::string::npos);
  }
  SECTION("an offset and a size whose sum wraps around") {
    patch_le(bytes, text_header + 24, 0xffffffffffffff00, 8);  // sh_offset
    patch_le(bytes, text_header + 32, 0x200, 8);
    CHECK(error_of(bytes).find("lies past the end of the file") != std::string::npos);
  }
  SECTION("a huge size") {
    patch_le(bytes, text_header + 32, 0xffffffffffffffff, 8);
    CHECK(error_of(bytes).find("lies past the end of the file") != std::string::npos);
  }
  SECTION("a NOBITS section may be any size: it has no bytes in the file") {
    patch_le(bytes, text_header + 4, section_type_nobits, 4);
    patch_le(bytes, text_header + 32, 0xffffffffffffffff, 8);
    auto file = ElfFile::parse(bytes);
    REQUIRE(file.has_value());
    CHECK(file->sections()[4].size == 0xffffffffffffffff);
    CHECK(file->sections()[4].bytes.empty());
  }
  SECTION("overlapping sections are read as they are") {
    patch_le(bytes, text_header + 24, 0, 8);  // the text section now overlaps the ELF header
    auto file = ElfFile::parse(bytes);
    REQUIRE(file.has_value());
    CHECK(file->sections()[4].bytes[0] == std::byte{0x7f});
  }
  SECTION("a section header table past the end") {
    patch_le(bytes, 0x28, bytes.size() - 10, 8);
    CHECK(error_of(bytes).find("the section header table") != std::string::npos);
  }
  SECTION("an absurd section count") {
    patch_le(bytes, 0x3c, 0xffff, 2);
    CHECK(error_of(bytes).find("65535 entries") != std::string::npos);
  }
  SECTION("extended section numbering") {
    patch_le(bytes, 0x3c, 0, 2);
    CHECK(error_of(bytes).find("extended section numbering") != std::string::npos);
  }
  SECTION("a section header size other than 64") {
    patch_le(bytes, 0x3a, 40, 2);
    CHECK(error_of(bytes).find("section header size is 40 bytes") != std::string::npos);
  }
  SECTION("a section name table index out of range") {
    patch_le(bytes, 0x3e, 9, 2);
    CHECK(error_of(bytes).find("the section name table is section 9, but there are 5 sections") != std::string::npos);
  }
  SECTION("a section name offset past the name table") {
    patch_le(bytes, text_header, 100000, 4);
    CHECK(error_of(bytes).find("section 4's name (offset 100000)") != std::string::npos);
  }
  SECTION("a section name that runs off the end of the name table") {
    // The name table's last byte is the NUL that ends ".text.k"; cut it off.
    const auto names_header = SyntheticCubin::section_header_at(bytes, 1);
    std::uint64_t size = 0;
    for (int i = 7; i >= 0; --i) size = (size << 8) | std::to_integer<std::uint64_t>(bytes[names_header + 32 + i]);
    patch_le(bytes, names_header + 32, size - 1, 8);
    CHECK(error_of(bytes).find("section 4's name") != std::string::npos);
  }
  SECTION("a symbol name offset out of range") {
    const auto symtab_header = SyntheticCubin::section_header_at(bytes, 3);
    std::uint64_t offset = 0;
    for (int i = 7; i >= 0; --i) offset = (offset << 8) | std::to_integer<std::uint64_t>(bytes[symtab_header + 24 + i]);
    patch_le(bytes, offset + 24, 0x7fffffff, 4);  // symbol 1's st_name
    CHECK(error_of(bytes).find("symbol 1's name (offset 2147483647)") != std::string::npos);
  }
  SECTION("a symbol in a section that does not exist") {
    const auto symtab_header = SyntheticCubin::section_header_at(bytes, 3);
    std::uint64_t offset = 0;
    for (int i = 7; i >= 0; --i) offset = (offset << 8) | std::to_integer<std::uint64_t>(bytes[symtab_header + 24 + i]);
    patch_le(bytes, offset + 24 + 6, 77, 2);  // symbol 1's st_shndx
    CHECK(error_of(bytes).find("symbol 1 (k) is defined in section 77, but there are 5 sections") != std::string::npos);
  }
  SECTION("a symbol table whose entries are not 24 bytes") {
    const auto symtab_header = SyntheticCubin::section_header_at(bytes, 3);
    patch_le(bytes, symtab_header + 56, 16, 8);
    CHECK(error_of(bytes).find("ELF64 symbols are 24 bytes") != std::string::npos);
  }
  SECTION("a symbol table whose string table is not one") {
    const auto symtab_header = SyntheticCubin::section_header_at(bytes, 3);
    patch_le(bytes, symtab_header + 40, 4, 4);  // sh_link -> the text section
    CHECK(error_of(bytes).find("names section 4 as its string table") != std::string::npos);
  }
}

TEST_CASE("cubin: ElfFile::relocations checks symbol indices and sizes") {
  SyntheticCubin cubin;
  const auto text = cubin.add_section({.name = ".text.k", .data = Bytes(32, std::byte{0})});
  cubin.add_symbol({.name = "k", .other = 0x10, .section = text, .size = 32});
  Bytes rela;
  kforecast::testing::put_le(rela, 0x10, 8);
  kforecast::testing::put_le(rela, (std::uint64_t{1} << 32) | 0x38, 8);
  kforecast::testing::put_le(rela, 0xa0, 8);
  const auto relocations = cubin.add_section(
      {.name = ".rela.text.k", .type = section_type_rela, .link = 3, .info = text, .entry_size = 24, .data = rela});
  SECTION("a valid entry") {
    const auto bytes = cubin.build();
    auto file = ElfFile::parse(bytes);
    REQUIRE(file.has_value());
    auto entries = file->relocations(file->sections()[relocations]);
    REQUIRE(entries.has_value());
    REQUIRE(entries->size() == 1);
    CHECK((*entries)[0].offset == 0x10);
    CHECK((*entries)[0].type == 0x38);
    CHECK((*entries)[0].symbol == 1);
    CHECK((*entries)[0].addend == 0xa0);
  }
  SECTION("a symbol index past the symbol table") {
    patch_le(cubin.section(relocations).data, 12, 99, 4);
    const auto bytes = cubin.build();
    auto file = ElfFile::parse(bytes);
    REQUIRE(file.has_value());
    auto entries = file->relocations(file->sections()[relocations]);
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message.find("names symbol 99, but the symbol table has 2") != std::string::npos);
  }
  SECTION("a size that is not a whole number of entries") {
    cubin.section(relocations).data.resize(20);
    const auto bytes = cubin.build();
    auto file = ElfFile::parse(bytes);
    REQUIRE(file.has_value());
    auto entries = file->relocations(file->sections()[relocations]);
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message.find("not a whole number of 24-byte entries") != std::string::npos);
  }
}
