// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast bench`'s text output for one measured pair: verdict, reason, speedup and interval,
// times, each size, GPU, clocks, GPU time and notes. Whatever failed was never timed, so a
// failed measurement or size shows its failure and no speedup; a failure blamed on the reference
// says so in the verdict line.

#include <string>
#include <string_view>

#include "bench/measurement.hpp"

namespace kforecast::bench {

std::string measurement_text(const Measurement& m, std::string_view candidate, std::string_view reference);

}  // namespace kforecast::bench
