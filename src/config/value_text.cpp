// SPDX-License-Identifier: Apache-2.0
#include "config/value_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "base/json_string.hpp"

namespace kforecast::config {
namespace {

std::string format_number(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // keep it a TOML float
  return text;
}

template <class T>
std::optional<T> parse_exact(std::string_view text) {
  T value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Parses the small TOML subset used in the key table's defaults.
std::optional<Value> parse_literal(const KeySpec& spec, std::string_view text) {
  switch (spec.type) {
    case ValueType::boolean:
      if (text == "true") return Value{true};
      if (text == "false") return Value{false};
      return std::nullopt;
    case ValueType::integer:
      if (auto v = parse_exact<std::int64_t>(text)) return Value{*v};
      return std::nullopt;
    case ValueType::number:
      if (auto v = parse_exact<double>(text)) return Value{*v};
      return std::nullopt;
    case ValueType::string:
    case ValueType::choice:
      if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        return Value{std::string(text.substr(1, text.size() - 2))};
      return std::nullopt;
    case ValueType::string_list:
      if (text == "[]") return Value{std::vector<std::string>{}};
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::string to_toml_literal(const Value& value) {
  struct Printer {
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(std::int64_t v) const { return fmt::format("{}", v); }
    std::string operator()(double v) const { return format_number(v); }
    std::string operator()(const std::string& v) const { return json_string(v); }
    std::string operator()(const std::vector<std::string>& v) const {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_string(v[i]);
      return out + "]";
    }
  };
  return std::visit(Printer{}, value);
}

Value parse_default(const KeySpec& spec) {
  auto value = parse_literal(spec, spec.default_text);
  if (!value)
    throw Fatal(ExitCode::could_not_run, fmt::format("key table: default '{}' of '{}' is not a {}", spec.default_text,
                                                     spec.name, type_name(spec.type)));
  return *value;
}

Result<Value> parse_plain_text(const KeySpec& spec, std::string_view text) {
  std::optional<Value> value;
  switch (spec.type) {
    case ValueType::boolean:
      if (text == "true" || text == "1" || text == "yes")
        value = true;
      else if (text == "false" || text == "0" || text == "no")
        value = false;
      break;
    case ValueType::integer:
      if (auto v = parse_exact<std::int64_t>(text)) value = *v;
      break;
    case ValueType::number:
      if (auto v = parse_exact<double>(text); v && std::isfinite(*v)) value = *v;
      break;
    case ValueType::string:
    case ValueType::choice:
      value = std::string(text);
      break;
    case ValueType::string_list: {
      // Comma-separated, as lists usually travel through the environment.
      std::vector<std::string> items;
      for (std::size_t start = 0; start <= text.size();) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start) items.emplace_back(text.substr(start, comma - start));
        start = comma + 1;
      }
      value = std::move(items);
      break;
    }
  }
  if (!value) return usage_error(fmt::format("expected {}, got '{}'", describe_accepted(spec), text));
  if (std::string problem = check_bounds(spec, *value); !problem.empty()) return usage_error(problem);
  return *value;
}

std::string check_bounds(const KeySpec& spec, const Value& value) {
  if (spec.type == ValueType::choice) {
    const auto& text = std::get<std::string>(value);
    if (std::ranges::find(spec.choices, text) == spec.choices.end())
      return fmt::format("must be {}, got '{}'", describe_accepted(spec), text);
    return {};
  }
  double number = 0;
  if (const auto* i = std::get_if<std::int64_t>(&value))
    number = static_cast<double>(*i);
  else if (const auto* d = std::get_if<double>(&value))
    number = *d;
  else
    return {};
  if (!std::isfinite(number)) return fmt::format("must be a finite number, got {}", to_toml_literal(value));
  if ((spec.min && number < *spec.min) || (spec.max && number > *spec.max))
    return fmt::format("must be {}, got {}", describe_accepted(spec), to_toml_literal(value));
  return {};
}

std::string describe_accepted(const KeySpec& spec) {
  if (spec.type == ValueType::choice) {
    std::string list;
    for (std::size_t i = 0; i < spec.choices.size(); ++i)
      list += fmt::format("{}'{}'", i == 0 ? "" : (i + 1 == spec.choices.size() ? " or " : ", "), spec.choices[i]);
    return "one of " + list;
  }
  std::string what = spec.type == ValueType::integer   ? "an integer"
                     : spec.type == ValueType::number  ? "a number"
                     : spec.type == ValueType::boolean ? "true or false"
                     : spec.type == ValueType::string  ? "a string"
                                                       : "a list of strings";
  if (spec.min && spec.max) return fmt::format("{} between {} and {}", what, *spec.min, *spec.max);
  if (spec.min) return fmt::format("{} of at least {}", what, *spec.min);
  if (spec.max) return fmt::format("{} of at most {}", what, *spec.max);
  return what;
}

}  // namespace kforecast::config
