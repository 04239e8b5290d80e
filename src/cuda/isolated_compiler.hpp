// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Compiler kforecast uses for code under review: every compile checks the includes
// (include_confinement.hpp) and then runs NVRTC in a child process (compile_child.hpp) that has
// no secret in its environment, a scratch folder, confined file access and limits on memory,
// time and output. A compiler that crashes, hangs or floods its output fails that one compile
// with a note; kforecast's run goes on. NVRTC is also loaded here, in the parent, but only to
// answer version() and supported_archs(): no source is ever handed to it in this process.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/environment.hpp"
#include "cuda/compiler.hpp"
#include "cuda/include_confinement.hpp"

namespace kforecast::cuda {

struct IsolationSettings {
  std::string program;  // kforecast's own executable, run as the child
  IncludeRoots roots;
  std::chrono::seconds timeout{600};
  std::uint64_t max_memory_bytes = std::uint64_t{16} << 30;  // address space: NVRTC reserves more than it touches
  std::uint64_t max_cpu_seconds = 900;
  std::size_t max_answer_bytes = std::size_t{512} << 20;
};

class IsolatedCompiler final : public Compiler {
 public:
  // `nvrtc` is the library found in this process; the child loads the same file.
  IsolatedCompiler(std::unique_ptr<Compiler> nvrtc, IsolationSettings settings);

  NvrtcVersion version() const override { return m_nvrtc->version(); }
  std::string library_path() const override { return m_nvrtc->library_path(); }
  std::vector<int> supported_archs() const override { return m_nvrtc->supported_archs(); }
  Result<CompileOutput> compile(const CompileRequest& request) const override;

 private:
  std::unique_ptr<Compiler> m_nvrtc;
  IsolationSettings m_settings;
};

// The compiler child's whole environment: nothing of kforecast's (it holds the CI's tokens and
// API keys) but what starting the same executable needs.
std::vector<std::string> compile_child_environment(const std::string& scratch, const EnvLookup& env);

}  // namespace kforecast::cuda
