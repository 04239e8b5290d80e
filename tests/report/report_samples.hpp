// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sample report every writer's golden file is made from, and the golden-file check. To
// update the golden files after an intended change:
// KF_UPDATE_GOLDEN=1 build/release/tests/report/kf_report_tests

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "report/writer.hpp"

namespace kforecast::report {

inline Report sample_report() {
  Report report{"0.1.0",
                "1111111111111111111111111111111111111111",
                "2222222222222222222222222222222222222222",
                GateVerdict::pass,
                {},
                {"base and head from --base/--head"}};
  report.kernels.push_back({"sgemm_tiled<64, 64, 8>",
                            "src/gemm.cu",
                            42,
                            Change::modified,
                            Decision::identical_code,
                            KernelVerdict::pass,
                            {"machine code identical for sm_90"}});
  report.kernels.push_back({"softmax",
                            "src/softmax.cu",
                            7,
                            Change::added,
                            Decision::forecast_only,
                            KernelVerdict::warn,
                            {"no forecaster built yet"}});
  report.kernels.push_back({"evil|`name`<b>@team\"\\",
                            "dir with space/x.cu",
                            1,
                            Change::renamed,
                            Decision::forecast_only,
                            KernelVerdict::warn,
                            {"renamed from old_name", "line\nbreak <script> @team"}});
  report.kernels.push_back({"gone", "src/old.cu", 3, Change::removed, Decision::skipped, KernelVerdict::pass, {}});
  return report;
}

// Kernels the GPU measured (faster, a regression, a failed candidate, an inconclusive one), one
// left unverified, and the run's GPU time.
inline Report measured_report() {
  Report report{"0.1.0",
                "1111111111111111111111111111111111111111",
                "2222222222222222222222222222222222222222",
                GateVerdict::fail,
                {},
                {"base and head from --base/--head"}};
  const auto measured = [](std::string name, std::uint32_t line, KernelVerdict verdict, MeasurementEntry m) {
    KernelEntry entry{std::move(name), "src/k.cu", line, Change::modified, Decision::measured, verdict, {}};
    entry.measurement = std::move(m);
    return entry;
  };
  report.kernels.push_back(
      measured("faster_k", 10, KernelVerdict::pass,
               {1.031, 1.012, 1.049, 5, "faster", 118.2, 114.6, "NVIDIA H100 80GB HBM3", 4.1, "", false, 5.3}));
  report.kernels.push_back(
      measured("slower_k", 20, KernelVerdict::fail,
               {0.251, 0.248, 0.254, 2, "regression", 10, 39.8, "NVIDIA H100 80GB HBM3", 3.2, "", false, 6.9}));
  report.kernels.push_back(measured(
      "wrong_k", 30, KernelVerdict::fail,
      {0, 0, 0, 0, "failed", 0, 0, "NVIDIA H100 80GB HBM3", 0.6, "the candidate disagrees with the reference", false,
       1.4}));
  report.kernels.push_back(measured("unsure_k", 40, KernelVerdict::warn,
                                    {0.99, 0.97, 1.01, 4, "inconclusive", 50, 50.5, "NVIDIA H100 80GB HBM3", 30,
                                     "the GPU time cap (30.0 s) was reached", false, 31.2}));
  report.kernels.push_back({"nospec_k",
                            "src/k.cu",
                            50,
                            Change::modified,
                            Decision::forecast_only,
                            KernelVerdict::warn,
                            {"unverified: not measured: no launch spec (policy.on_unverified = warn)"}});
  report.gpu_time = GpuTime{37.9, 4, 20, 3.65, 3.65 * 20 - 37.9, "", "", 44.8};
  return report;
}

inline std::string read_golden(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void check_golden(const std::string& actual, const std::string& name) {
  const std::string path = std::string(KF_SOURCE_DIR) + "/fixtures/report/" + name;
  if (std::getenv("KF_UPDATE_GOLDEN") != nullptr) std::ofstream(path, std::ios::binary) << actual;
  INFO("golden file " << path);
  CHECK(actual == read_golden(path));
}

}  // namespace kforecast::report
