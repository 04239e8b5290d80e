// SPDX-License-Identifier: Apache-2.0
#pragma once

// A launch spec evaluated for one problem size and bound to the kernel's signature: numbers,
// not expressions, and one typed argument per parameter, in parameter order. Everything a user
// can get wrong is an Error naming the spec's place, the kernel and the key.

#include <array>
#include <cstdint>
#include <vector>

#include "bench/element_type.hpp"
#include "bench/launch_spec.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::bench {

struct ResolvedArgument {
  std::string name;
  ElementType type;
  bool buffer = false;
  // A scalar's bytes as the kernel receives them (little-endian, type.bytes() long).
  std::vector<std::byte> scalar_bytes;
  // A buffer's element count, initial values, role and tolerances.
  std::int64_t count = 0;
  InitSpec init;
  Role role = Role::in;
  double rtol = 0;
  double atol = 0;
  // Where the kernel's pointer lands in the buffer: a replayed capture's pointer may point into
  // its allocation (capture/replay_launch.hpp). Zero for specs.
  std::int64_t pointer_offset = 0;

  std::int64_t bytes() const { return count * type.bytes(); }
};

struct ResolvedLaunch {
  SizeVariables size;
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t shared_bytes = 0;
  std::vector<ResolvedArgument> arguments;
  std::string label;  // names the size where no variables do: "capture scale-0"

  std::string size_text() const;  // "M=4096 N=4096", the label, or "default" when there are neither
};

// The tolerances a type gets when the spec names none: around 1e-4 relative for float32 (and
// 1e-9 for double), 1e-2 for half types, exact for integers.
double default_rtol(const ElementType& type);
double default_atol(const ElementType& type);

// `parameters` are the kernel's, as scanned. Buffers larger than `max_buffer_bytes` are refused.
Result<ResolvedLaunch> resolve_launch(const LaunchSpec& spec, const SizeVariables& size,
                                      const std::vector<kernels::Parameter>& parameters,
                                      std::int64_t max_buffer_bytes = std::int64_t{16} << 30);

}  // namespace kforecast::bench
