// SPDX-License-Identifier: Apache-2.0
#include "embedded/labelled_pairs.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "base/text_file.hpp"

namespace kforecast::embedded {
namespace {

struct LineError {
  std::string message;
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::expected<std::string, LineError> string_field(const Json& obj, std::string_view key, bool required,
                                                   std::string_view where) {
  const Json* value = json_document::find(obj, key);
  if (value == nullptr) {
    if (required) return std::unexpected(LineError{fmt::format("{}\"{}\" is missing", where, key)});
    return std::string();
  }
  if (!value->is_string()) return std::unexpected(LineError{fmt::format("{}\"{}\" must be a string", where, key)});
  return value->get<std::string>();
}

// [x] or [x, y] or [x, y, z], each a positive integer.
std::expected<std::array<std::int64_t, 3>, LineError> dims(const Json& value, std::string_view name) {
  if (!value.is_array() || value.empty() || value.size() > 3)
    return std::unexpected(LineError{fmt::format("launch.{} must be an array of 1 to 3 positive integers", name)});
  std::array<std::int64_t, 3> out{1, 1, 1};
  std::size_t i = 0;
  for (const Json& item : value) {
    const std::int64_t v = json_document::as_int64(item).value_or(0);
    if (v < 1 || v > (std::int64_t{1} << 31))
      return std::unexpected(LineError{fmt::format("launch.{} must be an array of 1 to 3 positive integers", name)});
    out[i++] = v;
  }
  return out;
}

std::expected<KernelText, LineError> kernel_text(const Json& pair, std::string_view side) {
  const Json* side_object = json_document::object_at(pair, side);
  if (side_object == nullptr)
    return std::unexpected(LineError{fmt::format("\"{}\" is missing or not an object", side)});
  const Json& obj = *side_object;
  const std::string where = fmt::format("{}.", side);
  KernelText text;
  auto source = string_field(obj, "source", true, where);
  if (!source) return std::unexpected(source.error());
  auto kernel = string_field(obj, "kernel", true, where);
  if (!kernel) return std::unexpected(kernel.error());
  if (kernel->empty()) return std::unexpected(LineError{where + "\"kernel\" is empty"});
  text.source = std::move(*source);
  text.kernel = std::move(*kernel);
  if (const Json* launch = json_document::find(obj, "launch"); launch != nullptr && !launch->is_null()) {
    if (!launch->is_object()) return std::unexpected(LineError{where + "\"launch\" must be an object"});
    LaunchGeometry geometry;
    const Json* grid = json_document::find(*launch, "grid");
    const Json* block = json_document::find(*launch, "block");
    if (grid == nullptr || block == nullptr)
      return std::unexpected(LineError{where + "launch needs \"grid\" and \"block\""});
    auto g = dims(*grid, "grid");
    if (!g) return std::unexpected(LineError{where + g.error().message});
    auto b = dims(*block, "block");
    if (!b) return std::unexpected(LineError{where + b.error().message});
    geometry.grid = *g;
    geometry.block = *b;
    if (const Json* shared = json_document::find(*launch, "shared_bytes")) {
      const auto bytes = json_document::as_int64(*shared).value_or(-1);
      if (bytes < 0 || bytes > (std::int64_t{1} << 30))
        return std::unexpected(LineError{where + "launch.shared_bytes must be a non-negative integer"});
      geometry.shared_bytes = bytes;
    }
    text.launch = geometry;
  }
  return text;
}

std::expected<LabelledPair, LineError> parse_line(std::string_view line) {
  const auto doc = json_document::parse(line);
  if (!doc) return std::unexpected(LineError{fmt::format("not JSON ({})", doc.error())});
  if (!doc->is_object()) return std::unexpected(LineError{"a line must be one JSON object"});
  const Json& obj = *doc;
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
  const Json* speedup = json_document::find(obj, "speedup");
  if (speedup == nullptr) return std::unexpected(LineError{"\"speedup\" is missing (t_reference / t_candidate)"});
  if (!speedup->is_number()) return std::unexpected(LineError{"\"speedup\" must be a number"});
  const double value = speedup->get<double>();
  if (!std::isfinite(value) || value <= 0) return std::unexpected(LineError{"\"speedup\" must be a positive number"});
  pair.speedup = value;
  return pair;
}

}  // namespace

Result<std::vector<LabelledPair>> parse_labelled_pairs(std::string_view text, std::string_view origin) {
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
    auto pair = parse_line(line);
    if (!pair)
      return fail(ExitCode::usage, fmt::format("{}:{}: {}; each line must be one labelled pair (`kforecast help eval` gives the fields)",
                                               origin, line_number, pair.error().message));
    pair->line = line_number;
    if (pair->id.empty()) pair->id = fmt::format("line {}", line_number);
    pairs.push_back(std::move(*pair));
  }
  return pairs;
}

Result<std::vector<LabelledPair>> read_labelled_pairs(const std::string& path) {
  auto text = read_text_file(path, "the dataset");
  if (!text) return std::unexpected(text.error());
  return parse_labelled_pairs(*text, path);
}

}  // namespace kforecast::embedded
