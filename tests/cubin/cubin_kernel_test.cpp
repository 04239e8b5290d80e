// SPDX-License-Identifier: Apache-2.0
#include "cubin/cubin_kernel.hpp"
#include "cubin/kernel_difference.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <random>

#include "synthetic_cubin.hpp"

using namespace kforecast::cubin;
using kforecast::testing::add_kernel;
using kforecast::testing::Bytes;
using kforecast::testing::nv_info_record;
using kforecast::testing::put_le;
using kforecast::testing::synthetic_cubin;
using kforecast::testing::SyntheticCubin;
using kforecast::testing::SyntheticKernel;
using kforecast::testing::u32_words;

namespace {

bool kernel_difference_is_reflexive_failure(const CubinKernel& kernel) {
  return kernel_difference(kernel, kernel).has_value();
}

std::string error_of(const Bytes& bytes) {
  auto kernels = read_cubin_kernels(bytes);
  REQUIRE_FALSE(kernels.has_value());
  return kernels.error().message;
}

}  // namespace

TEST_CASE("cubin: read_cubin_kernels on a synthetic cubin") {
  const auto bytes = synthetic_cubin({{.symbol = "_Z5tiledILi64EEvPfPKfi",
                                       .code = Bytes(160, std::byte{1}),
                                       .registers = 40,
                                       .max_threads = 256,
                                       .shared_bytes = 1280},
                                      {.symbol = "_ZN2ns1kEPi"}});
  auto kernels = read_cubin_kernels(bytes);
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 2);
  const auto& tiled = (*kernels)[0];
  CHECK(tiled.symbol == "_Z5tiledILi64EEvPfPKfi");
  CHECK(tiled.signature == "void tiled<64>(float*, float const*, int)");
  CHECK(tiled.name == "tiled");
  CHECK(tiled.template_arguments == "<64>");
  CHECK(tiled.registers == 40);
  CHECK(tiled.max_threads == 256u);
  CHECK(tiled.static_shared_bytes == 1280);
  CHECK(tiled.parameter_bank_bytes == 0x218);
  CHECK(tiled.instructions == 10);
  CHECK(tiled.body.code.size() == 160);
  CHECK(tiled.callees.empty());
  // The parameter bank attribute names its section by name, not by symbol index, and the kernel's
  // own name in it as <self> (a renamed kernel keeps its records).
  const auto cbank = std::find_if(tiled.body.attributes.begin(), tiled.body.attributes.end(),
                                  [](const CubinAttribute& a) { return a.id == 0x0a; });
  REQUIRE(cbank != tiled.body.attributes.end());
  CHECK(cbank->symbols == std::vector<std::string>{".nv.constant0.<self>"});
  const auto& k = (*kernels)[1];
  CHECK(k.name == "ns::k");
  CHECK_FALSE(k.max_threads.has_value());
  CHECK(k.static_shared_bytes == 0);
}

TEST_CASE("cubin: a kernel's barriers and stack are read where each CUDA version keeps them") {
  // CUDA 11.8 and 12 keep the barrier count in bits 20 to 26 of the text section's flags
  // (0x100006 for one barrier, as NVRTC 11.8 and 12.9 write); CUDA 13 writes flags 0x6 and an
  // EIATTR_NUM_BARRIERS (0x4c) record. ptxas 11.8's report gives neither count.
  const auto bytes =
      synthetic_cubin({{.symbol = "_Z3oldPf", .text_flags = 0x200006, .min_stack = 256},
                       {.symbol = "_Z3newPf",
                        .extra_attributes = nv_info_record(0x03, 0x4c, Bytes{std::byte{3}, std::byte{0}}),
                        .text_flags = 0x6},
                       {.symbol = "_Z4nonePf", .text_flags = 0x6}});
  auto kernels = read_cubin_kernels(bytes);
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 3);
  CHECK((*kernels)[0].barriers == 2);
  CHECK((*kernels)[0].min_stack_bytes == 256u);
  CHECK((*kernels)[1].barriers == 3);
  CHECK_FALSE((*kernels)[1].min_stack_bytes.has_value());
  CHECK((*kernels)[2].barriers == 0);
}

TEST_CASE("cubin: read_cubin_kernels finds callees cloned into a kernel and in sections of their own") {
  SyntheticCubin cubin;
  Bytes global_info;
  SyntheticKernel kernel{.symbol = "_Z1kPf", .code = Bytes(96, std::byte{1})};
  std::fill(kernel.code.begin() + 64, kernel.code.end(), std::byte{2});
  add_kernel(cubin, kernel, global_info);
  // The clone: the last 32 bytes of the kernel's text section (section 4).
  cubin.add_symbol({.name = "$_Z1kPf$_Z6helperf", .binding = 0, .section = 4, .value = 64, .size = 32});
  // A function of its own that the call graph says the kernel calls.
  const auto far = cubin.add_section({.name = ".text._Z3farv", .data = Bytes(48, std::byte{3})});
  const auto far_symbol = cubin.add_symbol({.name = "_Z3farv", .section = far, .size = 48});
  cubin.add_section({.name = ".nv.callgraph",
                     .type = 0x70000001,
                     .link = 3,
                     .data = u32_words({0, 0xffffffff, 1, far_symbol, 0, 0xfffffffe})});
  cubin.add_section({.name = ".nv.info", .type = 0x70000000, .link = 3, .data = global_info});
  const auto bytes = cubin.build();
  auto kernels = read_cubin_kernels(bytes);
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 1);
  const auto& k = (*kernels)[0];
  CHECK(k.instructions == 6);
  CHECK(k.body.code == Bytes(64, std::byte{1}));
  REQUIRE(k.callees.size() == 2);
  CHECK(k.callees[0]->name == "_Z3farv");
  CHECK(k.callees[0]->code == Bytes(48, std::byte{3}));
  CHECK(k.callees[1]->name == "_Z6helperf");
  CHECK(k.callees[1]->code == Bytes(32, std::byte{2}));
}

TEST_CASE("cubin: read_cubin_kernels keeps module data and leaves out debug data and .nv.compat") {
  SyntheticCubin cubin;
  Bytes global_info;
  add_kernel(cubin, {}, global_info);
  cubin.add_section({.name = ".nv.info", .type = 0x70000000, .link = 3, .data = global_info});
  cubin.add_section({.name = ".nv.constant3", .data = Bytes(16, std::byte{7})});
  cubin.add_section({.name = ".debug_frame", .data = Bytes(16, std::byte{9})});
  cubin.add_section({.name = ".nv_debug_line_sass", .data = Bytes(16, std::byte{9})});
  // The module's feature summary changes whenever any kernel's code does: left out too.
  cubin.add_section({.name = ".nv.compat", .data = Bytes(8, std::byte{3})});
  auto kernels = read_cubin_kernels(cubin.build());
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 1);
  REQUIRE((*kernels)[0].module_data->size() == 1);
  CHECK((*kernels)[0].module_data->at(0).name == ".nv.constant3");
}

TEST_CASE("cubin: read_cubin_kernels gives a kernel its .nv.X.<kernel> sections, however many words X has") {
  // sm_100's cubins add a second encoding of each kernel ("Mercury"): .nv.capmerc.text.<kernel>,
  // .nv.merc.nv.info.<kernel>, and a symbol table of their own, which is left out like .symtab.
  SyntheticCubin cubin;
  Bytes global_info;
  add_kernel(cubin, {}, global_info);
  cubin.add_section({.name = ".nv.capmerc.text._Z6kernelPf", .data = Bytes(8, std::byte{4})});
  cubin.add_section({.name = ".nv.merc.nv.info._Z6kernelPf", .data = Bytes(8, std::byte{5})});
  cubin.add_section({.name = ".nv.merc.symtab", .data = Bytes(24, std::byte{6})});
  cubin.add_section({.name = ".nv.merc.debug_frame", .data = Bytes(8, std::byte{7})});
  auto kernels = read_cubin_kernels(cubin.build());
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 1);
  std::vector<std::string> names;
  for (const auto& section : (*kernels)[0].sections) names.push_back(section.name);
  CHECK(names == std::vector<std::string>{".nv.capmerc.text", ".nv.constant0", ".nv.merc.nv.info"});
  CHECK((*kernels)[0].module_data->empty());
}

TEST_CASE("cubin: read_cubin_kernels refuses malformed kernels") {
  SECTION("a relocatable or executable file only") {
    SyntheticCubin cubin;
    cubin.type = 3;  // ET_DYN
    CHECK(error_of(cubin.build()).find("ELF type 3 is neither ET_EXEC (2) nor ET_REL (1)") != std::string::npos);
  }
  SECTION("an attribute whose size runs past its section") {
    const auto bytes =
        synthetic_cubin({{.extra_attributes = Bytes{std::byte{0x04}, std::byte{0x17}, std::byte{0x40}, std::byte{0}}}});
    CHECK(error_of(bytes).find("EIATTR_KPARAM_INFO at offset") != std::string::npos);
  }
  SECTION("an attribute naming a symbol that does not exist") {
    const auto bytes = synthetic_cubin({{.extra_attributes = nv_info_record(0x04, 0x0f, u32_words({12345}))}});
    CHECK(error_of(bytes).find("EIATTR_EXTERNS in .nv.info._Z6kernelPf names symbol 12345") != std::string::npos);
  }
  SECTION("a clone outside its kernel's section") {
    SyntheticCubin cubin;
    Bytes global_info;
    add_kernel(cubin, {.code = Bytes(32, std::byte{1})}, global_info);
    cubin.add_symbol(
        {.name = "$_Z6kernelPf$_Z1hv", .binding = 0, .section = 4, .value = 16, .size = 0xffffffffffffffff});
    CHECK(error_of(cubin.build()).find("lies outside its section") != std::string::npos);
  }
  SECTION("two kernels in one text section") {
    SyntheticCubin cubin;
    Bytes global_info;
    add_kernel(cubin, {}, global_info);
    cubin.add_symbol({.name = "_Z5alias", .other = 0x10, .section = 4, .size = 16});
    CHECK(error_of(cubin.build()).find("kernels _Z6kernelPf and _Z5alias share the text section .text._Z6kernelPf") !=
          std::string::npos);
  }
  SECTION("two kernels of one name") {
    SyntheticCubin cubin;
    Bytes global_info;
    add_kernel(cubin, {}, global_info);
    add_kernel(cubin, {}, global_info);
    CHECK(error_of(cubin.build()).find("two kernels are named _Z6kernelPf") != std::string::npos);
  }
  SECTION("overlapping clones") {
    SyntheticCubin cubin;
    Bytes global_info;
    add_kernel(cubin, {.code = Bytes(64, std::byte{1})}, global_info);
    cubin.add_symbol({.name = "$_Z6kernelPf$_Z1av", .binding = 0, .section = 4, .value = 16, .size = 32});
    cubin.add_symbol({.name = "$_Z6kernelPf$_Z1bv", .binding = 0, .section = 4, .value = 32, .size = 32});
    CHECK(error_of(cubin.build()).find("functions $_Z6kernelPf$_Z1av and $_Z6kernelPf$_Z1bv overlap") !=
          std::string::npos);
  }
  SECTION("a call graph naming a symbol that does not exist") {
    SyntheticCubin cubin;
    Bytes global_info;
    add_kernel(cubin, {}, global_info);
    cubin.add_section({.name = ".nv.callgraph", .type = 0x70000001, .data = u32_words({1, 999})});
    CHECK(error_of(cubin.build()).find(".nv.callgraph entry 0 names symbols 1 and 999") != std::string::npos);
  }
  SECTION("a relocation section patching a section that does not exist") {
    SyntheticCubin cubin;
    Bytes global_info;
    add_kernel(cubin, {}, global_info);
    cubin.add_section({.name = ".rela.text.x", .type = section_type_rela, .link = 3, .info = 500, .entry_size = 24});
    CHECK(error_of(cubin.build()).find("patches section 500") != std::string::npos);
  }
  SECTION("a cubin without kernels is no error") {
    auto kernels = read_cubin_kernels(SyntheticCubin().build());
    REQUIRE(kernels.has_value());
    CHECK(kernels->empty());
  }
}

TEST_CASE("cubin: read_cubin_kernels survives corruption of real cubins") {
  // The fuzz target's mutations mostly insert and delete bytes, which moves the section header
  // table away at once; overwriting bytes in place keeps the layout and reaches the attribute,
  // symbol and relocation checks.
  for (const auto* name : {"whole_program_sm90.cubin", "relocatable_sm90.cubin"}) {
    std::ifstream in(std::string(KF_SOURCE_DIR) + "/fixtures/fuzz/cubin/" + name, std::ios::binary);
    REQUIRE(in.good());
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const Bytes seed(reinterpret_cast<const std::byte*>(text.data()),
                     reinterpret_cast<const std::byte*>(text.data()) + text.size());
    auto original = read_cubin_kernels(seed);
    REQUIRE(original.has_value());
    CHECK(original->size() == 2);
    std::mt19937_64 rng(20261126);
    int still_read = 0;
    for (int round = 0; round < 3000; ++round) {
      auto bytes = seed;
      for (int edit = 0, edits = 1 + static_cast<int>(rng() % 4); edit < edits; ++edit)
        bytes[rng() % bytes.size()] = static_cast<std::byte>(rng());
      auto kernels = read_cubin_kernels(bytes);
      if (!kernels) continue;
      ++still_read;
      for (const auto& kernel : *kernels) CHECK_FALSE(kernel_difference_is_reflexive_failure(kernel));
      // Bytes overwritten in place keep the code's length: comparing with the original meets
      // corrupted instructions where module addresses are matched (module_reference.hpp).
      for (const auto& pair : pair_kernels(*original, *kernels).paired) (void)kernel_difference(*pair.base, *pair.head);
    }
    INFO(name);
    CHECK(still_read > 1000);  // most corruptions hit code or data, which the reader keeps as bytes
  }
}

TEST_CASE("cubin: read_cubin_kernels shares a function many kernels call") {
  SyntheticCubin cubin;
  Bytes global_info;
  add_kernel(cubin, {.symbol = "_Z1av"}, global_info);
  add_kernel(cubin, {.symbol = "_Z1bv"}, global_info);
  const auto shared = cubin.add_section({.name = ".text._Z6sharedv", .data = Bytes(4096, std::byte{5})});
  const auto shared_symbol = cubin.add_symbol({.name = "_Z6sharedv", .section = shared, .size = 4096});
  // Symbols 1 and 3 are the kernels (each followed by its parameter bank's section symbol).
  cubin.add_section(
      {.name = ".nv.callgraph", .type = 0x70000001, .data = u32_words({1, shared_symbol, 3, shared_symbol})});
  auto kernels = read_cubin_kernels(cubin.build());
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 2);
  REQUIRE((*kernels)[0].callees.size() == 1);
  REQUIRE((*kernels)[1].callees.size() == 1);
  CHECK((*kernels)[0].callees[0] == (*kernels)[1].callees[0]);  // one object
  CHECK((*kernels)[0].module_data == (*kernels)[1].module_data);
}

TEST_CASE("cubin: read_cubin_kernels follows recursive calls once") {
  SyntheticCubin cubin;
  Bytes global_info;
  add_kernel(cubin, {}, global_info);
  const auto f = cubin.add_section({.name = ".text._Z1fv", .data = Bytes(16, std::byte{1})});
  const auto f_symbol = cubin.add_symbol({.name = "_Z1fv", .section = f, .size = 16});
  const auto g = cubin.add_section({.name = ".text._Z1gv", .data = Bytes(16, std::byte{2})});
  const auto g_symbol = cubin.add_symbol({.name = "_Z1gv", .section = g, .size = 16});
  // kernel -> f -> g -> f, and g -> g.
  cubin.add_section({.name = ".nv.callgraph",
                     .type = 0x70000001,
                     .data = u32_words({1, f_symbol, f_symbol, g_symbol, g_symbol, f_symbol, g_symbol, g_symbol})});
  auto kernels = read_cubin_kernels(cubin.build());
  REQUIRE(kernels.has_value());
  REQUIRE(kernels->size() == 1);
  REQUIRE((*kernels)[0].callees.size() == 2);
  CHECK((*kernels)[0].callees[0]->name == "_Z1fv");
  CHECK((*kernels)[0].callees[1]->name == "_Z1gv");
}
