// SPDX-License-Identifier: Apache-2.0
// An endpoint's response body is untrusted: any bytes must go through extraction and validation
// without a crash, a hang or a sanitizer report, and what validation accepts is a distribution.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "llm/answer_extraction.hpp"
#include "llm/answer_validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  auto check = [](std::string_view json) {
    auto valid = kforecast::llm::validate_answer(json);
    if (!valid) return;
    double sum = 0;
    for (double p : valid->distribution.probabilities()) {
      if (!(p >= 0 && p <= 1)) __builtin_trap();
      sum += p;
    }
    if (std::abs(sum - 1) > 1e-9) __builtin_trap();
  };
  if (auto answer = kforecast::llm::extract_answer(body, "report_speedup_forecast"); answer && answer->json)
    check(*answer->json);
  // The same bytes as a model's free text, and as an answer object directly.
  if (auto object = kforecast::llm::find_json_object(body)) check(*object);
  check(body);
  return 0;
}
