// SPDX-License-Identifier: Apache-2.0
#include "bench/resolved_launch.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "bench/half_precision.hpp"

namespace kforecast::bench {
namespace {

class Place {
 public:
  explicit Place(const LaunchSpec& spec) : m_spec(spec) {}
  std::unexpected<Error> error(std::string_view key, const std::string& what) const {
    return usage_error(fmt::format("{}: [[kernel]] '{}': key '{}': {}", m_spec.origin, m_spec.name, key, what));
  }

 private:
  const LaunchSpec& m_spec;
};

Result<std::array<std::uint32_t, 3>> dimensions(const std::vector<std::string>& expressions, const SizeVariables& size,
                                                std::string_view key, const Place& place, std::int64_t limit) {
  std::array<std::uint32_t, 3> result{1, 1, 1};
  for (std::size_t i = 0; i < expressions.size() && i < 3; ++i) {
    auto value = evaluate(expressions[i], size);
    if (!value) return place.error(fmt::format("{}[{}]", key, i), value.error().message);
    if (*value < 1 || *value > limit)
      return place.error(fmt::format("{}[{}]", key, i),
                         fmt::format("'{}' is {}; it must be from 1 to {}", expressions[i], *value, limit));
    result[i] = static_cast<std::uint32_t>(*value);
  }
  return result;
}

template <class T>
std::vector<std::byte> bytes_of(T value) {
  std::vector<std::byte> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

Result<std::vector<std::byte>> scalar_bytes(const ElementType& type, const std::string& text, const SizeVariables& size,
                                            std::string_view key, const Place& place) {
  if (type.lanes != 1) return place.error(key, fmt::format("vector type {} cannot be passed as a scalar", type.name));
  if (type.is_floating()) {
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
      auto integer = evaluate(text, size);
      if (!integer) return place.error(key, integer.error().message);
      value = static_cast<double>(*integer);
    }
    if (!std::isfinite(value)) return place.error(key, fmt::format("'{}' is not a finite number", text));
    switch (type.kind) {
      case ScalarKind::half:
        return bytes_of(to_half_bits(static_cast<float>(value)));
      case ScalarKind::bfloat16:
        return bytes_of(to_bfloat16_bits(static_cast<float>(value)));
      default:
        return type.lane_bytes == 8 ? bytes_of(value) : bytes_of(static_cast<float>(value));
    }
  }
  auto value = evaluate(text, size);
  if (!value) return place.error(key, value.error().message);
  const int bits = type.lane_bytes * 8;
  const bool is_signed = type.kind == ScalarKind::signed_integer;
  const std::int64_t low =
      is_signed ? (bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1))) : 0;
  const std::int64_t high = bits == 64
                                ? std::numeric_limits<std::int64_t>::max()
                                : (is_signed ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1);
  if (*value < low || *value > high)
    return place.error(key, fmt::format("'{}' is {}, which does not fit {}", text, *value, type.name));
  std::vector<std::byte> bytes(static_cast<std::size_t>(type.lane_bytes));
  std::memcpy(bytes.data(), &*value, bytes.size());  // little-endian: the low bytes come first
  return bytes;
}

std::vector<std::string_view> parameter_names(const std::vector<kernels::Parameter>& parameters) {
  std::vector<std::string_view> names;
  for (const auto& parameter : parameters) names.push_back(parameter.name);
  return names;
}

}  // namespace

std::string ResolvedLaunch::size_text() const {
  std::string text;
  for (const auto& [name, value] : size) text += fmt::format("{}{}={}", text.empty() ? "" : " ", name, value);
  if (!text.empty()) return text;
  return label.empty() ? "default" : label;
}

double default_rtol(const ElementType& type) {
  switch (type.kind) {
    case ScalarKind::half:
    case ScalarKind::bfloat16:
      return 1e-2;
    case ScalarKind::floating:
      return type.lane_bytes == 8 ? 1e-9 : 1e-4;
    default:
      return 0;
  }
}

double default_atol(const ElementType& type) {
  switch (type.kind) {
    case ScalarKind::half:
    case ScalarKind::bfloat16:
      return 1e-2;
    case ScalarKind::floating:
      return type.lane_bytes == 8 ? 1e-12 : 1e-5;
    default:
      return 0;
  }
}

Result<ResolvedLaunch> resolve_launch(const LaunchSpec& spec, const SizeVariables& size,
                                      const std::vector<kernels::Parameter>& parameters,
                                      std::int64_t max_buffer_bytes) {
  const Place place(spec);
  ResolvedLaunch launch;
  launch.size = size;
  auto grid = dimensions(spec.grid, size, "grid", place, std::numeric_limits<std::int32_t>::max());
  if (!grid) return std::unexpected(grid.error());
  auto block = dimensions(spec.block, size, "block", place, 1024);
  if (!block) return std::unexpected(block.error());
  if (std::int64_t{(*block)[0]} * (*block)[1] * (*block)[2] > 1024)
    return place.error("block", "more than 1024 threads in a block");
  if ((*grid)[1] > 65535 || (*grid)[2] > 65535) return place.error("grid", "grid y and z must be at most 65535");
  launch.grid = *grid;
  launch.block = *block;
  auto shared = evaluate(spec.shared_bytes, size);
  if (!shared) return place.error("shared_bytes", shared.error().message);
  if (*shared < 0 || *shared > (std::int64_t{1} << 20))
    return place.error("shared_bytes",
                       fmt::format("'{}' is {}; it must be from 0 to 1 MiB", spec.shared_bytes, *shared));
  launch.shared_bytes = static_cast<std::uint32_t>(*shared);

  const auto names = parameter_names(parameters);
  for (const auto& arg : spec.args) {
    if (std::ranges::find(names, std::string_view(arg.name)) == names.end())
      return place.error(fmt::format("args.{}", arg.name),
                         fmt::format("the kernel has no parameter '{}'{}", arg.name, did_you_mean(arg.name, names)));
  }
  for (const auto& parameter : parameters) {
    const std::string key = fmt::format("args.{}", parameter.name);
    if (parameter.name.empty())
      return place.error("args", "the kernel has an unnamed parameter; name it in the source to give it a value");
    auto arg = std::ranges::find(spec.args, parameter.name, &ArgumentSpec::name);
    if (arg == spec.args.end())
      return place.error(key, fmt::format("missing: parameter '{} {}' needs a value", parameter.type, parameter.name));
    auto shape = parameter_shape(parameter.type);
    if (!shape)
      return place.error(key, fmt::format("parameter type '{}' cannot be filled (pointers to pointers, references and "
                                          "arrays are not supported)",
                                          parameter.type));
    ResolvedArgument resolved;
    resolved.name = parameter.name;
    if (const auto* buffer = std::get_if<BufferSpec>(&arg->value)) {
      if (!shape->pointer)
        return place.error(key, fmt::format("'{}' is a scalar of type '{}'; give it a value, not a buffer table",
                                            parameter.name, parameter.type));
      auto type = element_type(buffer->type.empty() ? shape->element : buffer->type);
      if (!type)
        return place.error(key, fmt::format("element type '{}' cannot be filled; set type = \"float\" (or another "
                                            "arithmetic or vector type) in the buffer's table",
                                            buffer->type.empty() ? shape->element : buffer->type));
      auto count = evaluate(buffer->count, size);
      if (!count) return place.error(key + ".count", count.error().message);
      if (*count < 1 || *count > max_buffer_bytes / type->bytes())
        return place.error(key + ".count", fmt::format("'{}' is {} elements; it must be from 1 to {} bytes' worth",
                                                       buffer->count, *count, max_buffer_bytes));
      resolved.type = *type;
      resolved.buffer = true;
      resolved.count = *count;
      resolved.role = buffer->role;
      resolved.rtol = buffer->rtol.value_or(spec.rtol.value_or(default_rtol(*type)));
      resolved.atol = buffer->atol.value_or(spec.atol.value_or(default_atol(*type)));
      if (buffer->init) {
        resolved.init = *buffer->init;
      } else {
        resolved.init = type->is_floating() ? *parse_init("uniform(-1, 1)") : *parse_init("randint(0, 15)");
      }
    } else {
      const auto& scalar = std::get<ScalarSpec>(arg->value);
      if (shape->pointer)
        return place.error(key, fmt::format("'{}' is a pointer ({}); give a buffer table {{ count = \"...\" }}",
                                            parameter.name, parameter.type));
      auto type = element_type(shape->element);
      if (!type) return place.error(key, fmt::format("scalar type '{}' cannot be passed", parameter.type));
      auto bytes = scalar_bytes(*type, scalar.value, size, key, place);
      if (!bytes) return std::unexpected(bytes.error());
      resolved.type = *type;
      resolved.scalar_bytes = std::move(*bytes);
    }
    launch.arguments.push_back(std::move(resolved));
  }
  return launch;
}

}  // namespace kforecast::bench
