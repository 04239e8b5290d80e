// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real Compiler: NVRTC, opened at run time from the places library_search.hpp lists.
// Every compile asks ptxas for its verbose report, so each output carries resource usage.

#include <expected>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/compiler.hpp"
#include "cuda/dynamic_library.hpp"
#include "cuda/library_search.hpp"
#include "cuda/nvrtc_api.hpp"

namespace kforecast::cuda {

class NvrtcCompiler final : public Compiler {
 public:
  // The first candidate that opens and exports the NVRTC API; otherwise why not, with every
  // path tried.
  static std::expected<std::unique_ptr<NvrtcCompiler>, Unavailable> load(std::span<const std::string> candidates);

  NvrtcVersion version() const override { return m_version; }
  std::string library_path() const override { return m_path; }
  std::vector<int> supported_archs() const override { return m_supported_archs; }
  Result<CompileOutput> compile(const CompileRequest& request) const override;

 private:
  NvrtcCompiler(DynamicLibrary library, NvrtcApi api, std::string path);
  Result<std::string> program_log(nvrtcProgram program) const;
  Result<std::string> program_ptx(nvrtcProgram program) const;
  Result<std::vector<std::byte>> program_cubin(nvrtcProgram program, const CompileRequest& request) const;

  DynamicLibrary m_library;
  NvrtcApi m_api;
  std::string m_path;
  NvrtcVersion m_version;
  std::vector<int> m_supported_archs;
};

// NVRTC from nvrtc_candidates(options, env).
LoadedCompiler load_nvrtc(const LoaderOptions& options, const EnvLookup& env);

// The options a request turns into, in order: target, ptxas report, include dirs, defines, extras.
std::vector<std::string> nvrtc_options(const CompileRequest& request);

// The first lines of a compile log, enough to see the first errors in a message a user reads.
std::string log_excerpt(std::string_view log, std::size_t max_lines = 40);

// The name expressions of `requested` that a failed compile's log says NVRTC could not look up
// ("Input name expression was: \" no_such < 1 >\"", which NVRTC 11.8 to 13 all print, spaced
// between tokens), in request order. Where the log has errors in NVRTC's "__nv_name_map" but
// names none of them, all of `requested`: which one failed is then unknown, not absent. NVRTC
// 11.8 does not echo the expression's line under the error as 12 and 13 do, so without this a
// message names it on some versions only.
std::vector<std::string> unresolved_name_expressions(std::span<const std::string> requested, std::string_view log);

}  // namespace kforecast::cuda
