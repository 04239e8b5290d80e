// SPDX-License-Identifier: Apache-2.0
// The batch file and the results lines a parent and its measuring child exchange: written and
// read back the same, and a results file from a child that ran code under review read as
// untrusted (a bad line is an error naming it; a line cut short by a crash is not a result).
#include "measure/batch_protocol.hpp"

#include <catch2/catch.hpp>

#include "support/gate_fakes.hpp"

using namespace kforecast;
using Catch::Matchers::Contains;

TEST_CASE("batch protocol: pairs are written and read back with every field") {
  const std::vector<measure::BenchPair> pairs{
      {"/tmp/x/0/head/a.cu:k", "/tmp/x/0/base/a.cu:k", "", "/tmp/x/0/project-build.json", ""},
      {"/tmp/x/1/head/b \"q\".cu:scale<float>", "/tmp/x/1/base/b.cu:scale<float>", "HEAD~1", "", "caps/scale"}};
  auto read = measure::parse_batch_file(measure::batch_file_json(pairs));
  REQUIRE(read.has_value());
  REQUIRE(read->size() == 2);
  CHECK((*read)[0].project_build == "/tmp/x/0/project-build.json");
  CHECK((*read)[1].candidate == "/tmp/x/1/head/b \"q\".cu:scale<float>");
  CHECK((*read)[1].against == "HEAD~1");
  CHECK((*read)[1].capture == "caps/scale");
}

TEST_CASE("batch protocol: a batch file that is not one is an error that says what is wrong") {
  CHECK_THAT(measure::parse_batch_file("[").error().message, Contains("not JSON"));
  CHECK_THAT(measure::parse_batch_file("{}").error().message, Contains("no \"pairs\" array"));
  CHECK_THAT(measure::parse_batch_file(R"({"pairs": [{"candidate": "a.cu:k"}]})").error().message,
             Contains("pairs[0] has no string \"versus\""));
  CHECK_THAT(measure::parse_batch_file(
                 R"({"pairs": [{"candidate": "", "versus": "", "against": "", "project_build": "", "capture": ""}]})")
                 .error()
                 .message,
             Contains("names no candidate"));
}

TEST_CASE("batch protocol: every kind of result line is read back") {
  auto measurement = test::measured(bench::Verdict::same, 1.01, 0.05);
  measurement.notes = {"a note\nover two lines"};
  std::string text;
  text += measure::batch_result_line({0, 0.75, measurement}) + "\n";
  text += measure::batch_result_line({1, 0.01, measure::BatchError{"no launch spec", 2}}) + "\n";
  text += measure::batch_result_line({2, 0, measure::BatchSkipped{"the GPU budget was spent"}}) + "\n";
  CHECK(text.find("\n") == text.find("}\n") + 1);  // one line per result
  auto results = measure::parse_batch_results(text);
  REQUIRE(results.has_value());
  REQUIRE(results->size() == 3);
  const auto& first = std::get<bench::Measurement>((*results)[0].outcome);
  CHECK((*results)[0].seconds == Approx(0.75));
  CHECK(first.verdict == bench::Verdict::same);
  CHECK(first.notes == measurement.notes);
  CHECK(std::get<measure::BatchError>((*results)[1].outcome).message == "no launch spec");
  CHECK((*results)[2].index == 2);
  CHECK(std::get<measure::BatchSkipped>((*results)[2].outcome).reason == "the GPU budget was spent");
}

TEST_CASE("batch protocol: a line cut short is not a result, and a bad line is an error naming it") {
  const std::string whole = measure::batch_result_line({0, 0.5, measure::BatchError{"x", 2}}) + "\n";
  auto cut = measure::parse_batch_results(whole + whole.substr(0, 20));
  REQUIRE(cut.has_value());
  CHECK(cut->size() == 1);
  CHECK_THAT(measure::parse_batch_results(whole + "{\"index\": 1}\n").error().message,
             Contains("line 2") && Contains("neither"));
  CHECK_THAT(measure::parse_batch_results("{\"seconds\": 1}\n").error().message, Contains("no \"index\""));
  CHECK_THAT(measure::parse_batch_results("{\"index\": 0, \"seconds\": -1, \"skipped\": \"\"}\n").error().message,
             Contains("not a duration"));
  CHECK_THAT(measure::parse_batch_results("{\"index\": 0, \"measurement\": {\"verdict\": 7}}\n").error().message,
             Contains("line 1"));
}
