// SPDX-License-Identifier: Apache-2.0
#include "cubin/kernel_difference.hpp"

#include <catch2/catch.hpp>

#include "synthetic_cubin.hpp"

using namespace kforecast::cubin;
using kforecast::testing::Bytes;
using kforecast::testing::nv_info_record;
using kforecast::testing::synthetic_cubin;
using kforecast::testing::SyntheticKernel;

namespace {

CubinKernel kernel_of(const SyntheticKernel& kernel) {
  auto kernels = read_cubin_kernels(synthetic_cubin({kernel}));
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 1);
  return (*kernels)[0];
}

std::string difference(const SyntheticKernel& base, const SyntheticKernel& head) {
  const auto reason = kernel_difference(kernel_of(base), kernel_of(head));
  REQUIRE(reason.has_value());
  return *reason;
}

}  // namespace

TEST_CASE("cubin: kernel_difference") {
  const SyntheticKernel base{
      .code = Bytes(64, std::byte{1}), .registers = 32, .max_threads = 256, .shared_bytes = 1536};
  SECTION("the same build is identical") { CHECK_FALSE(kernel_difference(kernel_of(base), kernel_of(base))); }
  SECTION("code") {
    auto head = base;
    head.code = Bytes(80, std::byte{1});
    CHECK(difference(base, head) == "code differs (4 → 5 instructions)");
  }
  SECTION("code of the same length says so, not '4 → 4'") {
    auto head = base;
    head.code = Bytes(64, std::byte{2});
    CHECK(difference(base, head) == "code differs (4 instructions at both revisions, some of them changed)");
  }
  SECTION("registers") {
    auto head = base;
    head.registers = 40;
    CHECK(difference(base, head) == "registers 32 → 40");
  }
  SECTION("launch bounds with the same code") {
    auto head = base;
    head.max_threads = 128;
    CHECK(difference(base, head) == "launch bounds 256 → 128 threads");
    head.max_threads.reset();
    CHECK(difference(base, head) == "launch bounds 256 → none threads");
  }
  SECTION("static shared memory with the same code") {
    auto head = base;
    head.shared_bytes = 2048;
    CHECK(difference(base, head) == "static shared memory 1536 → 2048 bytes");
  }
  SECTION("the parameter bank") {
    auto head = base;
    head.parameter_bytes = 0x220;
    CHECK(difference(base, head) == "parameter bank 536 → 544 bytes");
  }
  SECTION("the register limit (__launch_bounds__' minimum blocks)") {
    auto head = base;
    head.extra_attributes = nv_info_record(0x03, 0x1b, Bytes{std::byte{0x80}, std::byte{0}});
    CHECK(difference(base, head) == "register limit none → 128");
  }
  SECTION("an attribute no fact describes, by name") {
    auto head = base;
    head.extra_attributes = nv_info_record(0x03, 0x22, Bytes{std::byte{0x01}, std::byte{0}});
    CHECK(difference(base, head) == "EIATTR_ISTYPEP_USED differs");
  }
  SECTION("the text section header's flags, where older toolkits kept barriers") {
    auto before = kernel_of(base);
    auto after = before;
    after.body.section_flags |= std::uint64_t{1} << 20;
    CHECK(kernel_difference(before, after) == "text section header differs");
  }
  SECTION("several differences at once") {
    auto head = base;
    head.registers = 40;
    head.code = Bytes(80, std::byte{2});
    CHECK(difference(base, head) == "registers 32 → 40; code differs (4 → 5 instructions)");
  }
}

TEST_CASE("cubin: kernel_difference names callees and module data") {
  auto base = kernel_of({});
  const auto function = [](std::string name, Bytes code) {
    return std::make_shared<const CubinFunction>(CubinFunction{.name = std::move(name), .code = std::move(code)});
  };
  SECTION("a changed callee") {
    base.callees.push_back(function("_Z6helperf", Bytes(32, std::byte{1})));
    auto head = base;
    CHECK_FALSE(kernel_difference(base, head));
    auto changed = Bytes(32, std::byte{1});
    changed[3] = std::byte{9};
    head.callees[0] = function("_Z6helperf", changed);
    CHECK(kernel_difference(base, head) == "callee _Z6helperf changed");
  }
  SECTION("a callee added and one removed") {
    auto head = base;
    base.callees.push_back(function("_Z3oldv", {}));
    head.callees.push_back(function("_Z3newv", {}));
    CHECK(kernel_difference(base, head) == "calls _Z3newv now; no longer calls _Z3oldv");
  }
  SECTION("module constants") {
    auto head = base;
    head.module_data = std::make_shared<const std::vector<CubinData>>(
        std::vector<CubinData>{{.name = ".nv.constant3", .size = 4, .bytes = Bytes(4, std::byte{1})}});
    CHECK(kernel_difference(base, head) == "module data .nv.constant3 changed");
    // Asked about the kernel's own code only, the unit's data is not its difference.
    CHECK_FALSE(kernel_difference(base, head, ModuleData::ignore).has_value());
  }
}

TEST_CASE("cubin: pair_kernels") {
  auto kernels = read_cubin_kernels(synthetic_cubin({{.symbol = "_Z1av"}, {.symbol = "_Z1bv"}}));
  REQUIRE(kernels.has_value());
  auto head = read_cubin_kernels(synthetic_cubin({{.symbol = "_Z1bv"}, {.symbol = "_Z1cv"}}));
  REQUIRE(head.has_value());
  const auto pairs = pair_kernels(*kernels, *head);
  REQUIRE(pairs.paired.size() == 1);
  CHECK(pairs.paired[0].base->symbol == "_Z1bv");
  CHECK(pairs.paired[0].head->symbol == "_Z1bv");
  REQUIRE(pairs.removed.size() == 1);
  CHECK(pairs.removed[0]->symbol == "_Z1av");
  REQUIRE(pairs.added.size() == 1);
  CHECK(pairs.added[0]->symbol == "_Z1cv");

  SECTION("a name twice on a side pairs in order") {
    auto twice = *kernels;
    twice.push_back(twice[1]);
    const auto again = pair_kernels(twice, *head);
    CHECK(again.paired.size() == 1);
    CHECK(again.removed.size() == 2);
  }
}
