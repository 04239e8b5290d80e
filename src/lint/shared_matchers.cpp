// SPDX-License-Identifier: Apache-2.0
// Matchers over shared memory as a warp uses it: the volatile shared-memory warp reduction that
// relied on lanes running in lockstep before Volta.

#include <algorithm>

#include <fmt/format.h>

#include "kernels/token_text.hpp"
#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

bool is_barrier_call(std::span<const Token> tokens, std::size_t at) {
  if (at + 1 >= tokens.size() || !tokens[at + 1].is_punct("(") || !tokens[at].is_identifier()) return false;
  const std::string_view name = tokens[at].text();
  return name == "__syncwarp" || name == "__syncthreads" || name == "sync" || name == "__syncthreads_count" ||
         name == "__syncthreads_and" || name == "__syncthreads_or" || name == "bar_sync";
}

// The names the file declares __shared__ (static or extern arrays and scalars).
std::vector<std::string_view> shared_names(std::span<const Token> code) {
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (!code[i].is_identifier("__shared__")) continue;
    for (std::size_t k = i + 1; k + 1 < code.size(); ++k) {
      if (code[k].is_punct(";") || code[k].is_punct("{") || code[k].is_punct("}")) break;
      if (code[k].is_identifier() && (code[k + 1].is_punct("[") || code[k + 1].is_punct(";") ||
                                      code[k + 1].is_punct("=") || code[k + 1].is_punct(","))) {
        names.push_back(code[k].text());
        break;
      }
    }
  }
  return names;
}

// The first name an expression starts from, past casts, & and parentheses: `sdata` in
// `&sdata[k]`, `sdata + 32`, `(volatile float*)sdata`.
std::string_view base_name(std::span<const Token> tokens, std::size_t begin, std::size_t end) {
  for (std::size_t k = begin; k < end; ++k) {
    if (tokens[k].is_punct("(") && k + 1 < end && tokens[k + 1].is_identifier("volatile")) {
      k = closing(tokens, k);  // a C-style cast
      continue;
    }
    if (tokens[k].is_punct("<")) {  // reinterpret_cast<volatile float*>(...)
      k = kernels::matching_angle(tokens, k);
      continue;
    }
    if (tokens[k].is_identifier() && !tokens[k].is_identifier("reinterpret_cast") &&
        !tokens[k].is_identifier("static_cast") && !tokens[k].is_identifier("const_cast"))
      return tokens[k].text();
  }
  return {};
}

// Statements that read and write the volatile buffer at once (s[tid] += s[tid + 16];
// s[tid] = v = v + s[tid + 8];), in order, by the token index of their start.
std::vector<std::size_t> read_modify_writes(std::span<const Token> tokens, std::string_view name) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].is_identifier(name) || i + 1 >= tokens.size() || !tokens[i + 1].is_punct("[")) continue;
    // The statement's first word, what it writes: after ; { } or a control statement's header.
    const bool starts = i == 0 || tokens[i - 1].is_punct(";") || tokens[i - 1].is_punct("{") ||
                        tokens[i - 1].is_punct("}") || tokens[i - 1].is_punct(")") ||
                        tokens[i - 1].is_identifier("else");
    if (!starts) continue;
    const std::size_t close = closing(tokens, i + 1);
    if (close + 1 >= tokens.size()) continue;
    const Token& op = tokens[close + 1];
    const bool compound = op.is_punct("+=") || op.is_punct("-=") || op.is_punct("*=") || op.is_punct("|=") ||
                          op.is_punct("&=") || op.is_punct("^=");
    bool reads_again = false;
    if (compound || op.is_punct("=")) {
      for (std::size_t k = close + 2; k < tokens.size() && !tokens[k].is_punct(";"); ++k)
        if (tokens[k].is_identifier(name) && k + 1 < tokens.size() && tokens[k + 1].is_punct("[")) reads_again = true;
    }
    if (reads_again) found.push_back(i);
  }
  return found;
}

// A warp-synchronous reduction: two or more read-modify-write steps on the buffer (or one in a
// loop) with no barrier between the first and the last.
bool warp_synchronous(const FunctionUnderLint& unit, std::string_view name) {
  const auto tokens = unit.body;
  const auto steps = read_modify_writes(tokens, name);
  if (steps.empty() || (steps.size() < 2 && !unit.analysis.in_loop(steps.front()))) return false;
  const std::size_t last = steps.size() < 2 ? unit.analysis.innermost_loop(steps.front())->end : steps.back();
  const std::size_t first =
      steps.size() < 2 ? unit.analysis.innermost_loop(steps.front())->header_begin : steps.front();
  for (std::size_t k = first; k < last; ++k)
    if (is_barrier_call(tokens, k)) return false;
  return true;
}

// Whether a call of the function somewhere in the file passes shared memory as argument `index`.
bool called_with_shared(const FunctionUnderLint& unit, std::size_t index, const std::vector<std::string_view>& shared) {
  const auto code = unit.view.code();
  for (std::size_t i = 0; i + 1 < code.size(); ++i) {
    if (!code[i].is_identifier(unit.function.name) || (i > 0 && code[i - 1].is_identifier())) continue;
    std::size_t open = i + 1;
    if (code[open].is_punct("<")) open = kernels::matching_angle(code, open) + 1;
    if (open >= code.size() || !code[open].is_punct("(")) continue;
    const std::size_t close = closing(code, open);
    std::size_t begin = open + 1;
    for (std::size_t argument = 0; begin < close; ++argument) {
      const std::size_t end = std::min(close, expression_end(code, begin));
      if (argument == index) {
        const std::string_view base = base_name(code, begin, end);
        if (std::ranges::find(shared, base) != shared.end()) return true;
        break;
      }
      begin = end + 1;
    }
  }
  return false;
}

}  // namespace

// volatile shared memory reduced without __syncwarp(): a volatile __shared__ array, a volatile
// pointer set from a shared array, or a volatile pointer parameter a call in this file passes
// shared memory to. A volatile pointer into global memory (a flag, a cross-block staging buffer)
// is not this pattern, nor is a scan whose steps are separated by barriers.
void match_volatile_shared_reduction(const Rule&, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto shared = shared_names(unit.view.code());
  if (shared.empty()) return;
  const auto tokens = unit.body;
  // Parameters: volatile T* name.
  for (std::size_t p = 0; p < unit.function.parameters.size(); ++p) {
    const auto& parameter = unit.function.parameters[p];
    if (parameter.name.empty() || parameter.type.find("volatile") == std::string::npos ||
        parameter.type.find('*') == std::string::npos)
      continue;
    if (!called_with_shared(unit, p, shared) || !warp_synchronous(unit, parameter.name)) continue;
    std::size_t at = unit.function.signature.begin;
    for (const auto& token : unit.signature)
      if (token.is_identifier(parameter.name)) at = unit.view.offset(token);
    out.push_back({at, fmt::format("{} {}", parameter.type, parameter.name)});
  }
  // Locals: __shared__ volatile T s[...]; volatile T* p = shared...;
  const auto& variables = unit.analysis.variables();
  for (std::size_t id = 0; id < variables.size(); ++id) {
    const Variable& v = variables[id];
    if (v.free()) continue;
    bool is_volatile = false, is_shared = false;
    for (std::size_t k = v.type_begin; k < v.type_end; ++k) {
      is_volatile = is_volatile || tokens[k].is_identifier("volatile");
      is_shared = is_shared || tokens[k].is_identifier("__shared__");
    }
    if (!is_volatile) continue;
    if (!is_shared)
      for (const auto& [begin, end, compound] : variables.assigned(id))
        if (!compound && std::ranges::find(shared, base_name(tokens, begin, end)) != shared.end()) is_shared = true;
    if (!is_shared || !warp_synchronous(unit, v.name)) continue;
    out.push_back({unit.view.offset(tokens[v.declared_at]),
                   fmt::format("{} {}", unit.view.text_of(tokens, v.type_begin, v.type_end), v.name)});
  }
}

}  // namespace kforecast::lint
