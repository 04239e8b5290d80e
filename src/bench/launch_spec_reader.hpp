// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading launch specs from their two homes. Both are untrusted (a pull request writes them):
// every problem names the file, the line, the kernel and the key, with a suggestion for a typo.
//
// In the config, one [[kernel]] table per spec (docs/getting-started.md shows the shape).
//
// In a source file, a block of // comment lines directly above the kernel (its template line or
// attributes included), starting with a line "// kforecast:"; the text after "kforecast:" and on
// the following comment lines is the body of one [[kernel]] table in the same TOML, name and
// file taken from the kernel below. `[kernel.args]` and `[args]` both open the arguments:
//
//   // kforecast:
//   // sizes = [{ n = 1048576 }, { n = 65536 }]
//   // grid = ["ceil_div(n, 256)"]
//   // block = [256]
//   // [kernel.args]
//   // x = { count = "n", init = "uniform(-1, 1)" }
//   // y = { count = "n", role = "out" }
//   // n = "n"
//   __global__ void scale(const float* x, float* y, int n) { ... }

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "bench/launch_spec.hpp"

namespace kforecast::bench {

// Every [[kernel]] table of a config's TOML text (other keys are the config reader's business).
Result<std::vector<LaunchSpec>> read_config_specs(std::string_view toml_text, std::string_view display_name);

// The spec in the comment block that ends on the line before `first_line` (1-based: the line
// where the kernel's declaration starts), or nullopt when there is no "// kforecast:" block.
Result<std::optional<LaunchSpec>> read_comment_spec(std::string_view source, std::uint32_t first_line,
                                                    std::string_view kernel_name, std::string_view display_name);

// The spec for `kernel` among `specs`: the one whose name (with or without template arguments)
// matches and whose file, when given, ends with `file`.
const LaunchSpec* find_spec(const std::vector<LaunchSpec>& specs, std::string_view kernel, std::string_view file);

}  // namespace kforecast::bench
