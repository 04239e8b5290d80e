// SPDX-License-Identifier: Apache-2.0
// The rule that lets moved module data pass as the same code, on hand-made instructions: what it
// accepts, and the near misses it must refuse (tests/cubin/cubin_nvcc_test.cpp has real ones).

#include "cubin/module_reference.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "synthetic_cubin.hpp"

using namespace kforecast::cubin;
using kforecast::testing::Bytes;
using kforecast::testing::put_le;

namespace {

// ULDC.64 UR4, c[0x4][offset] and MOV R2, immediate as nvcc 13 encodes them for sm_90.
std::uint64_t uldc_bank4(std::uint64_t offset) { return 0x0100000000047ab9ULL | (offset << 38); }
std::uint64_t mov_r2(std::uint64_t immediate) { return 0x0000000000027802ULL | (immediate << 32); }
constexpr std::uint64_t control = 0x000fe20000000a00ULL;  // the second word, the same in both builds

Bytes code_of(std::initializer_list<std::uint64_t> first_words) {
  Bytes code;
  for (const auto word : first_words) {
    put_le(code, word, 8);
    put_le(code, control, 8);
  }
  return code;
}

// A reference to the address of `symbol` in a bank 4 slot.
ModuleReference reference(std::uint64_t instruction, std::string symbol,
                          AddressField field = AddressField::constant_offset, std::uint64_t within = 0) {
  return ModuleReference{
      .instruction = instruction,
      .field = field,
      .target = std::make_shared<const ModuleTarget>(ModuleTarget{
          .bank = 4, .relocation = 2, .addend = 0, .symbol = std::make_shared<const std::string>(std::move(symbol))}),
      .within = within};
}

}  // namespace

TEST_CASE("cubin: same_code_but_module_addresses") {
  const auto base = code_of({0x7918, uldc_bank4(0x28), mov_r2(0x0)});
  const std::vector base_references{reference(1, "22 bytes in .nv.global.init: BM * BK == blockDim.x"),
                                    reference(2, "__assertfail", AddressField::move_immediate)};
  const auto head = code_of({0x7918, uldc_bank4(0x18), mov_r2(0x40)});
  const std::vector head_references{reference(1, "22 bytes in .nv.global.init: BM * BK == blockDim.x"),
                                    reference(2, "__assertfail", AddressField::move_immediate)};

  SECTION("offsets that moved to the same targets") {
    CHECK(same_code_but_module_addresses(base, base_references, head, head_references));
  }
  SECTION("identical code needs no references") { CHECK(same_code_but_module_addresses(base, {}, base, {})); }
  SECTION("an offset that now names something else") {
    auto other = head_references;
    other[0] = reference(1, "counter");
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, head, other));
  }
  SECTION("the same target at another place in it") {
    auto other = head_references;
    other[0] = reference(1, "22 bytes in .nv.global.init: BM * BK == blockDim.x", AddressField::constant_offset, 4);
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, head, other));
  }
  SECTION("the same symbol through another addend or relocation") {
    auto other = head_references;
    auto target = *other[0].target;
    target.addend = 8;
    other[0].target = std::make_shared<const ModuleTarget>(target);
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, head, other));
    target.addend = 0;
    target.relocation = std::nullopt;
    other[0].target = std::make_shared<const ModuleTarget>(target);
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, head, other));
  }
  SECTION("a difference with no reference on one side") {
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, head, {head_references[1]}));
    CHECK_FALSE(same_code_but_module_addresses(base, {}, head, head_references));
  }
  SECTION("references of different kinds") {
    auto other = head_references;
    other[1] = reference(2, "__assertfail");
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, head, other));
  }
  SECTION("bits outside the address field") {
    // Another bank, another destination register, another control word.
    const auto other_bank = code_of({0x7918, uldc_bank4(0x18) ^ (std::uint64_t{1} << 54), mov_r2(0x40)});
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, other_bank, head_references));
    const auto other_register = code_of({0x7918, uldc_bank4(0x18), mov_r2(0x40) | (std::uint64_t{3} << 16)});
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, other_register, head_references));
    auto other_control = head;
    other_control[16 + 8] ^= std::byte{1};
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, other_control, head_references));
  }
  SECTION("another instruction changed too") {
    const auto more = code_of({0x7919, uldc_bank4(0x18), mov_r2(0x40)});
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, more, head_references));
  }
  SECTION("another length, or a partial instruction that differs") {
    auto longer = head;
    put_le(longer, 0x7918, 8);
    put_le(longer, control, 8);
    CHECK_FALSE(same_code_but_module_addresses(base, base_references, longer, head_references));
    auto base_tail = base, head_tail = head;
    base_tail.push_back(std::byte{1});
    head_tail.push_back(std::byte{2});
    CHECK_FALSE(same_code_but_module_addresses(base_tail, base_references, head_tail, head_references));
    head_tail.back() = std::byte{1};
    CHECK(same_code_but_module_addresses(base_tail, base_references, head_tail, head_references));
  }
}
