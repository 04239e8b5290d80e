// SPDX-License-Identifier: Apache-2.0
#pragma once

// An in-memory Compiler for tests: returns the output (or error) a test sets and records every
// request, so code above the compiler can be tested without NVRTC.

#include <functional>
#include <mutex>
#include <vector>

#include "cuda/compiler.hpp"

namespace kforecast::cuda {

class FakeCompiler final : public Compiler {
 public:
  using Handler = std::function<Result<CompileOutput>(const CompileRequest&)>;

  // By default every compile succeeds with an empty output.
  explicit FakeCompiler(Handler handler = {}, NvrtcVersion version = {13, 0})
      : m_handler(std::move(handler)), m_version(version) {}

  NvrtcVersion version() const override { return m_version; }
  std::string library_path() const override { return "/usr/local/cuda/lib64/libnvrtc.so.13"; }
  std::vector<int> supported_archs() const override { return {75, 80, 86, 87, 89, 90, 100, 120}; }
  Result<CompileOutput> compile(const CompileRequest& request) const override {
    {
      // Callers may compile two units at once (the identical-code tier does).
      std::lock_guard lock(m_mutex);
      m_requests.push_back(request);
    }
    if (m_handler) return m_handler(request);
    return CompileOutput{};
  }

  const std::vector<CompileRequest>& requests() const { return m_requests; }

 private:
  Handler m_handler;
  NvrtcVersion m_version;
  mutable std::mutex m_mutex;
  mutable std::vector<CompileRequest> m_requests;
};

}  // namespace kforecast::cuda
