// SPDX-License-Identifier: Apache-2.0
#include "gate/compile_warnings.hpp"

#include <map>

#include <fmt/format.h>

namespace kforecast::gate {
namespace {

std::string kernels(std::size_t count) { return fmt::format("{} kernel{}", count, count == 1 ? "" : "s"); }

void add(GateRun& run, report::RunWarning warning, std::ostream& err) {
  err << "kforecast: warning: " << report::warning_text(warning) << "\n";
  run.warnings.push_back(std::move(warning));
}

// Kernels whose units cannot be compiled here for want of PyTorch's headers.
void warn_of_blocked(GateRun& run, const builds::MachineCodeVerdicts& code, std::ostream& err) {
  if (code.blocked_kernels.empty() || code.blocked_reason.empty()) return;
  const auto colon = code.blocked_reason.find(": ");
  add(run,
      {fmt::format("{} not compiled: {}", kernels(code.blocked_kernels.size()), code.blocked_reason.substr(0, colon)),
       colon == std::string::npos ? std::string() : code.blocked_reason.substr(colon + 2)},
      err);
}

// The header most kernels could not be compiled without ("missing <cute/tensor.hpp>").
void warn_of_missing_header(GateRun& run, const builds::MachineCodeVerdicts& code, std::ostream& err) {
  std::map<std::string, std::size_t> by_header;
  std::size_t all = 0;
  using policy::CodeComparison;
  const auto compared = [](const builds::KernelCodeVerdict& verdict) {
    return verdict.outcome && (*verdict.outcome == CodeComparison::identical || *verdict.outcome == CodeComparison::different);
  };
  for (const auto& verdict : code.kernels)
    if (!compared(verdict) && verdict.missing_context.starts_with("missing <")) {
      ++by_header[verdict.missing_context];
      ++all;
    }
  if (by_header.empty()) return;
  const auto most = std::ranges::max_element(by_header, {}, [](const auto& entry) { return entry.second; });
  const std::string header = most->first.substr(std::string_view("missing ").size());
  std::string headline = fmt::format("{} not compiled: {} not found", kernels(most->second), header);
  if (all > most->second) headline += fmt::format(" ({} more for other headers)", all - most->second);
  add(run,
      {std::move(headline),
       "the compile context kforecast has does not reach it: check out the project's submodules "
       "(actions/checkout: `submodules: recursive`), install the library that provides it, or give kforecast the "
       "project's compile_commands.json or compile.include_dirs (docs/compile-context.md); the run's notes say where "
       "the context came from"},
      err);
}

}  // namespace

void warn_of_uncompiled_kernels(GateRun& run, const builds::MachineCodeVerdicts& code, std::ostream& err) {
  warn_of_blocked(run, code, err);
  warn_of_missing_header(run, code, err);
}

}  // namespace kforecast::gate
