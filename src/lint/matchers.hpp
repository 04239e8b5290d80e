// SPDX-License-Identifier: Apache-2.0
#pragma once

// The matcher kinds a rule can name (rule.hpp lists them). Each looks at one function (or, for
// file scope, the whole source) and appends what it finds. Internal to lint_source().

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"
#include "lint/body_analysis.hpp"
#include "lint/facts.hpp"
#include "lint/rule.hpp"
#include "lint/source_view.hpp"

namespace kforecast::lint {

struct Finding {
  std::size_t offset = 0;  // byte offset of what fired, in the source
  std::string detail;      // replaces "{match}" in the rule's message
  // A finding about the whole function (its signature, compiler or launch facts): in changed-line
  // mode it is reported when any line of the function changed, not only its own line.
  bool whole_function = false;
  const kernels::Function* function = nullptr;
  std::string fix;  // replaces "{fix}" in the rule's note: the rewrite in the code's own words
  // A softer or more specific wording the rule gives under this name ([rule.variants]), if any.
  std::string variant;
};

struct FunctionUnderLint {
  const SourceView& view;
  const kernels::Function& function;
  std::span<const Token> signature;
  std::span<const Token> body;  // braces included
  const BodyAnalysis& analysis;
  const KernelFacts* facts = nullptr;  // kernels only, where the caller supplied any
  std::span<const Token> whole;        // signature and body
};

// `unit` is the function the tokens are in (nullptr at file scope): some token classes read it.
void match_tokens(const Rule& rule, const SourceView& view, std::span<const Token> tokens, std::span<const Token> uses,
                  std::vector<Finding>& out, const FunctionUnderLint* unit = nullptr);
void match_compiler_fact(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
void match_launch_fact(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);

void match_barrier_in_divergent_branch(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
void match_atomic_uniform_address(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
void match_strided_thread_index(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
void match_shared_array_stride(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);

void match_division_in_loop(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
void match_local_array_dynamic_index(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
void match_pointer_parameters_without_restrict(const Rule& rule, const FunctionUnderLint& unit,
                                               std::vector<Finding>& out);
void match_volatile_shared_reduction(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
// Per function: __launch_bounds__; per file: <<<grid, block>>> launches.
void match_launch_bounds_block_size(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out);
void match_launch_block_size(const Rule& rule, const SourceView& view, std::vector<Finding>& out);

// Whether `word` stands in `text` as a whole identifier ("const" in "const float*", not in
// "constexpr").
bool has_word(std::string_view text, std::string_view word);

}  // namespace kforecast::lint
