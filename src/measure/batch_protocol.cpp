// SPDX-License-Identifier: Apache-2.0
#include "measure/batch_protocol.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "base/json_string.hpp"

namespace kforecast::measure {
namespace {

// The most pairs one batch may hold: far past any pull request, and a bound on what a hostile
// file can make the child start.
constexpr std::size_t max_pairs = 100000;

}  // namespace

std::string batch_file_json(const std::vector<BenchPair>& pairs) {
  std::string text = "{\"pairs\": [";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const BenchPair& pair = pairs[i];
    text += fmt::format("{}\n  {{\"candidate\": {}, \"versus\": {}, \"against\": {}, \"project_build\": {}, \"capture\": {}}}",
                        i == 0 ? "" : ",", json_string(pair.candidate), json_string(pair.versus),
                        json_string(pair.against), json_string(pair.project_build), json_string(pair.capture));
  }
  return text + "\n]}\n";
}

Result<std::vector<BenchPair>> parse_batch_file(std::string_view text) {
  auto root = json_document::parse(text);
  if (!root) return usage_error(fmt::format("the batch file is not JSON: {}", root.error()));
  const Json* pairs = json_document::array_at(*root, "pairs");
  if (pairs == nullptr) return usage_error("the batch file has no \"pairs\" array");
  if (pairs->size() > max_pairs)
    return usage_error(fmt::format("the batch file lists {} pairs; at most {}", pairs->size(), max_pairs));
  std::vector<BenchPair> read;
  for (std::size_t i = 0; i < pairs->size(); ++i) {
    const Json& element = (*pairs)[i];
    BenchPair pair;
    for (auto [key, into] : {std::pair{"candidate", &pair.candidate}, std::pair{"versus", &pair.versus},
                             std::pair{"against", &pair.against}, std::pair{"project_build", &pair.project_build},
                             std::pair{"capture", &pair.capture}}) {
      const std::string* value = json_document::string_at(element, key);
      if (value == nullptr)
        return usage_error(fmt::format("the batch file's pairs[{}] has no string \"{}\"", i, key));
      *into = *value;
    }
    if (pair.candidate.empty()) return usage_error(fmt::format("the batch file's pairs[{}] names no candidate", i));
    read.push_back(std::move(pair));
  }
  return read;
}

std::string batch_result_line(const BatchResult& result) {
  std::string line = fmt::format("{{\"index\": {}, \"seconds\": {:.6f}, ", result.index, result.seconds);
  if (const auto* measurement = std::get_if<bench::Measurement>(&result.outcome))
    line += fmt::format("\"measurement\": {}", bench::measurement_json(*measurement));
  else if (const auto* error = std::get_if<BatchError>(&result.outcome))
    line += fmt::format("\"error\": {}, \"exit_status\": {}", json_string(error->message), error->exit_status);
  else
    line += fmt::format("\"skipped\": {}", json_string(std::get<BatchSkipped>(result.outcome).reason));
  // One line per result: the measurement's own JSON is printed over several.
  std::string flat;
  for (const char c : line + "}")
    if (c != '\n') flat += c;
  return flat;
}

Result<std::vector<BatchResult>> parse_batch_results(std::string_view text) {
  std::vector<BatchResult> results;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    // A line with no newline yet was being written when the child stopped: not a result.
    if (end == std::string_view::npos) break;
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.empty()) continue;
    const auto bad = [&](std::string_view why) {
      return usage_error(fmt::format("the measuring child's results, line {}: {}", line_number, why));
    };
    auto root = json_document::parse(line);
    if (!root) return bad(root.error());
    const auto index = json_document::uint64_at(*root, "index");
    if (!index) return bad("no \"index\"");
    BatchResult result;
    result.index = static_cast<std::size_t>(*index);
    result.seconds = json_document::number_at(*root, "seconds").value_or(0);
    if (!(result.seconds >= 0 && result.seconds < 1e7)) return bad("\"seconds\" is not a duration");
    if (const Json* measurement = json_document::object_at(*root, "measurement")) {
      auto parsed = bench::parse_measurement_json(json_document::compact(*measurement));
      if (!parsed) return bad(parsed.error().message);
      result.outcome = std::move(*parsed);
    } else if (const std::string* error = json_document::string_at(*root, "error")) {
      const auto status = json_document::int64_at(*root, "exit_status").value_or(2);
      result.outcome = BatchError{*error, status == 3 ? 3 : 2};
    } else if (const std::string* skipped = json_document::string_at(*root, "skipped")) {
      result.outcome = BatchSkipped{*skipped};
    } else {
      return bad("neither \"measurement\", \"error\" nor \"skipped\"");
    }
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace kforecast::measure
