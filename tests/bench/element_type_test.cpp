// SPDX-License-Identifier: Apache-2.0
#include "bench/element_type.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::bench;

TEST_CASE("bench: element types from parameter spellings") {
  struct Case {
    std::string_view spelling;
    std::string_view name;
    ScalarKind kind;
    int bytes;
    int lanes;
  };
  for (const Case& c :
       {Case{"float", "float", ScalarKind::floating, 4, 1}, Case{"const double", "double", ScalarKind::floating, 8, 1},
        Case{"__half", "__half", ScalarKind::half, 2, 1}, Case{"half2", "__half2", ScalarKind::half, 4, 2},
        Case{"__nv_bfloat16", "__nv_bfloat16", ScalarKind::bfloat16, 2, 1},
        Case{"unsigned  int", "unsigned int", ScalarKind::unsigned_integer, 4, 1},
        Case{"std::int64_t", "int64_t", ScalarKind::signed_integer, 8, 1},
        Case{"long long", "long long", ScalarKind::signed_integer, 8, 1},
        Case{"uint8_t", "uint8_t", ScalarKind::unsigned_integer, 1, 1},
        Case{"float4", "float4", ScalarKind::floating, 16, 4}, Case{"int2", "int2", ScalarKind::signed_integer, 8, 2},
        Case{"uchar4", "uchar4", ScalarKind::unsigned_integer, 4, 4},
        Case{"double2", "double2", ScalarKind::floating, 16, 2}}) {
    INFO(c.spelling);
    auto type = element_type(c.spelling);
    REQUIRE(type.has_value());
    CHECK(type->name == c.name);
    CHECK(type->kind == c.kind);
    CHECK(type->bytes() == c.bytes);
    CHECK(type->lanes == c.lanes);
  }
  for (std::string_view unknown : {"T", "MyStruct", "float5", "int0", "", "cudaTextureObject_t"}) {
    INFO(unknown);
    CHECK_FALSE(element_type(unknown).has_value());
  }
}

TEST_CASE("bench: parameter shapes: scalars and buffers") {
  auto buffer = parameter_shape("const float* __restrict__");
  REQUIRE(buffer.has_value());
  CHECK(buffer->pointer);
  CHECK(buffer->element == "float");
  auto scalar = parameter_shape("const int");
  REQUIRE(scalar.has_value());
  CHECK_FALSE(scalar->pointer);
  CHECK(scalar->element == "int");
  auto vector = parameter_shape("float4 *");
  REQUIRE(vector.has_value());
  CHECK(vector->element == "float4");
  CHECK_FALSE(parameter_shape("float**").has_value());
  CHECK_FALSE(parameter_shape("const float&").has_value());
  CHECK_FALSE(parameter_shape("float[16]").has_value());
}
