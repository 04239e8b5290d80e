// SPDX-License-Identifier: Apache-2.0
#include "llm/answer_validation.hpp"

#include <simdjson.h>

#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace kforecast::llm {

const std::array<std::string_view, 8> probability_fields{
    "p1_severe_slowdown", "p2_significant_slowdown", "p3_moderate_slowdown", "p4_minor_slowdown",
    "p5_minor_speedup",   "p6_significant_speedup",  "p7_high_speedup",      "p8_extreme_speedup"};

namespace {

Error invalid(std::string message) { return Error{std::move(message), ExitCode::could_not_run}; }

// A JSON number, or a string holding one (some models quote numbers). "NaN" and the like parse
// here and are rejected by the finiteness check, with a message that says so.
std::optional<double> number_of(simdjson::dom::element element) {
  double number = 0;
  if (element.get_double().get(number) == simdjson::SUCCESS) return number;
  std::int64_t integer = 0;
  if (element.get_int64().get(integer) == simdjson::SUCCESS) return static_cast<double>(integer);
  std::uint64_t unsigned_integer = 0;
  if (element.get_uint64().get(unsigned_integer) == simdjson::SUCCESS) return static_cast<double>(unsigned_integer);
  std::string_view text;
  if (element.get_string().get(text) == simdjson::SUCCESS && !text.empty() && text.size() < 64) {
    std::string copy(text);
    char* end = nullptr;
    const double parsed = std::strtod(copy.c_str(), &end);
    if (end != nullptr && *end == '\0') return parsed;
  }
  return std::nullopt;
}

}  // namespace

Result<ValidatedAnswer> validate_answer(std::string_view json_object) {
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(json_object.data(), json_object.size()).get_object().get(object) != simdjson::SUCCESS)
    return std::unexpected(invalid("the answer is not a JSON object"));

  std::array<double, 8> raw{};
  simdjson::dom::array list;
  if (object["probabilities"].get_array().get(list) == simdjson::SUCCESS) {
    if (list.size() != 8)
      return std::unexpected(invalid(fmt::format("'probabilities' has {} entries; it needs exactly 8", list.size())));
    std::size_t i = 0;
    for (simdjson::dom::element item : list) {
      auto value = number_of(item);
      if (!value) return std::unexpected(invalid(fmt::format("probability {} is not a number", i + 1)));
      raw[i++] = *value;
    }
  } else {
    std::vector<std::string_view> missing;
    for (std::size_t i = 0; i < 8; ++i) {
      simdjson::dom::element value;
      if (object[probability_fields[i]].get(value) != simdjson::SUCCESS &&
          object[fmt::format("p{}", i + 1)].get(value) != simdjson::SUCCESS) {
        missing.push_back(probability_fields[i]);
        continue;
      }
      auto number = number_of(value);
      if (!number) return std::unexpected(invalid(fmt::format("'{}' is not a number", probability_fields[i])));
      raw[i] = *number;
    }
    if (!missing.empty()) return std::unexpected(invalid(fmt::format("missing {}", fmt::join(missing, ", "))));
  }
  for (std::size_t i = 0; i < 8; ++i)
    if (!std::isfinite(raw[i]) || raw[i] < 0)
      return std::unexpected(invalid(
          fmt::format("'{}' is {}; each probability must be a finite number >= 0", probability_fields[i], raw[i])));
  auto distribution = forecast::BinDistribution::from_raw(raw, answer_sum_tolerance);
  if (!distribution) return std::unexpected(invalid(distribution.error().message));

  ValidatedAnswer answer{*distribution, std::nullopt, ""};
  simdjson::dom::element bin;
  if (object["predicted_bin"].get(bin) == simdjson::SUCCESS) {
    auto number = number_of(bin);
    if (!number || !std::isfinite(*number) || *number != std::floor(*number) || *number < 1 || *number > 8)
      return std::unexpected(invalid(fmt::format("'predicted_bin' is {}; it must be an integer from 1 to 8",
                                                 number ? fmt::format("{}", *number) : simdjson::minify(bin))));
    answer.stated_bin = static_cast<forecast::SpeedupBin>(static_cast<int>(*number));
  }
  std::string_view rationale;
  if (object["rationale"].get_string().get(rationale) == simdjson::SUCCESS) answer.rationale = rationale;
  return answer;
}

}  // namespace kforecast::llm
