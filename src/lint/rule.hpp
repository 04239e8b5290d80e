// SPDX-License-Identifier: Apache-2.0
#pragma once

// A lint rule as rules/*.toml describes it: what it finds (a matcher, chosen by kind and tuned by
// data), how bad it is, what it costs and how to fix it, and where the CUDA guides explain it.
// Matcher kinds are a fixed vocabulary (matchers.hpp says what each looks for); rules are data,
// so a repository adds and overrides rules without rebuilding kforecast.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::lint {

enum class Severity { note, warning, error };

std::string_view to_string(Severity severity);
std::optional<Severity> severity_from(std::string_view text);

enum class MatcherKind {
  tokens,                       // a token pattern in code (never comments, strings, directives)
  barrier_in_divergent_branch,  // __syncthreads() under a thread-dependent condition
  shared_array_stride,          // 2-D shared array of 4-byte words, row stride a multiple of 32, read by column
  strided_thread_index,         // pointer parameter indexed by threadIdx.x-derived * stride
  atomic_uniform_address,       // atomic whose address is the same for every thread of a block
  division_in_loop,             // integer / or % by a runtime value inside a loop body
  local_array_dynamic_index,    // per-thread array indexed by a value not known at compile time
  pointer_parameters_without_restrict,
  volatile_shared_reduction,  // volatile shared memory reduced warp-synchronously, without __syncwarp
  block_size,                 // __launch_bounds__ or <<<grid, block>>> not a multiple of 32
  compiler_fact,              // NVRTC's ptxas report: registers, spills, stack, shared memory
  launch_fact,                // needs a launch spec (block size, dynamic shared memory)
};

std::string_view to_string(MatcherKind kind);
std::optional<MatcherKind> matcher_kind_from(std::string_view text);

// Where a matcher looks: kernel bodies (and signatures), also __device__ function bodies, or
// every code token of the file (host code included: launches live there).
enum class Scope { kernel, device, file };

struct Matcher {
  MatcherKind kind = MatcherKind::tokens;
  Scope scope = Scope::kernel;
  // tokens: one entry per position, each "a|b|c" alternatives of exact token texts, or a class:
  // @double-literal, @double-operand (a double literal in run-time arithmetic: not a constant
  // expression that is assigned, initialises or is returned whole), @double-arguments (a '('
  // whose arguments hold a double operand or a cast to double), @runtime-arguments (a '(' whose
  // arguments name something other than template parameters and constants), @number,
  // @identifier, @string, @any.
  std::vector<std::string> pattern;
  std::vector<std::string> not_after;     // the token before the match must not be one of these
  std::vector<std::string> only_if_uses;  // the function must use one of these words ...
  std::vector<std::string> unless_uses;   // ... and none of these
  // tokens: a match is left out where its block, or the block around that, names one of these
  // (printf on a path that ends in __trap() reports an error and stops the kernel).
  std::vector<std::string> unless_in_block;
  // Names a structural matcher looks for (barriers, atomics, element types); empty: its default.
  std::vector<std::string> names;
  // compiler_fact: registers, spill_bytes, stack_frame_bytes, shared_bytes, local_bytes.
  // launch_fact: occupancy, launch_bounds.
  std::string fact;
  double above = 0;  // compiler_fact fires when the fact exceeds this
  // launch_fact occupancy fires when the occupancy, in percent, is below this (`above` before
  // `below` existed: read when `below` is not given).
  std::optional<double> below;
  std::int64_t multiple = 32;  // block_size, shared_array_stride
  std::int64_t min_pointers = 2;
  // barrier_in_divergent_branch: what the threads that skip the barrier do next. "continue": they
  // reach another barrier (or return to a caller that may), so barriers pair up out of step;
  // "exit": they leave the kernel without another barrier (a bounds check around the rest).
  std::string skipping_threads = "continue";
};

struct Rule {
  std::string id;  // lowercase words and hyphens: "double-literal"
  Severity severity = Severity::warning;
  std::string summary;  // one line, for `kforecast rules`
  std::string message;  // the diagnostic: the cost and the fix; "{match}" is replaced by what matched
  std::string guide;    // URL of the CUDA guide section
  std::string bad;      // example that fires
  std::string good;     // its corrected form
  Matcher match;
  std::string origin;  // "rules/precision.toml:12", where the rule (or its last override) was read
  // Off rules are opt-in: listed by `kforecast rules`, run only where a rule file turns them on
  // (enabled = true). A built-in rule is on by default only where its measured precision earns it.
  bool enabled = true;
  // The rule's measured precision on the judged set (benchmarks/lint-judged), as the rule file states
  // it ("97% (116/119)"); empty where it was not measured.
  std::string precision;
  // (Fields are in this order so that rules built in code, positionally, stay valid.)
  // An optional second line after the message: what to do, in the code's own words. "{match}" is
  // replaced as in the message, "{fix}" by the rewrite the matcher proposes (the line is left
  // out where the matcher proposes none).
  std::string note;
  // Messages for particular findings, by the name a matcher gives them ([rule.variants]: record =
  // "..."), each with "{match}" like the message; a finding without one uses the message.
  std::map<std::string, std::string, std::less<>> variants;
  // Notes for those findings, by the same names ([rule.variant_notes]).
  std::map<std::string, std::string, std::less<>> variant_notes;
};

// A rule file's text and the name its messages use.
struct RuleSource {
  std::string name;
  std::string text;
};

// The rules compiled into the binary from rules/*.toml (a build-time generated source).
std::span<const RuleSource> builtin_rule_sources();

}  // namespace kforecast::lint
