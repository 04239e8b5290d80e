// SPDX-License-Identifier: Apache-2.0
#include "bench/measurement.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "base/json_string.hpp"
#include "forecast/speedup_bin.hpp"

namespace kforecast::bench {
namespace {

// JSON has no infinity: an unbounded interval edge is null.
std::string number(double value, int digits = 6) {
  if (!std::isfinite(value)) return "null";
  return fmt::format("{:.{}g}", value, digits);
}

std::optional<Verdict> verdict_from(std::string_view name) {
  for (Verdict verdict : {Verdict::faster, Verdict::same, Verdict::regression, Verdict::inconclusive, Verdict::failed})
    if (verdict_name(verdict) == name) return verdict;
  return std::nullopt;
}

}  // namespace

std::string_view blame_name(Blame blame) { return blame == Blame::reference ? "reference" : "candidate"; }

int measurement_bin(double speedup) {
  auto bin = forecast::bin_from_speedup(speedup > 0 && std::isfinite(speedup) ? speedup : 1.0);
  return bin ? forecast::bin_number(*bin) : 0;
}

Measurement failed_measurement(std::string reason, std::string gpu) {
  Measurement measurement;
  measurement.verdict = Verdict::failed;
  measurement.reason = std::move(reason);
  measurement.gpu = std::move(gpu);
  measurement.interval = {0, 0, 0, 0};
  return measurement;
}

std::string measurement_json(const Measurement& m, Detail detail) {
  const bool timed = m.interval.speedup > 0;
  std::string json = fmt::format(
      "{{\"speedup\": {}, \"ci_low\": {}, \"ci_high\": {}, \"bin\": {}, \"verdict\": \"{}\", \"t_base_us\": {}, "
      "\"t_head_us\": {}, \"gpu\": {}, \"gpu_seconds\": {}",
      timed ? number(m.interval.speedup) : "null", timed ? number(m.interval.low) : "null",
      timed ? number(m.interval.high) : "null", timed ? std::to_string(measurement_bin(m.interval.speedup)) : "null",
      verdict_name(m.verdict), timed ? number(m.t_base_us) : "null", timed ? number(m.t_head_us) : "null",
      json_string(m.gpu), number(m.gpu_seconds, 4));
  if (detail == Detail::design) return json + "}";
  json += fmt::format(
      ", \"reason\": {}, \"blame\": {}, \"tolerance\": {}, \"confidence\": {}, \"rounds\": {}, \"driver\": {}, "
      "\"flush\": {}, \"sm_clock_median_mhz\": {}, \"sm_clock_min_mhz\": {}, \"throttle_reasons\": {}, "
      "\"regression_checks\": {}, \"wall_seconds\": {}",
      json_string(m.reason), m.verdict == Verdict::failed ? json_string(blame_name(m.blame)) : "null", number(m.tolerance), number(m.confidence), m.interval.rounds, json_string(m.driver),
      json_string(m.flush), m.sm_clock_median_mhz, m.sm_clock_min_mhz, m.throttle_reasons, m.regression_checks,
      number(m.wall_seconds, 4));
  json += ", \"notes\": [";
  for (std::size_t i = 0; i < m.notes.size(); ++i) json += (i ? ", " : "") + json_string(m.notes[i]);
  json += "], \"sizes\": [";
  for (std::size_t i = 0; i < m.sizes.size(); ++i) {
    const auto& s = m.sizes[i];
    // A failed size was never timed: no speedup, interval or times, whatever the struct holds.
    const bool size_timed = s.verdict != Verdict::failed;
    const auto timed_number = [&](double value) { return size_timed ? number(value) : std::string("null"); };
    json += fmt::format(
        "{}{{\"size\": {}, \"verdict\": \"{}\", \"speedup\": {}, \"ci_low\": {}, \"ci_high\": {}, \"t_base_us\": {}, "
        "\"t_head_us\": {}, \"batch\": {}, \"samples_per_block\": {}, \"redone_blocks\": {}, \"round_log_speedups\": [",
        i ? ", " : "", json_string(s.size), verdict_name(s.verdict), timed_number(s.interval.speedup),
        timed_number(s.interval.low), timed_number(s.interval.high), timed_number(s.t_reference_us),
        timed_number(s.t_candidate_us), s.batch, s.samples_per_block,
        s.redone_blocks);
    for (std::size_t r = 0; r < s.round_log_speedups.size(); ++r)
      json += (r ? ", " : "") + number(s.round_log_speedups[r], 8);
    json += "], \"block_sm_mhz\": [";
    for (std::size_t b = 0; b < s.block_clocks.size(); ++b)
      json += (b ? ", " : "") + std::to_string(s.block_clocks[b].sm_mhz);
    json += "], \"block_throttle_reasons\": [";
    for (std::size_t b = 0; b < s.block_clocks.size(); ++b)
      json += (b ? ", " : "") + std::to_string(s.block_clocks[b].throttle_reasons);
    json += "], \"block_samples_us\": [";
    for (std::size_t b = 0; b < s.block_samples_us.size(); ++b) {
      json += b ? ", [" : "[";
      for (std::size_t k = 0; k < s.block_samples_us[b].size(); ++k)
        json += (k ? ", " : "") + number(s.block_samples_us[b][k]);
      json += "]";
    }
    json += "], \"checks\": [";
    for (std::size_t c = 0; c < s.checks.size(); ++c) json += (c ? ", " : "") + json_string(s.checks[c]);
    json += "]}";
  }
  return json + "]}";
}

// The numbers of a JSON array (integers too); anything else in it, or a non-array, is skipped.
std::vector<double> numbers_of(const Json& element) {
  std::vector<double> numbers;
  if (!element.is_array()) return numbers;
  for (const Json& item : element)
    if (item.is_number()) numbers.push_back(item.get<double>());
  return numbers;
}

// The same for a field looked up by name: one that is missing has no numbers.
std::vector<double> numbers_of(const Json& object, std::string_view key) {
  const Json* element = json_document::find(object, key);
  return element != nullptr ? numbers_of(*element) : std::vector<double>();
}

Result<Measurement> parse_measurement_json(std::string_view text) {
  const auto document = json_document::parse(text);
  if (!document) return fail(ExitCode::could_not_run, "the measurement process wrote no JSON result");
  const Json& root = *document;
  Measurement m;
  const auto real = [&](const char* key, double fallback) {
    return json_document::number_at(root, key).value_or(fallback);
  };
  const auto text_of = [&](const char* key) {
    const std::string* value = json_document::string_at(root, key);
    return value != nullptr ? *value : std::string();
  };
  auto verdict = verdict_from(text_of("verdict"));
  if (!verdict) return fail(ExitCode::could_not_run, "the measurement process's result has no valid verdict");
  m.verdict = *verdict;
  m.interval.speedup = real("speedup", 0);
  m.interval.low = real("ci_low", 0);
  m.interval.high = real("ci_high", 0);
  m.interval.rounds = static_cast<int>(real("rounds", 0));
  m.t_base_us = real("t_base_us", 0);
  m.t_head_us = real("t_head_us", 0);
  m.gpu = text_of("gpu");
  m.gpu_seconds = real("gpu_seconds", 0);
  m.wall_seconds = real("wall_seconds", 0);
  m.reason = text_of("reason");
  if (text_of("blame") == blame_name(Blame::reference)) m.blame = Blame::reference;
  m.tolerance = real("tolerance", 0.02);
  m.confidence = real("confidence", 0.99);
  m.driver = text_of("driver");
  m.flush = text_of("flush");
  m.sm_clock_median_mhz = static_cast<unsigned>(real("sm_clock_median_mhz", 0));
  m.sm_clock_min_mhz = static_cast<unsigned>(real("sm_clock_min_mhz", 0));
  m.throttle_reasons = static_cast<std::uint64_t>(real("throttle_reasons", 0));
  m.regression_checks = static_cast<int>(real("regression_checks", 1));
  if (const Json* notes = json_document::array_at(root, "notes"))
    for (const Json& note : *notes)
      if (note.is_string()) m.notes.push_back(note.get<std::string>());
  if (const Json* sizes = json_document::array_at(root, "sizes"))
    for (const Json& size : *sizes) {
      SizeMeasurement s;
      s.interval = {0, 0, 0, 0};  // null where the size was not timed
      if (const std::string* value = json_document::string_at(size, "size")) s.size = *value;
      if (const std::string* value = json_document::string_at(size, "verdict"))
        s.verdict = verdict_from(*value).value_or(Verdict::failed);
      for (const auto& [key, field] : {std::pair{"speedup", &s.interval.speedup}, std::pair{"ci_low", &s.interval.low},
                                       std::pair{"ci_high", &s.interval.high}, std::pair{"t_base_us", &s.t_reference_us},
                                       std::pair{"t_head_us", &s.t_candidate_us}})
        if (const auto d = json_document::number_at(size, key)) *field = *d;
      for (const auto& [key, field] : {std::pair{"batch", &s.batch}, std::pair{"samples_per_block", &s.samples_per_block},
                                       std::pair{"redone_blocks", &s.redone_blocks}})
        if (const auto n = json_document::int64_at(size, key)) *field = static_cast<int>(*n);
      s.round_log_speedups = numbers_of(size, "round_log_speedups");
      s.interval.rounds = static_cast<int>(s.round_log_speedups.size());
      const auto clocks = numbers_of(size, "block_sm_mhz");
      const auto throttles = numbers_of(size, "block_throttle_reasons");
      for (std::size_t b = 0; b < clocks.size(); ++b)
        s.block_clocks.push_back(
            {static_cast<unsigned>(clocks[b]), b < throttles.size() ? static_cast<std::uint64_t>(throttles[b]) : 0});
      if (const Json* blocks = json_document::array_at(size, "block_samples_us"))
        for (const Json& block : *blocks)
          if (block.is_array()) s.block_samples_us.push_back(numbers_of(block));
      if (const Json* checks = json_document::array_at(size, "checks"))
        for (const Json& check : *checks)
          if (check.is_string()) s.checks.push_back(check.get<std::string>());
      m.sizes.push_back(std::move(s));
    }
  return m;
}

}  // namespace kforecast::bench
