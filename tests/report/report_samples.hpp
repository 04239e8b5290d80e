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
