// SPDX-License-Identifier: Apache-2.0
#pragma once

// A repository whose head makes one kernel 8x slower: `settle` runs the same dependent loop 8
// times (the result is the same, the loop's fixed point 0.5, so the outputs agree) and has a
// launch spec; `nospec` also changed but has no spec, so it cannot be measured. The base's
// config makes the policy trust no forecast, so both go to the GPU.

#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "support/fixture_repo.hpp"

namespace kforecast::e2e {

inline std::string settle_source(bool slower) {
  const std::string loop =
      slower ? "  for (int rep = 0; rep < 8; ++rep)\n    for (int r = 0; r < 64; ++r) v = v * 0.5f + 0.25f;\n"
             : "  for (int r = 0; r < 64; ++r) v = v * 0.5f + 0.25f;\n";
  return "// kforecast:\n"
         "// sizes = [{ n = 4194304 }]\n"
         "// grid = [\"ceil_div(n, 256)\"]\n"
         "// block = [256]\n"
         "// [kernel.args]\n"
         "// x = { count = \"n\", init = \"uniform(-1, 1)\" }\n"
         "// y = { count = \"n\", role = \"out\" }\n"
         "// n = \"n\"\n"
         "__global__ void settle(const float* x, float* y, int n) {\n"
         "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i >= n) return;\n"
         "  float v = x[i];\n" +
         loop +
         "  y[i] = v;\n"
         "}\n\n"
         "__global__ void nospec(float* a) { a[0] = " +
         (slower ? "2.0f" : "1.0f") + "; }\n";
}

// Commits the base and the head; `config` is the base's .kforecast.toml after the [policy] lines
// that trust nothing.
inline void commit_slower_kernel(const testing::FixtureRepo& repo, const std::string& extra_config = "") {
  repo.write(".kforecast.toml", "[policy]\nmax_p_regression = 0.0\n" + extra_config);
  repo.write("src/settle.cu", settle_source(false));
  repo.commit("base");
  repo.write("src/settle.cu", settle_source(true));
  repo.commit("head: settle does its loop 8 times");
}

// What the GPU tests read back from a `--format json` report.
struct ReportKernels {
  std::string gate;                                           // the report's verdict
  std::map<std::string, std::string> summaries;               // name -> "decision verdict measured-verdict"
  std::map<std::string, std::pair<double, double>> measured;  // name -> (speedup, ci_high)
};

inline ReportKernels read_report_kernels(const std::string& json) {
  INFO(json);
  const auto report = nlohmann::json::parse(json, nullptr, false);
  REQUIRE(report.is_object());
  const auto text = [](const nlohmann::json& object, const char* key) {
    REQUIRE(object.contains(key));
    REQUIRE(object.at(key).is_string());
    return object.at(key).get<std::string>();
  };
  ReportKernels read;
  read.gate = text(report, "verdict");
  for (const auto& kernel : report.at("kernels")) {
    const std::string name = text(kernel, "name"), decision = text(kernel, "decision"),
                      kernel_verdict = text(kernel, "verdict");
    std::string measured = "-";
    if (!kernel.at("measurement").is_null()) {
      measured = text(kernel.at("measurement"), "verdict");
      // A failed measurement timed nothing: its speedup and interval are null, never a number.
      double speedup = 0, high = 0;
      if (measured == "failed") {
        CHECK(kernel.at("measurement").at("speedup").is_null());
        CHECK(kernel.at("measurement").at("ci_high").is_null());
      } else {
        REQUIRE(kernel.at("measurement").at("speedup").is_number());
        REQUIRE(kernel.at("measurement").at("ci_high").is_number());
        speedup = kernel.at("measurement").at("speedup").get<double>();
        high = kernel.at("measurement").at("ci_high").get<double>();
      }
      read.measured[std::string(name)] = {speedup, high};
    }
    read.summaries[std::string(name)] = fmt::format("{} {} {}", decision, kernel_verdict, measured);
  }
  return read;
}

}  // namespace kforecast::e2e
