// SPDX-License-Identifier: Apache-2.0
#include "embedded/labelled_pairs.hpp"

#include <fmt/format.h>
#include <simdjson.h>
#include <cmath>

namespace kforecast::embedded {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

struct LineError {
  std::string message;
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::expected<std::string, LineError> string_field(object obj, std::string_view key, bool required,
                                                   std::string_view where) {
  element value;
  if (obj[key].get(value) != simdjson::SUCCESS) {
    if (required) return std::unexpected(LineError{fmt::format("{}\"{}\" is missing", where, key)});
    return std::string();
  }
  std::string_view text;
  if (value.get(text) != simdjson::SUCCESS)
    return std::unexpected(LineError{fmt::format("{}\"{}\" must be a string", where, key)});
  return std::string(text);
}

// [x] or [x, y] or [x, y, z], each a positive integer.
std::expected<std::array<std::int64_t, 3>, LineError> dims(element value, std::string_view name) {
  simdjson::dom::array array;
  if (value.get(array) != simdjson::SUCCESS || array.size() < 1 || array.size() > 3)
    return std::unexpected(LineError{fmt::format("launch.{} must be an array of 1 to 3 positive integers", name)});
  std::array<std::int64_t, 3> out{1, 1, 1};
  std::size_t i = 0;
  for (element item : array) {
    std::int64_t v = 0;
    if (item.get(v) != simdjson::SUCCESS || v < 1 || v > (std::int64_t{1} << 31))
      return std::unexpected(LineError{fmt::format("launch.{} must be an array of 1 to 3 positive integers", name)});
    out[i++] = v;
  }
  return out;
}

std::expected<KernelText, LineError> kernel_text(object pair, std::string_view side) {
  object obj;
  if (pair[side].get(obj) != simdjson::SUCCESS)
    return std::unexpected(LineError{fmt::format("\"{}\" is missing or not an object", side)});
  const std::string where = fmt::format("{}.", side);
  KernelText text;
  auto source = string_field(obj, "source", true, where);
  if (!source) return std::unexpected(source.error());
  auto kernel = string_field(obj, "kernel", true, where);
  if (!kernel) return std::unexpected(kernel.error());
  if (kernel->empty()) return std::unexpected(LineError{where + "\"kernel\" is empty"});
  text.source = std::move(*source);
  text.kernel = std::move(*kernel);
  element launch_value;
  if (obj["launch"].get(launch_value) == simdjson::SUCCESS && !launch_value.is_null()) {
    object launch;
    if (launch_value.get(launch) != simdjson::SUCCESS)
      return std::unexpected(LineError{where + "\"launch\" must be an object"});
    LaunchGeometry geometry;
    element grid, block, shared;
    if (launch["grid"].get(grid) != simdjson::SUCCESS || launch["block"].get(block) != simdjson::SUCCESS)
      return std::unexpected(LineError{where + "launch needs \"grid\" and \"block\""});
    auto g = dims(grid, "grid");
    if (!g) return std::unexpected(LineError{where + g.error().message});
    auto b = dims(block, "block");
    if (!b) return std::unexpected(LineError{where + b.error().message});
    geometry.grid = *g;
    geometry.block = *b;
    if (launch["shared_bytes"].get(shared) == simdjson::SUCCESS) {
      std::int64_t bytes = 0;
      if (shared.get(bytes) != simdjson::SUCCESS || bytes < 0 || bytes > (std::int64_t{1} << 30))
        return std::unexpected(LineError{where + "launch.shared_bytes must be a non-negative integer"});
      geometry.shared_bytes = bytes;
    }
    text.launch = geometry;
  }
  return text;
}

std::expected<LabelledPair, LineError> parse_line(simdjson::dom::parser& parser, std::string_view line) {
  element doc;
  if (const auto error = parser.parse(line.data(), line.size()).get(doc); error != simdjson::SUCCESS)
    return std::unexpected(LineError{fmt::format("not JSON ({})", simdjson::error_message(error))});
  object obj;
  if (doc.get(obj) != simdjson::SUCCESS) return std::unexpected(LineError{"a line must be one JSON object"});
  LabelledPair pair;
  auto id = string_field(obj, "id", false, "");
  if (!id) return std::unexpected(id.error());
  auto family = string_field(obj, "family", false, "");
  if (!family) return std::unexpected(family.error());
  auto hardware = string_field(obj, "hardware", false, "");
  if (!hardware) return std::unexpected(hardware.error());
  pair.id = std::move(*id);
  pair.family = std::move(*family);
  pair.hardware = std::move(*hardware);
  auto reference = kernel_text(obj, "reference");
  if (!reference) return std::unexpected(reference.error());
  auto candidate = kernel_text(obj, "candidate");
  if (!candidate) return std::unexpected(candidate.error());
  pair.reference = std::move(*reference);
  pair.candidate = std::move(*candidate);
  element speedup;
  double value = 0;
  if (obj["speedup"].get(speedup) != simdjson::SUCCESS)
    return std::unexpected(LineError{"\"speedup\" is missing (t_reference / t_candidate)"});
  if (speedup.get(value) != simdjson::SUCCESS) {
    std::int64_t integer = 0;
    if (speedup.get(integer) != simdjson::SUCCESS) return std::unexpected(LineError{"\"speedup\" must be a number"});
    value = static_cast<double>(integer);
  }
  if (!std::isfinite(value) || value <= 0) return std::unexpected(LineError{"\"speedup\" must be a positive number"});
  pair.speedup = value;
  return pair;
}

}  // namespace

Result<std::vector<LabelledPair>> parse_labelled_pairs(std::string_view text, std::string_view origin) {
  simdjson::dom::parser parser;
  std::vector<LabelledPair> pairs;
  std::size_t line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++line_number;
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty()) continue;
    auto pair = parse_line(parser, line);
    if (!pair)
      return fail(ExitCode::usage, fmt::format("{}:{}: {}; each line must be one labelled pair (`kforecast help eval` gives the fields)",
                                               origin, line_number, pair.error().message));
    pair->line = line_number;
    if (pair->id.empty()) pair->id = fmt::format("line {}", line_number);
    pairs.push_back(std::move(*pair));
  }
  return pairs;
}

}  // namespace kforecast::embedded
