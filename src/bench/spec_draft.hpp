// SPDX-License-Identifier: Apache-2.0
#pragma once

// A first draft of a kernel's launch spec (`kforecast spec suggest`), from what the source
// shows: the kernel's parameters (pointers become buffers, their role from const-ness and the
// writes through them in the body; integer parameters named like a size, or bounding an index
// in the body, become size variables) and its host launch sites (grid, block and shared memory
// translated into the spec's expressions where every name is a size variable or a constant,
// the template arguments when they are literal). What cannot be known is a "FILL: ..." value
// that a person replaces; every guess carries a comment saying where it came from. Once its
// FILL values are replaced, the draft reads with read_comment_spec (or read_config_specs).
// The source is untrusted (a pull request's): bounded work, any bytes give a draft or an Error.

#include <span>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::bench {

// A file that may launch the kernel: the kernel's own file, or one that includes it.
struct HostSource {
  std::string_view name;  // as the user sees it: "src/runner.cu"
  std::string_view text;
};

enum class DraftFormat { comment_block, config_table };

struct SpecDraft {
  std::string text;     // the `// kforecast:` block (or [[kernel]] table), ending in a newline
  int fill_count = 0;   // the "FILL: ..." values left to replace
  int guess_count = 0;  // the values guessed, each with its comment
  std::string kernel;   // as `kforecast bench FILE:KERNEL` names it: "k", or "k<64, float>" when drafted
};

// The draft for `kernel` (a name or a qualified name) of `source`, launched from `hosts` (the
// kernel's own file is read for launches too). Errors name the file and the kernel: no such
// kernel (with the kernels there), or several (with their lines).
Result<SpecDraft> draft_launch_spec(std::string_view source, std::string_view display_name, std::string_view kernel,
                                    std::span<const HostSource> hosts, DraftFormat format);

}  // namespace kforecast::bench
