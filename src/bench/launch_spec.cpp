// SPDX-License-Identifier: Apache-2.0
#include "bench/launch_spec.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace kforecast::bench {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

}  // namespace

LaunchSpec with_geometry_of(LaunchSpec data, const LaunchSpec& geometry) {
  data.name = geometry.name;
  data.file = geometry.file;
  data.grid = geometry.grid;
  data.block = geometry.block;
  data.shared_bytes = geometry.shared_bytes;
  data.include_dirs = geometry.include_dirs;
  data.defines = geometry.defines;
  data.origin = geometry.origin;
  return data;
}

Result<InitSpec> parse_init(std::string_view text) {
  const std::string_view whole = trim(text);
  const auto open = whole.find('(');
  const std::string_view name = trim(whole.substr(0, open));
  std::vector<double> numbers;
  if (open != std::string_view::npos) {
    if (whole.back() != ')') return usage_error(fmt::format("init '{}': missing ')'", whole));
    std::string inner(whole.substr(open + 1, whole.size() - open - 2));
    std::size_t start = 0;
    while (start <= inner.size() && !trim(inner).empty()) {
      const auto comma = inner.find(',', start);
      const std::string item(
          trim(std::string_view(inner).substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
      char* end = nullptr;
      const double value = std::strtod(item.c_str(), &end);
      if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(value))
        return usage_error(fmt::format("init '{}': '{}' is not a number", whole, item));
      numbers.push_back(value);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  InitSpec init;
  init.text = std::string(whole);
  const auto arity = [&](std::size_t low, std::size_t high) -> Result<void> {
    if (numbers.size() < low || numbers.size() > high)
      return usage_error(fmt::format("init '{}': {} takes {} numbers", whole, name,
                                     low == high ? std::to_string(low) : fmt::format("{} to {}", low, high)));
    return {};
  };
  Result<void> ok;
  if (name == "uniform") {
    init.distribution = Distribution::uniform;
    if (ok = arity(2, 2); ok) init.a = numbers[0], init.b = numbers[1];
    if (ok && init.a >= init.b)
      return usage_error(fmt::format("init '{}': the low bound must be below the high", whole));
  } else if (name == "normal") {
    init.distribution = Distribution::normal;
    if (ok = arity(2, 2); ok) init.a = numbers[0], init.b = numbers[1];
    if (ok && init.b <= 0) return usage_error(fmt::format("init '{}': the deviation must be positive", whole));
  } else if (name == "constant") {
    init.distribution = Distribution::constant;
    if (ok = arity(1, 1); ok) init.a = numbers[0], init.b = 0;
  } else if (name == "iota") {
    init.distribution = Distribution::iota;
    if (ok = arity(0, 2); ok) {
      init.a = numbers.empty() ? 0 : numbers[0];
      init.b = numbers.size() < 2 ? 1 : numbers[1];
    }
  } else if (name == "randint") {
    init.distribution = Distribution::random_integers;
    if (ok = arity(2, 2); ok) init.a = numbers[0], init.b = numbers[1];
    if (ok && (init.a > init.b || init.a != std::floor(init.a) || init.b != std::floor(init.b)))
      return usage_error(fmt::format("init '{}': randint takes two whole numbers, low <= high", whole));
  } else {
    return usage_error(
        fmt::format("init '{}': unknown distribution (known: uniform(lo, hi), normal(mean, sd), constant(v), iota, "
                    "iota(start, step), randint(lo, hi))",
                    whole));
  }
  if (!ok) return std::unexpected(ok.error());
  return init;
}

}  // namespace kforecast::bench
