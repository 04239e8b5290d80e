// SPDX-License-Identifier: Apache-2.0
#include "cubin/module_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "cubin/little_endian.hpp"
#include "cubin/module_index.hpp"

namespace kforecast::cubin {

namespace {

constexpr std::uint64_t instruction_bytes = 16;
constexpr std::string_view bank_prefix = ".nv.constant";
constexpr std::uint32_t relocation_64 = 2;  // R_CUDA_64: the 8-byte address of its target
constexpr std::uint64_t address_bytes = 8;
// A compiler-named object is named by its bytes up to this many in all, by its name after: a
// hostile file cannot make the reader copy more, and a renumbered object past the budget only
// costs a reported difference.
constexpr std::uint64_t max_bytes_named = std::uint64_t{16} << 20;

// Fields of an instruction's first 64-bit word (the second, scheduling control, is compared whole).
constexpr std::uint64_t operand_type(std::uint64_t word) { return (word >> 9) & 0x7; }
constexpr std::uint64_t opcode(std::uint64_t word) { return word & 0xfff; }
constexpr std::uint64_t constant_operand_type = 5;
constexpr std::uint32_t constant_bank(std::uint64_t word) { return static_cast<std::uint32_t>((word >> 54) & 0x1f); }
constexpr std::uint64_t constant_offset(std::uint64_t word) { return (word >> 38) & 0xffff; }
constexpr std::uint64_t constant_offset_mask = std::uint64_t{0xffff} << 38;
constexpr std::uint64_t load_constant = 0xb82;  // LDC Rd, c[bank][Ra + offset]
constexpr std::uint64_t index_register(std::uint64_t word) { return (word >> 24) & 0xff; }
constexpr std::uint64_t zero_register = 0xff;    // RZ: no index
constexpr std::uint64_t move_immediate = 0x802;  // MOV Rd, imm32
constexpr std::uint64_t destination_register(std::uint64_t word) { return (word >> 16) & 0xff; }
constexpr std::uint64_t immediate(std::uint64_t word) { return word >> 32; }
constexpr std::uint64_t immediate_mask = std::uint64_t{0xffffffff} << 32;

constexpr std::uint64_t field_mask(AddressField field) {
  return field == AddressField::constant_offset ? constant_offset_mask : immediate_mask;
}

// The bank a module section `.nv.constant<N>` is, or nullopt for any other name (a function's
// own `.nv.constant0.<kernel>` among them).
std::optional<std::uint32_t> module_bank(std::string_view name) {
  if (!name.starts_with(bank_prefix)) return std::nullopt;
  const auto digits = name.substr(bank_prefix.size());
  std::uint32_t bank = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), bank);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size() || bank > 0x1f)
    return std::nullopt;
  return bank;
}

// nvcc's names for objects it makes (printf formats, assert messages): numbered in the order
// the unit defines them, so another one added renumbers the rest.
bool is_compiler_named(std::string_view name) { return name.starts_with('$') || name.starts_with("__unnamed_"); }

// Symbols as the same thing in two builds: a compiler-named object with bytes by its bytes,
// anything else by its normalised name. Each symbol's identity is made once.
class SymbolIdentities {
 public:
  explicit SymbolIdentities(const ModuleIndex& index) : m_index(index) {}

  std::shared_ptr<const std::string> of(std::uint32_t symbol) {
    auto& identity = m_identities[symbol];
    if (!identity) identity = std::make_shared<const std::string>(make(symbol));
    return identity;
  }

 private:
  std::string make(std::uint32_t symbol) {
    const auto& elf_symbol = m_index.file().symbols()[symbol];
    if (is_compiler_named(elf_symbol.name) && elf_symbol.section != ElfSymbol::no_section &&
        elf_symbol.size <= m_bytes_left) {
      const auto& section = m_index.file().sections()[elf_symbol.section];
      if (section.type != section_type_nobits)
        if (const auto bytes = byte_range(section.bytes, elf_symbol.value, elf_symbol.size)) {
          m_bytes_left -= bytes->size();
          return fmt::format("{} bytes in {}: {}", bytes->size(), section.name,
                             std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
        }
    }
    return m_index.symbol_name(symbol);
  }

  const ModuleIndex& m_index;
  std::unordered_map<std::uint32_t, std::shared_ptr<const std::string>> m_identities;
  std::uint64_t m_bytes_left = max_bytes_named;
};

// The slot of `slots` (sorted by offset) that covers `offset`: the last one starting at or
// before it, if it reaches that far.
template <class Slot>
const Slot* covering(const std::vector<Slot>& slots, std::uint64_t offset) {
  const auto after = std::upper_bound(slots.begin(), slots.end(), offset,
                                      [](std::uint64_t at, const Slot& slot) { return at < slot.offset; });
  if (after == slots.begin()) return nullptr;
  const auto& slot = *std::prev(after);
  return offset - slot.offset < slot.size ? &slot : nullptr;
}

}  // namespace

ModuleAddresses ModuleAddresses::build(const ModuleIndex& index) {
  ModuleAddresses addresses;
  const auto& file = index.file();
  SymbolIdentities identities(index);
  std::map<std::uint32_t, std::uint32_t> banks_by_section;
  for (std::uint32_t section = 0; section < file.sections().size(); ++section) {
    const auto bank_number = module_bank(file.sections()[section].name);
    if (!bank_number) continue;
    banks_by_section.emplace(section, *bank_number);
    auto& bank = addresses.m_banks[*bank_number];
    for (const auto* relocation : index.relocations_of(section)) {
      // Only an R_CUDA_64 slot is known to cover 8 bytes; any other relocation names its own
      // offset only.
      bank.relocations.push_back(Slot{
          .offset = relocation->offset,
          .size = relocation->type == relocation_64 ? address_bytes : 1,
          .target = std::make_shared<const ModuleTarget>(ModuleTarget{.bank = *bank_number,
                                                                      .relocation = relocation->type,
                                                                      .addend = relocation->addend,
                                                                      .symbol = identities.of(relocation->symbol)})});
    }
  }
  for (std::uint32_t symbol = 0; symbol < file.symbols().size(); ++symbol) {
    const auto& elf_symbol = file.symbols()[symbol];
    if (elf_symbol.type != symbol_type_object || elf_symbol.size == 0) continue;
    const auto bank_number = banks_by_section.find(elf_symbol.section);
    if (bank_number == banks_by_section.end()) continue;
    addresses.m_banks[bank_number->second].symbols.push_back(Slot{
        .offset = elf_symbol.value,
        .size = elf_symbol.size,
        .target = std::make_shared<const ModuleTarget>(ModuleTarget{
            .bank = bank_number->second, .relocation = std::nullopt, .addend = 0, .symbol = identities.of(symbol)})});
  }
  for (auto& [number, bank] : addresses.m_banks)
    for (auto* slots : {&bank.relocations, &bank.symbols})
      std::stable_sort(slots->begin(), slots->end(), [](const Slot& a, const Slot& b) { return a.offset < b.offset; });
  return addresses;
}

std::optional<std::pair<std::shared_ptr<const ModuleTarget>, std::uint64_t>> ModuleAddresses::target(
    std::uint32_t bank, std::uint64_t offset) const {
  const auto found = m_banks.find(bank);
  if (found == m_banks.end()) return std::nullopt;
  for (const auto* slots : {&found->second.relocations, &found->second.symbols})
    if (const auto* slot = covering(*slots, offset)) return std::pair{slot->target, offset - slot->offset};
  return std::nullopt;
}

std::vector<ModuleReference> ModuleAddresses::references_in(std::span<const std::byte> code) const {
  std::vector<ModuleReference> references;
  if (m_banks.empty()) return references;
  const auto count = code.size() / instruction_bytes;
  // Registers that index a module bank's LDC, with the bank and the LDC's own offset; a register
  // used with two different ones is left out.
  std::map<std::uint64_t, std::optional<std::pair<std::uint32_t, std::uint64_t>>> indices;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto word = *read_u64(code, i * instruction_bytes);
    if (operand_type(word) != constant_operand_type) continue;
    const auto bank = constant_bank(word);
    if (!m_banks.contains(bank)) continue;
    if (auto target = this->target(bank, constant_offset(word)))
      references.push_back(ModuleReference{.instruction = i,
                                           .field = AddressField::constant_offset,
                                           .target = std::move(target->first),
                                           .within = target->second});
    if (opcode(word) == load_constant && index_register(word) != zero_register) {
      const std::pair use{bank, constant_offset(word)};
      const auto [at, inserted] = indices.try_emplace(index_register(word), use);
      if (!inserted && at->second != use) at->second = std::nullopt;
    }
  }
  if (indices.empty()) return references;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto word = *read_u64(code, i * instruction_bytes);
    if (opcode(word) != move_immediate) continue;
    const auto use = indices.find(destination_register(word));
    if (use == indices.end() || !use->second) continue;
    if (auto target = this->target(use->second->first, immediate(word) + use->second->second))
      references.push_back(ModuleReference{.instruction = i,
                                           .field = AddressField::move_immediate,
                                           .target = std::move(target->first),
                                           .within = target->second});
  }
  std::sort(references.begin(), references.end(),
            [](const ModuleReference& a, const ModuleReference& b) { return a.instruction < b.instruction; });
  return references;
}

bool same_code_but_module_addresses(std::span<const std::byte> base,
                                    const std::vector<ModuleReference>& base_references,
                                    std::span<const std::byte> head,
                                    const std::vector<ModuleReference>& head_references) {
  if (base.size() != head.size()) return false;
  const auto reference_at = [](const std::vector<ModuleReference>& references, std::uint64_t instruction) {
    const auto it =
        std::lower_bound(references.begin(), references.end(), instruction,
                         [](const ModuleReference& reference, std::uint64_t at) { return reference.instruction < at; });
    return it != references.end() && it->instruction == instruction ? &*it : nullptr;
  };
  const auto count = base.size() / instruction_bytes;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto at = i * instruction_bytes;
    const auto before = *read_u64(base, at), after = *read_u64(head, at);
    if (*read_u64(base, at + 8) != *read_u64(head, at + 8)) return false;
    if (before == after) continue;
    const auto* base_reference = reference_at(base_references, i);
    const auto* head_reference = reference_at(head_references, i);
    if (!base_reference || !head_reference || base_reference->field != head_reference->field) return false;
    if (((before ^ after) & ~field_mask(base_reference->field)) != 0) return false;
    if (base_reference->within != head_reference->within || *base_reference->target != *head_reference->target)
      return false;
  }
  // Bytes after the last whole instruction: compared as they are.
  return std::equal(base.begin() + static_cast<std::ptrdiff_t>(count * instruction_bytes), base.end(),
                    head.begin() + static_cast<std::ptrdiff_t>(count * instruction_bytes));
}

}  // namespace kforecast::cubin
