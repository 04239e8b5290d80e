// SPDX-License-Identifier: Apache-2.0
// The readers of benchmark programs' output: the times of each format, and for bad output an
// Error that names the file and the field, never an empty success.
#include "harness/benchmark_output.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::harness;
using Catch::Matchers::Contains;
using kforecast::Result;

namespace {

std::string gbench_entry(const std::string& name, const std::string& real_time, const std::string& unit = "us") {
  return R"({"name": ")" + name + R"(", "run_name": ")" + name +
         R"(", "run_type": "iteration", "iterations": 10, "real_time": )" + real_time +
         R"(, "cpu_time": 2.0, "time_unit": ")" + unit + "\"}";
}

std::string error_of(const Result<std::vector<BenchmarkTimes>>& result) {
  REQUIRE_FALSE(result.has_value());
  return result.error().message;
}

}  // namespace

TEST_CASE("harness output: Google Benchmark JSON") {
  SECTION("each repetition's real time in its unit, aggregates left out") {
    const std::string text = R"({"context": {}, "benchmarks": [)" + gbench_entry("BM_A/64", "1500") + "," +
                             gbench_entry("BM_A/64", "1.5e3") + "," +
                             R"({"name": "BM_A/64_mean", "run_name": "BM_A/64", "run_type": "aggregate",
                                 "aggregate_name": "mean", "real_time": 99, "cpu_time": 99, "time_unit": "us"},
                                {"name": "BM_A/64_cv", "run_name": "BM_A/64", "run_type": "aggregate",
                                 "aggregate_name": "cv", "real_time": 0.01, "cpu_time": 0.01, "time_unit": "us"},)" +
                             gbench_entry("BM_B", "2", "ms") +
                             "]}";
    auto times = parse_benchmark_output(OutputFormat::gbench, text, "out.json");
    REQUIRE(times.has_value());
    REQUIRE(times->size() == 2);
    CHECK((*times)[0].name == "BM_A/64");
    REQUIRE((*times)[0].seconds.size() == 2);
    CHECK((*times)[0].seconds[0] == Approx(1.5e-3));
    CHECK((*times)[1].name == "BM_B");
    CHECK((*times)[1].seconds[0] == Approx(2e-3));
  }
  SECTION("the CPU time where asked") {
    auto times = parse_gbench_json(R"({"benchmarks": [)" + gbench_entry("BM_A", "1500") + "]}", "out.json",
                                   TimeField::cpu);
    REQUIRE(times.has_value());
    CHECK(times->front().seconds.front() == Approx(2e-6));
  }
  SECTION("only aggregates: the median stands for the run") {
    auto times = parse_gbench_json(R"({"benchmarks": [
        {"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 3, "cpu_time": 3, "time_unit": "ns"},
        {"name": "BM_A_median", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "median", "real_time": 2, "cpu_time": 2, "time_unit": "ns"}]})",
                                   "out.json");
    REQUIRE(times.has_value());
    CHECK(times->front().seconds == std::vector<double>{2e-9});
  }
  SECTION("bad output names the file and the field") {
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": [)" + gbench_entry("a", "1") + "," +
                                              gbench_entry("b", "1") + "," + gbench_entry("c", "1") + "," +
                                              gbench_entry("d", "\"fast\"") + "]}",
                                          "bench-out.json")),
               Contains("bench-out.json: benchmarks[3].real_time is a string, expected a number"));
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": [{"name": "a", "time_unit": "us"}]})", "o.json")),
               Contains("o.json: benchmarks[0].real_time is missing"));
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": [)" + gbench_entry("a", "0") + "]}", "o.json")),
               Contains("benchmarks[0].real_time is 0, expected a time above zero"));
    CHECK_THAT(error_of(parse_gbench_json(R"({"context": {}})", "o.json")), Contains("o.json: benchmarks is missing"));
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": {}})", "o.json")),
               Contains("benchmarks is an object, expected an array"));
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": [{"name": "a", "real_time": 1, "time_unit": "fortnights"}]})",
                                          "o.json")),
               Contains("benchmarks[0].time_unit is \"fortnights\", expected ns, us, ms or s"));
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": [{"name": "BM_A", "run_name": "BM_A",)", "o.json")),
               Contains("o.json: not valid JSON"));
    CHECK_THAT(error_of(parse_benchmark_output(OutputFormat::gbench, "", "o.json")), Contains("o.json: empty"));
  }
  SECTION("a benchmark that reported an error or was skipped is an error naming it") {
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": [{"name": "BM_A", "error_occurred": true,
                                              "error_message": "no input"}]})",
                                          "o.json")),
               Contains("o.json: benchmarks[0] (benchmark 'BM_A') reported an error: no input"));
    CHECK_THAT(error_of(parse_gbench_json(R"({"benchmarks": [{"name": "BM_A", "skipped": 2, "skip_message": "no GPU"}]})",
                                          "o.json")),
               Contains("benchmarks[0] (benchmark 'BM_A') was skipped: no GPU"));
  }
}

TEST_CASE("harness output: nvbench JSON") {
  const auto state = [](const std::string& name, const std::string& value, const std::string& tag) {
    return R"({"name": ")" + name + R"(", "is_skipped": false, "summaries": [{"tag": ")" + tag +
           R"(", "data": [{"name": "hint", "type": "string", "value": "duration"}, {"name": "value", "type": "float64", "value": )" +
           value + "}]}]}";
  };
  SECTION("each state's cold GPU mean, named BENCHMARK/STATE") {
    const std::string text = R"({"benchmarks": [{"name": "gemm", "states": [)" +
                             state("Device=0 N=1024", "\"1.25e-05\"", "nv/cold/time/gpu/mean") + "," +
                             state("Device=0 N=2048", "\"4e-05\"", "nv/batch/time/gpu/mean") + "]}]}";
    auto times = parse_benchmark_output(OutputFormat::nvbench, text, "nv.json");
    REQUIRE(times.has_value());
    REQUIRE(times->size() == 2);
    CHECK((*times)[0].name == "gemm/Device=0 N=1024");
    CHECK((*times)[0].seconds.front() == Approx(1.25e-5));
    CHECK((*times)[1].seconds.front() == Approx(4e-5));
  }
  SECTION("bad output names the field") {
    CHECK_THAT(error_of(parse_nvbench_json(R"({"benchmarks": [{"name": "g", "states": [)" +
                                               state("s", "\"soon\"", "nv/cold/time/gpu/mean") + "]}]}",
                                           "nv.json")),
               Contains("nv.json: benchmarks[0].states[0].summaries[0].data[1].value is \"soon\""));
    CHECK_THAT(error_of(parse_nvbench_json(R"({"benchmarks": [{"name": "g", "states": [)" +
                                               state("s", "\"1\"", "nv/cold/bw/global/bytes_per_second") + "]}]}",
                                           "nv.json")),
               Contains("benchmarks[0].states[0].summaries has no GPU time"));
    CHECK_THAT(error_of(parse_nvbench_json(R"({"benchmarks": [{"name": "g", "states": [{"name": "s",
                                               "is_skipped": true, "skip_reason": "too big"}]}]})",
                                           "nv.json")),
               Contains("benchmarks[0].states[0] ('g/s') was skipped: too big"));
    CHECK_THAT(error_of(parse_nvbench_json(R"({"benchmarks": [{"name": "g"}]})", "nv.json")),
               Contains("benchmarks[0].states is missing"));
  }
}

TEST_CASE("harness output: pytest-benchmark JSON") {
  SECTION("every round's time where saved, else the median") {
    auto times = parse_benchmark_output(OutputFormat::pytest_benchmark, R"({"benchmarks": [
        {"name": "test_a", "fullname": "tests/t.py::test_a", "stats": {"median": 0.5, "data": [0.4, 0.6]}},
        {"name": "test_b", "stats": {"median": 0.25}}]})",
                                        "pb.json");
    REQUIRE(times.has_value());
    CHECK((*times)[0].name == "tests/t.py::test_a");
    CHECK((*times)[0].seconds == std::vector<double>{0.4, 0.6});
    CHECK((*times)[1].seconds == std::vector<double>{0.25});
  }
  SECTION("bad output names the field") {
    CHECK_THAT(error_of(parse_pytest_benchmark_json(R"({"benchmarks": [{"name": "t", "stats": {}}]})", "pb.json")),
               Contains("pb.json: benchmarks[0].stats.median is missing"));
    CHECK_THAT(error_of(parse_pytest_benchmark_json(R"({"benchmarks": [{"name": "t", "stats": {"data": [1, "x"]}}]})",
                                                    "pb.json")),
               Contains("benchmarks[0].stats.data[1] is a string, expected a number"));
  }
}

TEST_CASE("harness output: the simple format") {
  SECTION("NAME<TAB>SECONDS lines, comments and blank lines skipped, repeated names gathered") {
    auto times = parse_benchmark_output(OutputFormat::simple, "# times\nscale\t0.5\n\nshift\t1e-3\r\nscale\t0.7\n",
                                        "out.txt");
    REQUIRE(times.has_value());
    REQUIRE(times->size() == 2);
    CHECK((*times)[0].seconds == std::vector<double>{0.5, 0.7});
    CHECK((*times)[1].seconds == std::vector<double>{1e-3});
  }
  SECTION("bad lines name the file and the line") {
    CHECK_THAT(error_of(parse_simple_output("a\t1\nb 2\n", "out.txt")),
               Contains("out.txt:2: no tab between the benchmark's name and its time"));
    CHECK_THAT(error_of(parse_simple_output("a\tquick\n", "out.txt")),
               Contains("out.txt:1: the time of 'a' is \"quick\", not a number of seconds"));
    CHECK_THAT(error_of(parse_simple_output("a\t-1\n", "out.txt")), Contains("expected seconds above zero"));
    CHECK_THAT(error_of(parse_simple_output("\t1\n", "out.txt")), Contains("the benchmark's name is empty"));
  }
}

TEST_CASE("harness output: format names") {
  CHECK(output_format("pytest-benchmark") == OutputFormat::pytest_benchmark);
  CHECK_FALSE(output_format("json").has_value());
  CHECK(format_name(OutputFormat::nvbench) == "nvbench");
}
