// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a benchmark program's output (the pull request's code wrote it), read in each of
// the four formats and both time fields. Any input gives times or an Error with a message; times
// are finite and above zero, and no benchmark comes back without one.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "harness/benchmark_output.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::harness;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const OutputFormat format :
       {OutputFormat::gbench, OutputFormat::nvbench, OutputFormat::pytest_benchmark, OutputFormat::simple})
    for (const TimeField time : {TimeField::real, TimeField::cpu}) {
      auto times = parse_benchmark_output(format, text, "fuzz.json", time);
      if (!times) {
        if (times.error().message.empty()) std::abort();
        continue;
      }
      for (const auto& benchmark : *times) {
        if (benchmark.seconds.empty()) std::abort();
        for (double seconds : benchmark.seconds)
          if (!std::isfinite(seconds) || seconds <= 0) std::abort();
      }
    }
  return 0;
}
