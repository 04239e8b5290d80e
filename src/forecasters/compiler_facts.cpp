// SPDX-License-Identifier: Apache-2.0
#include "forecasters/compiler_facts.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace kforecast::forecasters {

std::string ptx_instruction_mix(const std::string& ptx, const std::string& entry_name) {
  const std::size_t entry = ptx.find(".entry " + entry_name);
  if (entry == std::string::npos) return "";
  std::size_t end = ptx.find(".entry ", entry + 7);
  if (end == std::string::npos) end = ptx.size();
  const std::string_view body = std::string_view(ptx).substr(entry, end - entry);
  // Prefixes that begin an instruction (after the tab PTX puts before each one).
  constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kinds{{
      {"\tld.global", "global loads"},
      {"\tst.global", "global stores"},
      {"\tld.shared", "shared loads"},
      {"\tst.shared", "shared stores"},
      {"\tfma.", "fma"},
      {"\tmma.", "mma (tensor cores)"},
      {"\twgmma.", "wgmma (tensor cores)"},
      {"\tatom.", "atomics"},
      {"\tbar.", "barriers"},
      {"\tbra", "branches"},
  }};
  std::string mix;
  std::size_t total = 0;
  for (std::size_t at = body.find("\n\t"); at != std::string_view::npos; at = body.find("\n\t", at + 1)) ++total;
  for (const auto& [prefix, label] : kinds) {
    std::size_t count = 0;
    for (std::size_t at = body.find(prefix); at != std::string_view::npos; at = body.find(prefix, at + 1)) ++count;
    if (count > 0) mix += fmt::format("{}{} {}", mix.empty() ? "" : ", ", count, label);
  }
  return fmt::format("PTX lines {}{}{}", total, mix.empty() ? "" : ": ", mix);
}

std::string compiler_facts(const cuda::Compiler& compiler, const policy::CompileUnit& unit,
                           const std::string& name_expression, const std::string& arch) {
  cuda::CompileRequest request{.source = unit.source,
                               .file_name = unit.file_name,
                               .arch = arch,
                               .include_dirs = unit.include_dirs,
                               .options = unit.options,
                               .name_expressions = {name_expression},
                               .headers = unit.headers};
  auto output = compiler.compile(request);
  if (!output || output->lowered_names.empty()) return "";
  const std::string& lowered = output->lowered_names.front().lowered;
  const cuda::KernelResources* kernel = cuda::find_function(output->functions, lowered);
  if (kernel == nullptr) return "";
  std::string facts = fmt::format(
      "for {}: {} registers per thread, {} bytes spill stores, {} bytes spill loads, {} bytes stack frame, "
      "{} bytes static shared memory, {} bytes local memory, {} bytes constant memory, {} barriers",
      kernel->arch.empty() ? arch : kernel->arch, kernel->registers, kernel->spill_store_bytes,
      kernel->spill_load_bytes, kernel->stack_frame_bytes, kernel->shared_bytes, kernel->local_bytes,
      kernel->constant_bytes, kernel->barriers);
  if (auto mix = ptx_instruction_mix(output->ptx, lowered); !mix.empty()) facts += "\n" + mix;
  return facts;
}

}  // namespace kforecast::forecasters
