// SPDX-License-Identifier: Apache-2.0
// Benchmark: kforecast's JSON readers on realistic files, each read many times through the real
// reader (parse and field checks together, as kforecast runs them): a 20,000-line ledger (a
// repository measured for months), the plan and shard results a CI job hands on, a capture file,
// and a Google Benchmark JSON of 2,000 entries. Prints, per file, the median over rounds of MB/s
// and µs per file in process CPU time (the machine is shared; wall time is printed beside it).
// Reading the files and building the large ones is not timed.
//
// Usage: json_read_bench [ROUNDS=7] [SECONDS_PER_ROUND=0.3]

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "plan/plan_file.hpp"
#include "plan/shard_results.hpp"
#include "harness/benchmark_output.hpp"
#include "policy/ledger.hpp"

namespace {

std::string fixture(const char* relative) {
  const std::string path = std::string(KF_SOURCE_DIR) + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "json_read_bench: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The sample ledger's lines again and again, each with its own kernel name, to `lines` lines.
std::string large_ledger(std::size_t lines) {
  std::vector<std::string> sample;
  std::istringstream in(fixture("fixtures/fuzz/ledger/sample.jsonl"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) sample.push_back(line);
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    std::string line = sample[i % sample.size()];
    const std::size_t at = line.find("\"kernel\": \"");
    if (at != std::string::npos) line.insert(at + 11, "k" + std::to_string(i) + "_");
    text += line;
    text += '\n';
  }
  return text;
}

// Google Benchmark's --benchmark_format=json for `families` benchmarks of 4 repetitions each.
std::string large_gbench(int families) {
  std::string text = R"({"context": {"date": "2026-11-26T10:00:00+00:00", "host_name": "ci", "executable": "./bench",)"
                     R"( "num_cpus": 2, "mhz_per_cpu": 2450, "cpu_scaling_enabled": false, "caches": [],)"
                     R"( "load_avg": [0.5, 0.4, 0.3], "library_build_type": "release"}, "benchmarks": [)";
  for (int family = 0; family < families; ++family)
    for (int rep = 0; rep < 4; ++rep) {
      if (family + rep > 0) text += ",\n";
      const std::string name = "BM_Gemm<float, " + std::to_string(family) + ">/1024/real_time";
      text += "{\"name\": \"" + name + "\", \"family_index\": " + std::to_string(family) +
              ", \"per_family_instance_index\": 0, \"run_name\": \"" + name +
              "\", \"run_type\": \"iteration\", \"repetitions\": 4, \"repetition_index\": " + std::to_string(rep) +
              ", \"threads\": 1, \"iterations\": 1203, \"real_time\": " + std::to_string(581234.5 + family * 13 + rep) +
              ", \"cpu_time\": " + std::to_string(2231.25 + rep) +
              ", \"time_unit\": \"ns\", \"bytes_per_second\": 1.8273645e+10, \"items_per_second\": 3.5e+06}";
    }
  return text + "]}\n";
}

// A plan of a pull request touching 60 kernels in 12 files, 40 of them to measure, each file a
// few KB of CUDA: what `pr --plan` writes for a large change.
std::string large_plan() {
  namespace kf = kforecast;
  kf::plan::Plan plan;
  plan.kforecast_version = "0.1.0";
  plan.config_name = "abc:.kforecast.toml";
  plan.config_text = "[policy]\nmax_p_regression = 0.2\n[bench]\ntolerance = 0.02\n";
  plan.ledger = "/repo/.kforecast/ledger.jsonl";
  plan.shards = 4;
  plan.report = {"0.1.0", std::string(40, 'a'),  std::string(40, 'b'), kf::report::GateVerdict::pass,
                 {},      {"revisions: --base"}, std::nullopt};
  std::string cuda;
  for (int line = 0; line < 120; ++line)
    cuda += "  acc += As[ty][k] * Bs[k][tx];  // tile " + std::to_string(line) + " \"quoted\" \t\n";
  for (int k = 0; k < 60; ++k) {
    kf::report::ForecastEntry f;
    f.forecaster = "embedded";
    f.model = "ordinal-v1";
    f.bin = 4;
    f.bin_label = "minor slowdown";
    f.probabilities = {0.1, 0.2, 0.30000000000000004, 1.0 / 3, 0.01, 0.02, 0.03, 1e-17};
    f.confidence = 1.0 / 3;
    f.p_regression = 0.7000000000000001;
    f.rationale = "the inner loop now reads B with a stride; line two";
    const std::string file = "src/kernels/file" + std::to_string(k % 12) + ".cu";
    plan.report.kernels.push_back({"sgemm_" + std::to_string(k) + "<float, 4>",
                                   file,
                                   static_cast<std::uint32_t>(10 + k),
                                   kf::report::Change::modified,
                                   kf::report::Decision::forecast_only,
                                   kf::report::KernelVerdict::warn,
                                   {"needs a GPU measurement"},
                                   f,
                                   std::nullopt,
                                   false});
    if (k < 40) {
      plan.to_measure.push_back(static_cast<std::size_t>(k));
      plan.jobs.push_back({static_cast<std::size_t>(k),
                           true,
                           {file, "sgemm", {{file, "// base\n" + cuda}, {"src/common.cuh", "#define TILE 16\n"}}},
                           {file, "sgemm", {{file, "// head\n" + cuda}, {"src/common.cuh", "#define TILE 16\n"}}}});
    }
  }
  return kf::plan::plan_json(plan);
}

double process_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct Case {
  const char* name;
  std::string text;
  std::function<bool(const std::string&)> read;  // true when the reader accepted the file
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  namespace kf = kforecast;
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  const double seconds_per_round = argc > 2 ? std::atof(argv[2]) : 0.3;

  std::vector<Case> cases;
  cases.push_back({"ledger, 20000 lines", large_ledger(20000),
                   [](const std::string& text) { return kf::policy::parse_ledger(text, "ledger.jsonl").has_value(); }});
  cases.push_back({"plan, 60 kernels", large_plan(),
                   [](const std::string& text) { return kf::plan::parse_plan_json(text, "plan.json").has_value(); }});
  cases.push_back({"shard results", fixture("fixtures/fuzz/shard_results/measured.json"), [](const std::string& text) {
                     return kf::plan::parse_results_json(text, "results.json").has_value();
                   }});
  cases.push_back(
      {"capture file", fixture("fixtures/fuzz/capture_file/design_example.json"),
       [](const std::string& text) { return kf::capture::parse_capture_json(text, "capture.json").has_value(); }});
  cases.push_back({"gbench JSON, 8000 entries", large_gbench(2000), [](const std::string& text) {
                     return kf::harness::parse_gbench_json(text, "bench.json").has_value();
                   }});

  std::printf("%-28s %10s %10s %12s %12s %10s\n", "file", "bytes", "CPU MB/s", "CPU us/file", "wall us/file", "reads");
  for (const Case& c : cases) {
    if (!c.read(c.text)) {
      std::fprintf(stderr, "json_read_bench: the reader rejected '%s'\n", c.name);
      std::fflush(stdout);
      return 1;
    }
    std::vector<double> cpu_per_file, wall_per_file;
    long reads = 0;
    for (int round = 0; round < rounds; ++round) {
      const double cpu_start = process_seconds();
      const auto wall_start = std::chrono::steady_clock::now();
      long n = 0;
      while (n < 3 || process_seconds() - cpu_start < seconds_per_round) {
        if (!c.read(c.text)) return 1;
        ++n;
      }
      const double cpu = process_seconds() - cpu_start;
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
      cpu_per_file.push_back(cpu / static_cast<double>(n));
      wall_per_file.push_back(wall / static_cast<double>(n));
      reads += n;
    }
    const double cpu_s = median(cpu_per_file);
    std::printf("%-28s %10zu %10.1f %12.2f %12.2f %10ld\n", c.name, c.text.size(),
                static_cast<double>(c.text.size()) / cpu_s / 1e6, cpu_s * 1e6, median(wall_per_file) * 1e6, reads);
  }
  std::printf("(median of %d rounds of >= %.2f s CPU each; process CPU time, wall time beside it)\n", rounds,
              seconds_per_round);
  return 0;
}
