// SPDX-License-Identifier: Apache-2.0
#include "llm/answer_validation.hpp"

#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

namespace kforecast::llm {

const std::array<std::string_view, 8> probability_fields{
    "p1_severe_slowdown", "p2_significant_slowdown", "p3_moderate_slowdown", "p4_minor_slowdown",
    "p5_minor_speedup",   "p6_significant_speedup",  "p7_high_speedup",      "p8_extreme_speedup"};

namespace {

Error invalid(std::string message) { return Error{std::move(message), ExitCode::could_not_run}; }

// A JSON number, or a string holding one (some models quote numbers). "NaN" and the like parse
// here and are rejected by the finiteness check, with a message that says so.
std::optional<double> number_of(const Json& element) {
  if (element.is_number()) return element.get<double>();
  if (element.is_string() && !element.get_ref<const std::string&>().empty() &&
      element.get_ref<const std::string&>().size() < 64) {
    const std::string& copy = element.get_ref<const std::string&>();
    char* end = nullptr;
    const double parsed = std::strtod(copy.c_str(), &end);
    if (end != nullptr && *end == '\0') return parsed;
  }
  return std::nullopt;
}

}  // namespace

Result<ValidatedAnswer> validate_answer(std::string_view json_object) {
  const auto document = json_document::parse(json_object);
  if (!document || !document->is_object()) return std::unexpected(invalid("the answer is not a JSON object"));
  const Json& object = *document;

  std::array<double, 8> raw{};
  if (const Json* list = json_document::array_at(object, "probabilities")) {
    if (list->size() != 8)
      return std::unexpected(invalid(fmt::format("'probabilities' has {} entries; it needs exactly 8", list->size())));
    std::size_t i = 0;
    for (const Json& item : *list) {
      auto value = number_of(item);
      if (!value) return std::unexpected(invalid(fmt::format("probability {} is not a number", i + 1)));
      raw[i++] = *value;
    }
  } else {
    std::vector<std::string_view> missing;
    for (std::size_t i = 0; i < 8; ++i) {
      const Json* value = json_document::find(object, probability_fields[i]);
      if (value == nullptr) value = json_document::find(object, fmt::format("p{}", i + 1));
      if (value == nullptr) {
        missing.push_back(probability_fields[i]);
        continue;
      }
      auto number = number_of(*value);
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
  if (const Json* bin = json_document::find(object, "predicted_bin")) {
    auto number = number_of(*bin);
    if (!number || !std::isfinite(*number) || *number != std::floor(*number) || *number < 1 || *number > 8)
      return std::unexpected(invalid(fmt::format("'predicted_bin' is {}; it must be an integer from 1 to 8",
                                                 number ? fmt::format("{}", *number) : json_document::compact(*bin))));
    answer.stated_bin = static_cast<forecast::SpeedupBin>(static_cast<int>(*number));
  }
  if (const std::string* rationale = json_document::string_at(object, "rationale")) answer.rationale = *rationale;
  return answer;
}

}  // namespace kforecast::llm
