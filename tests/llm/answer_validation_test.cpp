// SPDX-License-Identifier: Apache-2.0
#include "llm/answer_validation.hpp"

#include <catch2/catch.hpp>

#include <fmt/format.h>

using namespace kforecast::llm;
using kforecast::forecast::SpeedupBin;

namespace {

std::string answer(std::array<std::string, 8> p, std::string bin = "5") {
  std::string text = R"({"rationale": "r")";
  for (std::size_t i = 0; i < 8; ++i)
    if (!p[i].empty()) text += fmt::format(", \"{}\": {}", probability_fields[i], p[i]);
  if (!bin.empty()) text += ", \"predicted_bin\": " + bin;
  return text + "}";
}

}  // namespace

TEST_CASE("llm: a valid answer, renormalised with its raw sum kept") {
  auto exact = validate_answer(answer({"0", "0", "0", "0.25", "0.5", "0.25", "0", "0"}));
  REQUIRE(exact);
  CHECK(exact->distribution.raw_sum() == Approx(1.0));
  CHECK(exact->stated_bin == SpeedupBin::minor_speedup);
  CHECK(exact->rationale == "r");

  for (double sum : {0.8, 1.2}) {
    INFO(sum);
    const double each = sum / 8;
    auto drifted = validate_answer(
        answer({fmt::format("{}", each), fmt::format("{}", each), fmt::format("{}", each), fmt::format("{}", each),
                fmt::format("{}", each), fmt::format("{}", each), fmt::format("{}", each), fmt::format("{}", each)}));
    REQUIRE(drifted);
    CHECK(drifted->distribution.raw_sum() == Approx(sum));
    CHECK(drifted->distribution.probability(SpeedupBin::minor_speedup) == Approx(0.125));
  }
}

TEST_CASE("llm: other answer shapes a plain prompt gets back") {
  auto array = validate_answer(R"({"probabilities": [0, 0, 0, 1, 0, 0, 0, 0], "predicted_bin": 4})");
  REQUIRE(array);
  CHECK(array->distribution.predicted_bin() == SpeedupBin::minor_slowdown);
  auto short_names = validate_answer(R"({"p1":0,"p2":0,"p3":0,"p4":0,"p5":"0.5","p6":0.5,"p7":0,"p8":0})");
  REQUIRE(short_names);
  CHECK_FALSE(short_names->stated_bin);
  CHECK(validate_answer(R"({"p1":0,"p2":0,"p3":0,"p4":0,"p5":1,"p6":0,"p7":0,"p8":0,"predicted_bin":5.0})"));
}

TEST_CASE("llm: invalid answers say exactly what to fix") {
  auto check = [](const std::string& text, const std::string& expected) {
    INFO(text);
    auto result = validate_answer(text);
    REQUIRE_FALSE(result);
    CHECK_THAT(result.error().message, Catch::Contains(expected));
  };
  check(answer({"0", "0", "0", "0.5", "0.5", "0", "", ""}), "missing p7_high_speedup, p8_extreme_speedup");
  check(answer({"0", "0", "0", "0.5", "0.5", "-0.1", "0.1", "0"}), "'p6_significant_speedup' is -0.1");
  check(answer({"0", "0", "0", "0.5", "0.5", "\"NaN\"", "0", "0"}), "'p6_significant_speedup' is nan");
  check(answer({"0", "0", "0", "0.5", "0.5", "\"lots\"", "0", "0"}), "'p6_significant_speedup' is not a number");
  check(answer({"0", "0", "0", "0.5", "0.5", "0.5", "0", "0"}), "sum to 1.5");
  check(answer({"0", "0", "0", "0", "0", "0", "0", "0"}), "sum to 0");
  check(answer({"0", "0", "0", "0.5", "0.5", "0", "0", "0"}, "9"), "'predicted_bin' is 9");
  check(answer({"0", "0", "0", "0.5", "0.5", "0", "0", "0"}, "0"), "'predicted_bin' is 0");
  check(answer({"0", "0", "0", "0.5", "0.5", "0", "0", "0"}, "4.5"), "'predicted_bin' is 4.5");
  check(answer({"0", "0", "0", "0.5", "0.5", "0", "0", "0"}, "\"five\""), "'predicted_bin' is \"five\"");
  check(R"({"probabilities": [0.5, 0.5]})", "needs exactly 8");
  check("[1, 2]", "not a JSON object");
  check(answer({"1e400", "0", "0", "0", "0", "0", "0", "0"}), "");
}
