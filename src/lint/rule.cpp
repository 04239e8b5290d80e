// SPDX-License-Identifier: Apache-2.0
#include "lint/rule.hpp"

#include <array>
#include <utility>

namespace kforecast::lint {
namespace {

constexpr std::array<std::pair<MatcherKind, std::string_view>, 12> matcher_names{{
    {MatcherKind::tokens, "tokens"},
    {MatcherKind::barrier_in_divergent_branch, "barrier_in_divergent_branch"},
    {MatcherKind::shared_array_stride, "shared_array_stride"},
    {MatcherKind::strided_thread_index, "strided_thread_index"},
    {MatcherKind::atomic_uniform_address, "atomic_uniform_address"},
    {MatcherKind::division_in_loop, "division_in_loop"},
    {MatcherKind::local_array_dynamic_index, "local_array_dynamic_index"},
    {MatcherKind::pointer_parameters_without_restrict, "pointer_parameters_without_restrict"},
    {MatcherKind::volatile_shared_reduction, "volatile_shared_reduction"},
    {MatcherKind::block_size, "block_size"},
    {MatcherKind::compiler_fact, "compiler_fact"},
    {MatcherKind::launch_fact, "launch_fact"},
}};

}  // namespace

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "warning";
}

std::optional<Severity> severity_from(std::string_view text) {
  for (Severity severity : {Severity::note, Severity::warning, Severity::error})
    if (to_string(severity) == text) return severity;
  return std::nullopt;
}

std::string_view to_string(MatcherKind kind) {
  for (const auto& [each, name] : matcher_names)
    if (each == kind) return name;
  return "tokens";
}

std::optional<MatcherKind> matcher_kind_from(std::string_view text) {
  for (const auto& [each, name] : matcher_names)
    if (name == text) return each;
  return std::nullopt;
}

}  // namespace kforecast::lint
