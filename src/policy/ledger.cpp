// SPDX-License-Identifier: Apache-2.0
#include "policy/ledger.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "base/json_document.hpp"
#include "base/json_string.hpp"
#include "base/redaction.hpp"

namespace kforecast::policy {
namespace {

std::string number(double value) { return fmt::format("{:.6g}", value); }

// The optional string at `key` of `object`; an error when it is there but not a string.
Result<std::string> optional_string(const Json& object, std::string_view key, const std::string& where) {
  const Json* element = json_document::find(object, key);
  if (element == nullptr || element->is_null()) return std::string();
  if (!element->is_string()) return usage_error(fmt::format("{}: `{}` is not a string", where, key));
  return element->get<std::string>();
}

// The optional finite number at `key`; absent or null reads as nullopt.
Result<std::optional<double>> optional_number(const Json& object, std::string_view key, const std::string& where) {
  const Json* element = json_document::find(object, key);
  if (element == nullptr || element->is_null()) return std::optional<double>();
  const double value = element->is_number() ? element->get<double>() : NAN;
  if (!std::isfinite(value)) return usage_error(fmt::format("{}: `{}` must be a number or null", where, key));
  return std::optional<double>(value);
}

// A number for a line, null where absent or not finite (an interval from one round is infinite).
std::string optional_field(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? number(*value) : "null";
}

Result<LedgerEntry> parse_entry(std::string_view line, const std::string& where) {
  const auto root = json_document::parse(line);
  if (!root) return usage_error(fmt::format("{}: not JSON: {}", where, root.error()));
  if (!root->is_object()) return usage_error(fmt::format("{}: not a JSON object", where));
  const Json& object = *root;

  LedgerEntry entry;
  const std::array<std::pair<std::string_view, std::string*>, 12> strings{{
      {"kforecast", &entry.kforecast_version},
      {"recorded", &entry.recorded},
      {"base", &entry.base},
      {"head", &entry.head},
      {"kernel", &entry.kernel},
      {"file", &entry.file},
      {"hardware", &entry.hardware},
      {"reference_hash", &entry.reference_hash},
      {"candidate_hash", &entry.candidate_hash},
      {"forecaster", &entry.forecaster},
      {"model", &entry.model},
      {"forecaster_version", &entry.forecaster_version},
  }};
  for (const auto& [key, field] : strings) {
    auto value = optional_string(object, key, where);
    if (!value) return std::unexpected(value.error());
    *field = std::move(*value);
  }
  auto verdict = optional_string(object, "verdict", where);
  if (!verdict) return std::unexpected(verdict.error());
  entry.verdict = std::move(*verdict);

  const Json* probabilities = json_document::find(object, "probabilities");
  if (probabilities == nullptr || !probabilities->is_array())
    return usage_error(fmt::format("{}: `probabilities` must be an array of 8 numbers", where));
  std::vector<double> raw;
  for (const Json& value : *probabilities) {
    if (!value.is_number()) return usage_error(fmt::format("{}: `probabilities` must be an array of 8 numbers", where));
    raw.push_back(value.get<double>());
  }
  auto forecast = forecast::BinDistribution::from_raw(raw);
  if (!forecast) return usage_error(fmt::format("{}: `probabilities`: {}", where, forecast.error().message));
  entry.forecast = *forecast;

  for (const auto& [key, field] : std::array<std::pair<std::string_view, std::string*>, 2>{
           {{"driver", &entry.driver}, {"reason", &entry.reason}}}) {
    auto value = optional_string(object, key, where);
    if (!value) return std::unexpected(value.error());
    *field = std::move(*value);
  }
  for (const auto& [key, field] :
       std::array<std::pair<std::string_view, std::optional<double>*>, 5>{{{"ci_low", &entry.ci_low},
                                                                           {"ci_high", &entry.ci_high},
                                                                           {"confidence", &entry.confidence},
                                                                           {"tolerance", &entry.tolerance},
                                                                           {"gpu_seconds", &entry.gpu_seconds}}}) {
    auto value = optional_number(object, key, where);
    if (!value) return std::unexpected(value.error());
    *field = *value;
  }

  if (const Json* speedup = json_document::find(object, "speedup"); speedup != nullptr && !speedup->is_null()) {
    const double value = speedup->is_number() ? speedup->get<double>() : NAN;
    if (!std::isfinite(value) || value <= 0)
      return usage_error(fmt::format("{}: `speedup` must be a positive number or null", where));
    entry.speedup = value;
  }
  return entry;
}

}  // namespace

std::string ledger_line(const LedgerEntry& entry) {
  std::string probabilities;
  for (double p : entry.forecast.probabilities()) probabilities += (probabilities.empty() ? "" : ", ") + number(p);
  return fmt::format(
      "{{\"kforecast\": {}, \"recorded\": {}, \"base\": {}, \"head\": {}, \"kernel\": {}, \"file\": {}, "
      "\"hardware\": {}, \"reference_hash\": {}, \"candidate_hash\": {}, \"forecaster\": {}, \"model\": {}, "
      "\"forecaster_version\": {}, "
      "\"probabilities\": [{}], \"speedup\": {}, \"verdict\": {}, \"ci_low\": {}, \"ci_high\": {}, "
      "\"confidence\": {}, \"tolerance\": {}, \"gpu_seconds\": {}, \"driver\": {}, \"reason\": {}}}\n",
      json_string(entry.kforecast_version), json_string(entry.recorded), json_string(entry.base),
      json_string(entry.head), json_string(entry.kernel), json_string(entry.file), json_string(entry.hardware),
      json_string(entry.reference_hash), json_string(entry.candidate_hash), json_string(entry.forecaster),
      json_string(entry.model), json_string(entry.forecaster_version), probabilities,
      entry.speedup ? number(*entry.speedup) : "null", json_string(entry.verdict), optional_field(entry.ci_low),
      optional_field(entry.ci_high), optional_field(entry.confidence), optional_field(entry.tolerance),
      optional_field(entry.gpu_seconds), json_string(entry.driver), json_string(entry.reason));
}

Result<void> append_to_ledger(const std::filesystem::path& path, const LedgerEntry& entry) {
  std::error_code ignored;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ignored);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail(ExitCode::could_not_run,
                fmt::format("cannot open the ledger {}: {}", path.string(), std::strerror(errno)));
  const std::string line = redact_secrets(ledger_line(entry));
  const ssize_t written = ::write(fd, line.data(), line.size());
  const int write_errno = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(line.size()))
    return fail(ExitCode::could_not_run, fmt::format("cannot append to the ledger {}: {}", path.string(),
                                                     written < 0 ? std::strerror(write_errno) : "short write"));
  return {};
}

Result<LedgerReading> parse_ledger(std::string_view text, std::string_view source) {
  LedgerReading reading;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    ++line_number;
    const std::size_t newline = text.find('\n', start);
    const bool torn = newline == std::string_view::npos;
    const std::string_view line = text.substr(start, torn ? std::string_view::npos : newline - start);
    start = torn ? text.size() : newline + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = fmt::format("{}:{}", source, line_number);
    auto entry = parse_entry(line, where);
    if (!entry) {
      if (torn) {
        reading.notes.push_back(
            fmt::format("{}: skipped a last line without its newline (a run ended while writing it)", where));
        break;
      }
      return std::unexpected(entry.error());
    }
    if (entry->speedup)
      reading.entries.push_back(std::move(*entry));
    else
      ++reading.without_speedup;
  }
  return reading;
}

}  // namespace kforecast::policy
