// SPDX-License-Identifier: Apache-2.0
#include "cubin/nv_info.hpp"

#include <catch2/catch.hpp>

#include "synthetic_cubin.hpp"

using namespace kforecast::cubin;
using kforecast::testing::Bytes;
using kforecast::testing::bytes_of;

TEST_CASE("cubin: parse_nv_info") {
  SECTION("records of every format, as nvcc 13 lays them out") {
    // HVAL MAXREG_COUNT 0xff, BVAL 0x4c (1 byte of value, 1 of padding), SVAL MAX_THREADS 256,1,1,
    // NVAL 0x04.
    const auto bytes = bytes_of({0x03, 0x1b, 0xff, 0x00, 0x02, 0x4c, 0x01, 0x00, 0x04, 0x05, 12,   0,    0, 1,
                                 0,    0,    1,    0,    0,    0,    1,    0,    0,    0,    0x01, 0x04, 0, 0});
    auto records = parse_nv_info(bytes, ".nv.info.k");
    REQUIRE(records.has_value());
    REQUIRE(records->size() == 4);
    CHECK((*records)[0].format == AttributeFormat::half_value);
    CHECK((*records)[0].id == 0x1b);
    CHECK((*records)[0].value == bytes_of({0xff, 0x00}));
    CHECK((*records)[1].format == AttributeFormat::byte_value);
    CHECK((*records)[2].id == 0x05);
    CHECK((*records)[2].value.size() == 12);
    CHECK((*records)[3].format == AttributeFormat::no_value);
  }
  SECTION("an empty section has no records") {
    auto records = parse_nv_info({}, ".nv.info");
    REQUIRE(records.has_value());
    CHECK(records->empty());
  }
  SECTION("an SVAL whose size runs past the section") {
    const auto bytes = bytes_of({0x04, 0x17, 0xff, 0x00, 1, 2, 3});
    auto records = parse_nv_info(bytes, ".nv.info.k");
    REQUIRE_FALSE(records.has_value());
    CHECK(records.error().message ==
          "malformed cubin: attribute EIATTR_KPARAM_INFO at offset 0 of .nv.info.k claims 255 bytes, but only 3 "
          "remain");
  }
  SECTION("an SVAL cut off inside its size") {
    auto records = parse_nv_info(bytes_of({0x04, 0x17, 0x10}), ".nv.info.k");
    REQUIRE_FALSE(records.has_value());
    CHECK(records.error().message.find("ends inside the size of attribute EIATTR_KPARAM_INFO") != std::string::npos);
  }
  SECTION("a fixed-size record cut off") {
    auto records = parse_nv_info(bytes_of({0x03, 0x1b, 0xff}), ".nv.info.k");
    REQUIRE_FALSE(records.has_value());
    CHECK(records.error().message.find("claims 2 bytes, but only 1 remain") != std::string::npos);
  }
  SECTION("a lone byte") {
    auto records = parse_nv_info(bytes_of({0x03}), ".nv.info.k");
    REQUIRE_FALSE(records.has_value());
    CHECK(records.error().message.find("ends in the middle of an attribute (offset 0)") != std::string::npos);
  }
  SECTION("an unknown format") {
    auto records = parse_nv_info(bytes_of({0x03, 0x1b, 0xff, 0x00, 0x07, 0x01, 0, 0}), ".nv.info.k");
    REQUIRE_FALSE(records.has_value());
    CHECK(records.error().message.find("attribute at offset 4 of .nv.info.k has format 0x07") != std::string::npos);
  }
}

TEST_CASE("cubin: attribute_name") {
  CHECK(attribute_name(0x05) == "EIATTR_MAX_THREADS");
  CHECK(attribute_name(0x2f) == "EIATTR_REGCOUNT");
  CHECK(attribute_name(0x17) == "EIATTR_KPARAM_INFO");
  CHECK(attribute_name(0x5f) == "EIATTR 0x5f");
}
