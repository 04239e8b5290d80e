// SPDX-License-Identifier: Apache-2.0
#pragma once

// Finding and opening libcupti and libcuda from inside the user's program. The driver is already
// loaded (it loaded us); CUPTI ships with the toolkit, not the driver, so it is searched for.

#include <string>
#include <vector>

#include "capture/injection/capture_settings.hpp"
#include "capture/injection/cupti_api.hpp"

namespace kforecast::capture::injection {

// Where libcupti may be, in the order tried: KFORECAST_CAPTURE_CUPTI, the dynamic loader's search
// path (LD_LIBRARY_PATH, the ld.so cache: what a pip-installed or distribution CUPTI provides),
// then the toolkit's folders under CUDA_HOME, CUDA_PATH and /usr/local/cuda.
std::vector<std::string> cupti_candidates(const EnvironmentLookup& env);

struct LoadedApis {
  CuptiApi cupti;
  DriverApi driver;
  std::string problem;  // what could not be opened, and the fix; empty when both are ready
};

LoadedApis load_apis(const EnvironmentLookup& env);

}  // namespace kforecast::capture::injection
