// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a function's machine code addresses module data, and what it finds there. A whole-program
// sm_90 cubin reads `__constant__` variables from constant bank 3 (`c[0x3][offset]`) and the
// addresses of `__device__` variables, printf and assert strings, vprintf and __assertfail from
// slots of constant bank 4 that the driver fills in (`.rela.nv.constant4`). Add or remove one
// global of the unit and the others move: every kernel that reads one of them gets other offsets
// in its instructions with nothing else changed. Naming what each offset points to lets the
// comparison tell such a shift from a kernel that now reads something else.
//
// The encodings (checked against nvdisasm on nvcc 13's sm_90 output, not on other SMs): an
// instruction whose operand type bits (9-11 of the first word) are 5 holds its constant bank in
// bits 54-58 and the byte offset in bits 38-53 (LDC with a register index too, as `c[bank][R+offset]`);
// some instructions with those bits (BAR.SYNC) hold no constant, which is why a field is trusted
// only where both builds resolve it to the same thing. printf and assert call through
// `MOV Rn, offset` then `LDC.64 Rm, c[0x4][Rn]`: the offset is the MOV's 32-bit immediate
// (bits 32-63).

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kforecast::cubin {

class ModuleIndex;

// Which bits of the instruction hold the address.
enum class AddressField : std::uint8_t {
  constant_offset,  // the offset of a c[bank][offset] operand
  move_immediate,   // a MOV's immediate that a later LDC uses as its bank offset
};

// What a bank offset points to, said so that two builds agree exactly where it is the same
// thing: the bank; for a slot a relocation fills (bank 4), the relocation's type and addend; and
// the symbol, by its normalised name, or for a compiler-named object (`$str$3`, `__unnamed_2`,
// renumbered when another one is added) by its bytes. One per slot of the cubin, shared by the
// instructions that read it; the symbol's identity shared by the slots that name it.
struct ModuleTarget {
  std::uint32_t bank = 0;
  std::optional<std::uint32_t> relocation;  // R_CUDA_* where a relocation fills the slot
  std::int64_t addend = 0;
  std::shared_ptr<const std::string> symbol;  // never null
  friend bool operator==(const ModuleTarget& a, const ModuleTarget& b) {
    return a.bank == b.bank && a.relocation == b.relocation && a.addend == b.addend && *a.symbol == *b.symbol;
  }
};

struct ModuleReference {
  std::uint64_t instruction = 0;  // index into the function's code, 16 bytes an instruction
  AddressField field = AddressField::constant_offset;
  std::shared_ptr<const ModuleTarget> target;  // never null
  std::uint64_t within = 0;                    // how far into the target the address points
  friend bool operator==(const ModuleReference& a, const ModuleReference& b) {
    return a.instruction == b.instruction && a.field == b.field && a.within == b.within && *a.target == *b.target;
  }
};

// The module's constant banks (sections `.nv.constant<N>` that belong to no function), read
// once per cubin.
class ModuleAddresses {
 public:
  static ModuleAddresses build(const ModuleIndex& index);

  // What offset `offset` of bank `bank` holds, and how far into it the offset is: the relocation
  // that fills it, else the data symbol that covers it. nullopt where the bank is no module bank
  // or nothing names the offset.
  std::optional<std::pair<std::shared_ptr<const ModuleTarget>, std::uint64_t>> target(std::uint32_t bank,
                                                                                      std::uint64_t offset) const;

  // The instructions of `code` that address module data, in order. Reads only whole
  // instructions inside `code`.
  std::vector<ModuleReference> references_in(std::span<const std::byte> code) const;

 private:
  struct Slot {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;  // how many bytes from `offset` the target covers
    std::shared_ptr<const ModuleTarget> target;
  };
  struct Bank {
    std::vector<Slot> relocations;  // sorted by offset
    std::vector<Slot> symbols;      // sorted by offset
  };
  std::map<std::uint32_t, Bank> m_banks;
};

// Whether two functions' code is the same but for module addresses: the same length, and every
// instruction that differs differs only in a field that both builds' references name, and that
// names the same target in both. `base_references` and `head_references` are what
// ModuleAddresses::references_in found in each.
bool same_code_but_module_addresses(std::span<const std::byte> base,
                                    const std::vector<ModuleReference>& base_references,
                                    std::span<const std::byte> head,
                                    const std::vector<ModuleReference>& head_references);

}  // namespace kforecast::cubin
