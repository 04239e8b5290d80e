// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "capture/injection/parameter_layout.hpp"
#include "cubin/synthetic_cubin.hpp"

using namespace kforecast::capture::injection;
using namespace kforecast::testing;

namespace {

// One EIATTR_KPARAM_INFO record: index 0, ordinal, offset, size in bits 18-31 of the last word
// (0x1f000 is the cbank field nvcc writes beside it).
Bytes kparam(std::uint16_t ordinal, std::uint16_t offset, std::uint32_t size) {
  Bytes value;
  put_le(value, 0, 4);
  put_le(value, ordinal, 2);
  put_le(value, offset, 2);
  put_le(value, (size << 18) | 0x1f000, 4);
  return nv_info_record(0x04, 0x17, value);
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

}  // namespace

TEST_CASE("capture parameter layout: kparam_info records in ordinal order") {
  SyntheticCubin cubin;
  Bytes global;
  // nvcc writes the records last parameter first, between other attributes.
  add_kernel(
      cubin,
      SyntheticKernel{.symbol = "_Z4axpyfPKfPfi",
                      .extra_attributes = concat({kparam(3, 24, 4), nv_info_record(0x03, 0x1b, bytes_of({0xff, 0})),
                                                  kparam(2, 16, 8), kparam(1, 8, 8), kparam(0, 0, 4)})},
      global);
  add_kernel(cubin, SyntheticKernel{.symbol = "_Z5emptyv"}, global);
  const Bytes file = cubin.build();
  const CubinLayouts layouts = read_parameter_layouts(file);
  REQUIRE(layouts.problem.empty());
  REQUIRE(layouts.kernels.contains("_Z4axpyfPKfPfi"));
  CHECK(layouts.kernels.at("_Z4axpyfPKfPfi") ==
        std::vector<ParameterSlot>{{0, 0, 4}, {1, 8, 8}, {2, 16, 8}, {3, 24, 4}});
  REQUIRE(layouts.kernels.contains("_Z5emptyv"));
  CHECK(layouts.kernels.at("_Z5emptyv").empty());
}

TEST_CASE("capture parameter layout: a struct parameter keeps its size") {
  SyntheticCubin cubin;
  Bytes global;
  add_kernel(cubin,
             SyntheticKernel{.symbol = "_Z4spanS_f", .extra_attributes = concat({kparam(1, 16, 4), kparam(0, 0, 16)})},
             global);
  const CubinLayouts layouts = read_parameter_layouts(cubin.build());
  CHECK(layouts.kernels.at("_Z4spanS_f") == std::vector<ParameterSlot>{{0, 0, 16}, {1, 16, 4}});
}

TEST_CASE("capture parameter layout: what is not a readable cubin is a problem, never a crash") {
  SECTION("not ELF") {
    const Bytes text = bytes_of({'.', 'v', 'e', 'r', 's', 'i', 'o', 'n'});
    const auto layouts = read_parameter_layouts(text);
    CHECK(layouts.kernels.empty());
    CHECK_THAT(layouts.problem, Catch::Matchers::Contains("not an ELF cubin"));
  }
  SECTION("section table past the end") {
    SyntheticCubin cubin;
    Bytes global;
    add_kernel(cubin, SyntheticKernel{.extra_attributes = kparam(0, 0, 8)}, global);
    Bytes file = cubin.build();
    patch_le(file, 0x28, file.size() - 8, 8);
    CHECK_THAT(read_parameter_layouts(file).problem, Catch::Matchers::Contains("malformed"));
  }
  SECTION("a record that claims more bytes than its section holds drops that kernel alone") {
    SyntheticCubin cubin;
    Bytes global;
    Bytes cut = kparam(0, 0, 8);
    patch_le(cut, 2, 0x4000, 2);
    add_kernel(cubin, SyntheticKernel{.symbol = "_Z3badv", .extra_attributes = cut}, global);
    add_kernel(cubin, SyntheticKernel{.symbol = "_Z4goodPf", .extra_attributes = kparam(0, 0, 8)}, global);
    const auto layouts = read_parameter_layouts(cubin.build());
    CHECK_FALSE(layouts.kernels.contains("_Z3badv"));
    CHECK(layouts.kernels.at("_Z4goodPf") == std::vector<ParameterSlot>{{0, 0, 8}});
  }
  SECTION("every truncation of a valid cubin") {
    SyntheticCubin cubin;
    Bytes global;
    add_kernel(cubin, SyntheticKernel{.extra_attributes = kparam(0, 0, 8)}, global);
    const Bytes file = cubin.build();
    for (std::size_t size = 0; size < file.size(); size += 7) {
      const auto layouts = read_parameter_layouts(std::span(file).first(size));
      CHECK((layouts.kernels.size() <= 1));
    }
  }
}

TEST_CASE("capture parameter layout: nvcc's own cubin") {
  // fixtures/fuzz/cubin/whole_program_sm90.cubin: nvcc 13 for sm_90 from tests/fuzz/cubin_seeds.cu,
  // where withlocal<Local>(Local, float*) takes a 4-byte struct and a pointer.
  std::ifstream file(KF_SOURCE_DIR "/fixtures/fuzz/cubin/whole_program_sm90.cubin", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  REQUIRE(!bytes.empty());
  const auto layouts = read_parameter_layouts(std::as_bytes(std::span(bytes.data(), bytes.size())));
  REQUIRE(layouts.problem.empty());
  CHECK(layouts.kernels.at("_Z5tiledILi32EEvPf") == std::vector<ParameterSlot>{{0, 0, 8}});
  CHECK(layouts.kernels.at("_Z9withlocalIN47_GLOBAL__N__d72e2219_14_cubin_seeds_cu_2f1254c85LocalEEvT_Pf") ==
        std::vector<ParameterSlot>{{0, 0, 4}, {1, 8, 8}});
}
