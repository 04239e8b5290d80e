// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "embedded/labelled_pairs.hpp"

using namespace kforecast::embedded;

namespace {

std::string error_of(std::string_view text) {
  auto pairs = parse_labelled_pairs(text, "pairs.jsonl");
  REQUIRE_FALSE(pairs.has_value());
  return pairs.error().message;
}

constexpr const char* good =
    R"({"id": "p1", "family": "gemv", "hardware": "H100", "reference": {"source": "__global__ void a(float* x) {}", "kernel": "a", "launch": {"grid": [128, 2], "block": [256, 1, 1], "shared_bytes": 1024}}, "candidate": {"source": "__global__ void b(float* x) {}", "kernel": "b"}, "speedup": 2.31})";

}  // namespace

TEST_CASE("embedded: labelled pairs in the dataset format") {
  const std::string text =
      std::string(good) + "\n\n" +
      R"({"reference": {"source": "s", "kernel": "k<64>", "launch": null}, "candidate": {"source": "t", "kernel": "k<128>"}, "speedup": 1})" +
      "\r\n";
  auto pairs = parse_labelled_pairs(text, "pairs.jsonl");
  REQUIRE(pairs.has_value());
  REQUIRE(pairs->size() == 2);
  const LabelledPair& p = (*pairs)[0];
  CHECK(p.id == "p1");
  CHECK(p.family == "gemv");
  CHECK(p.hardware == "H100");
  CHECK(p.reference.kernel == "a");
  REQUIRE(p.reference.launch.has_value());
  CHECK(p.reference.launch->grid == std::array<std::int64_t, 3>{128, 2, 1});
  CHECK(p.reference.launch->block == std::array<std::int64_t, 3>{256, 1, 1});
  CHECK(p.reference.launch->shared_bytes == 1024);
  CHECK_FALSE(p.candidate.launch.has_value());
  CHECK(p.speedup == 2.31);
  CHECK(p.line == 1);
  const LabelledPair& q = (*pairs)[1];
  CHECK(q.id == "line 3");  // no id: the line names it
  CHECK(q.line == 3);
  CHECK(q.speedup == 1.0);  // an integer is a number
  CHECK_FALSE(q.reference.launch.has_value());
}

TEST_CASE("embedded: bad labelled pairs are errors that name the line and the field") {
  CHECK(error_of("{").starts_with("pairs.jsonl:1: not JSON"));
  CHECK(error_of("[1, 2]") ==
        "pairs.jsonl:1: a line must be one JSON object; each line must be one labelled pair (`kforecast help eval` gives the fields)");
  CHECK(error_of("\n{}").starts_with("pairs.jsonl:2: \"reference\" is missing or not an object"));
  CHECK(error_of(R"({"reference": {"kernel": "a"}, "candidate": {}})")
            .starts_with("pairs.jsonl:1: reference.\"source\" is missing"));
  CHECK(error_of(R"({"reference": {"source": "s", "kernel": ""}, "candidate": {}})")
            .starts_with("pairs.jsonl:1: reference.\"kernel\" is empty"));
  CHECK(error_of(R"({"reference": {"source": 1, "kernel": "a"}, "candidate": {}})")
            .starts_with("pairs.jsonl:1: reference.\"source\" must be a string"));
  const std::string pair = R"("reference": {"source": "s", "kernel": "a"}, "candidate": {"source": "s", "kernel": "b")";
  CHECK(error_of("{" + pair + "}}").starts_with("pairs.jsonl:1: \"speedup\" is missing"));
  CHECK(
      error_of("{" + pair + "}, \"speedup\": 0}").starts_with("pairs.jsonl:1: \"speedup\" must be a positive number"));
  CHECK(error_of("{" + pair + "}, \"speedup\": \"2\"}").starts_with("pairs.jsonl:1: \"speedup\" must be a number"));
  CHECK(error_of("{" + pair + ", \"launch\": {\"grid\": [0], \"block\": [1]}}, \"speedup\": 1}")
            .starts_with("pairs.jsonl:1: candidate.launch.grid must be an array of 1 to 3 positive integers"));
  CHECK(error_of("{" + pair + ", \"launch\": {\"grid\": [1]}}, \"speedup\": 1}")
            .starts_with("pairs.jsonl:1: candidate.launch needs \"grid\" and \"block\""));
  CHECK(error_of("{" + pair + ", \"launch\": {\"grid\": [1], \"block\": [1,1,1,1]}}, \"speedup\": 1}")
            .starts_with("pairs.jsonl:1: candidate.launch.block must be an array"));
}

TEST_CASE("embedded: an empty dataset is no pairs") {
  auto pairs = parse_labelled_pairs("\n  \n", "empty.jsonl");
  REQUIRE(pairs.has_value());
  CHECK(pairs->empty());
}
