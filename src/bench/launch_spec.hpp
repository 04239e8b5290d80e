// SPDX-License-Identifier: Apache-2.0
#pragma once

// How to launch a kernel for a benchmark (docs/getting-started.md, "Launch specs"): size variables and
// the sizes to measure, grid, block and dynamic shared memory as expressions, the template
// instantiation, include directories and defines, and each argument — a scalar, or a buffer
// with its element count, initial values, role and tolerances. Specs come from the config's
// [[kernel]] tables or from a `// kforecast:` comment block above a kernel (launch_spec_reader).
// Expressions stay text here; resolve_launch() evaluates them for one size.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bench/expression.hpp"

namespace kforecast::bench {

enum class Role { in, out, inout };

// `captured`: the bytes of a recorded launch's buffer (src/capture), never written in a spec.
enum class Distribution { uniform, normal, constant, iota, random_integers, captured };

// "uniform(-1, 1)", "normal(0, 1)", "constant(3)", "iota", "iota(start, step)",
// "randint(lo, hi)" (inclusive).
struct InitSpec {
  Distribution distribution = Distribution::uniform;
  double a = -1;  // uniform low, normal mean, constant value, iota start, randint low
  double b = 1;   // uniform high, normal deviation, iota step, randint high
  std::string text = "uniform(-1, 1)";
  std::shared_ptr<const std::vector<std::byte>> captured;  // Distribution::captured: the buffer's bytes
};

struct BufferSpec {
  std::string count;             // element count expression
  std::optional<InitSpec> init;  // nullopt: the default for the element type
  Role role = Role::in;
  std::optional<double> rtol;  // nullopt: the spec's, else the element type's default
  std::optional<double> atol;
  std::string type;  // element type override, for template parameters ("float"); else the signature's
};

struct ScalarSpec {
  std::string value;  // an integer expression, or a floating literal for floating parameters
};

struct ArgumentSpec {
  std::string name;  // the kernel parameter's name
  std::variant<ScalarSpec, BufferSpec> value;
};

struct LaunchSpec {
  std::string name;  // the kernel's name, or a template instantiation "tiled<64, 8>"
  std::string file;  // optional: which file's kernel
  std::vector<SizeVariables> sizes;
  std::vector<std::string> grid;   // 1 to 3 expressions
  std::vector<std::string> block;  // 1 to 3 expressions
  std::string shared_bytes = "0";
  std::vector<std::string> include_dirs;
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<ArgumentSpec> args;  // sorted by name (TOML tables are unordered); bound by parameter name
  std::optional<double> rtol;
  std::optional<double> atol;
  std::string origin;  // where it was read: ".kforecast.toml:12" or "src/gemm.cu:40"

  // The kernel's name without template arguments: "tiled".
  std::string base_name() const { return name.substr(0, name.find('<')); }
};

// The spec one side of a pair runs with: the data of `data` (sizes, arguments, tolerances), so
// both kernels see the same problem and the same buffers, launched with the geometry of
// `geometry` (grid, block, dynamic shared memory, instantiation, includes, defines), since two
// versions of a kernel often map the same problem onto threads differently.
LaunchSpec with_geometry_of(LaunchSpec data, const LaunchSpec& geometry);

// Parses an init distribution; the Error quotes the text.
Result<InitSpec> parse_init(std::string_view text);

}  // namespace kforecast::bench
