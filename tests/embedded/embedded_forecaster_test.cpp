// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "embedded/corpus_source.hpp"
#include "embedded/embedded_forecaster.hpp"

using namespace kforecast;
using namespace kforecast::embedded;
using kforecast::embedded::testing::corpus_source;

TEST_CASE("embedded: forecasting a corpus pair with the compiled-in prior, without NVRTC") {
  FeatureCache cache({.compiler = nullptr, .arch = "sm_90", .gpu = *find_gpu("H100")});
  const KernelText naive{corpus_source("gemv", "thread_per_row"), "gemv_thread_per_row",
                         LaunchGeometry{{32, 1, 1}, {256, 1, 1}, 0}};
  const KernelText warp{corpus_source("gemv", "warp_vectorized"), "gemv_warp_vectorized",
                        LaunchGeometry{{1024, 1, 1}, {256, 1, 1}, 0}};
  const auto forecast = forecast_pair(default_model(), cache, naive, warp);
  CHECK(forecast.reference.source);
  CHECK(forecast.candidate.launch);
  CHECK(forecast.candidate[Feature::vector_accesses] > 0);
  // The prior moves nothing: the distribution is the prior's, flattened by a quarter towards
  // uniform for the missing NVRTC facts; the rationale says so and names what changed and what
  // was not known.
  CHECK(forecast.distribution.max_probability() == Approx(0.75 * 0.26 + 0.25 / 8).margin(1e-3));
  CHECK(forecast.distribution.predicted_bin() == forecast::SpeedupBin::minor_slowdown);
  CHECK(forecast.rationale.starts_with("embedded model untrained"));
  CHECK(forecast.rationale.find("largest changes: ") != std::string::npos);
  CHECK(forecast.rationale.find("no NVRTC facts") != std::string::npos);
  CHECK(forecast.rationale.find("no launch spec") == std::string::npos);
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
