// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "embedded/corpus_source.hpp"
#include "embedded/pair_forecast.hpp"

using namespace kforecast;
using namespace kforecast::embedded;
using kforecast::embedded::testing::corpus_source;

TEST_CASE("embedded: the compiled-in model forecasts a corpus pair both ways, without NVRTC") {
  // Measured on the H100: warp_vectorized is 12.3x faster than thread_per_row (uncoalesced).
  FeatureCache cache({.compiler = nullptr, .arch = "sm_90", .gpu = *find_gpu("H100")});
  const KernelText naive{corpus_source("gemv", "thread_per_row"), "gemv_thread_per_row",
                         LaunchGeometry{{32, 1, 1}, {256, 1, 1}, 0}};
  const KernelText warp{corpus_source("gemv", "warp_vectorized"), "gemv_warp_vectorized",
                        LaunchGeometry{{1024, 1, 1}, {256, 1, 1}, 0}};
  const auto forward = forecast_pair(default_model(), cache, naive, warp);
  const auto backward = forecast_pair(default_model(), cache, warp, naive);
  CHECK(forward.reference.source);
  CHECK(forward.candidate.launch);
  CHECK(forward.candidate[Feature::vector_accesses] > 0);
  INFO(forward.rationale);
  CHECK(forward.distribution.p_regression(0.0) < 0.5);
  CHECK(backward.distribution.p_regression(0.0) > 0.5);
  CHECK(forecast::bin_number(forward.distribution.predicted_bin()) >= 5);
  CHECK(forecast::bin_number(backward.distribution.predicted_bin()) <= 4);
  // A trained model's rationale names what moved it, and what it did not know.
  CHECK_FALSE(forward.rationale.starts_with("embedded model untrained"));
  CHECK((forward.rationale.find("(faster)") != std::string::npos ||
         forward.rationale.find("(slower)") != std::string::npos));
  CHECK(forward.rationale.find("no NVRTC facts") != std::string::npos);
  CHECK(forward.rationale.find("no launch spec") == std::string::npos);
}

TEST_CASE("embedded: a kernel missing from its source is still forecast, wider, and the rationale says why") {
  OrdinalModel model = default_model();
  model.missing_group_mix = 0.5;
  FeatureCache cache({.compiler = nullptr, .arch = "sm_90", .gpu = *find_gpu("H100")});
  const KernelText present{corpus_source("scan", "warp_shuffle"), "scan_warp_shuffle", std::nullopt};
  const KernelText missing{"this is not CUDA {{{", "scan_warp_shuffle", std::nullopt};
  const auto known = forecast_pair(model, cache, present, present);
  const auto unknown = forecast_pair(model, cache, present, missing);
  CHECK(unknown.distribution.max_probability() < known.distribution.max_probability());
  CHECK(unknown.rationale.find("kernel not found in its source") != std::string::npos);
}
