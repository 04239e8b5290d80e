// SPDX-License-Identifier: Apache-2.0
#pragma once

// Compiler facts for the lint: each .cu file compiled with NVRTC (device code only, as the pr
// gate does), ptxas' report mapped to the scanner's kernel names. Results are cached on disk by
// the compile request's key, so a second run over the same sources compiles nothing. What makes
// a cold run cheaper (docs/perf/lint-stage.md): only the kernels with added lines are compiled,
// and NVRTC 12.4+ compiles with -minimal (a smaller built-in header) first.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cuda/compiler.hpp"
#include "lint/facts.hpp"

namespace kforecast::lint_run {

struct FactsRequest {
  std::string path;  // repository-relative, for messages
  std::string text;
  std::vector<cuda::SourceHeader> headers;  // local headers it includes, as the source spells them
  std::vector<std::string> include_dirs;  // repository-relative, or system folders
  // The added lines (ascending) when only the kernels they touch need facts (--staged): the
  // bodies of the other kernels are left out of the compile, and a file whose kernels have no
  // added line is not compiled. nullptr: every kernel.
  const std::vector<std::uint32_t>* added = nullptr;
  std::vector<std::string> options;  // the file's compile context as NVRTC options: -D, -U, -std, code flags
};

struct FactsResult {
  std::map<std::string, lint::FactsByKernel, std::less<>> by_path;
  // Files that did not compile, and why: "compiler facts unavailable for k.cu: <first error>".
  std::vector<std::string> not_compiled;
};

// Compiles the files in parallel. `cache_directory` may be empty (no cache).
FactsResult gather_compiler_facts(const cuda::Compiler& compiler, const std::vector<FactsRequest>& files,
                                  const std::string& arch, const std::optional<std::filesystem::path>& cache_directory,
                                  const std::string& cuda_include_dir);

// "ns::k" from a mangled name ("_ZN2ns1kEPf"), or the name itself when it is not mangled
// (extern "C"); template arguments are dropped.
std::string demangled_qualified_name(std::string_view mangled);

}  // namespace kforecast::lint_run
