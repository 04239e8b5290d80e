// SPDX-License-Identifier: Apache-2.0
#pragma once

// Compiling a kernel's translation unit for a GPU. Abstract so tests and machines without NVRTC
// can supply a FakeCompiler; NvrtcCompiler (nvrtc.hpp) is the real one.

#include <cstddef>
#include <expected>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "cuda/ptxas_report.hpp"
#include "cuda/unavailable.hpp"

namespace kforecast::cuda {

struct NvrtcVersion {
  int major = 0;
  int minor = 0;
  std::string text() const { return std::to_string(major) + "." + std::to_string(minor); }
  friend bool operator==(const NvrtcVersion&, const NvrtcVersion&) = default;
};

// A header the source includes, given in memory (it need not exist on disk).
struct SourceHeader {
  std::string include_name;  // as written in #include "..."
  std::string text;
};

struct CompileRequest {
  std::string source;                   // the whole translation unit
  std::string file_name = "kernel.cu";  // named in diagnostics
  std::string arch = "sm_90";           // sm_XX: machine code (CUBIN) and PTX; compute_XX: PTX only
  std::vector<std::string> include_dirs;
  std::vector<std::pair<std::string, std::string>> defines;  // {"TILE", "64"} -> -DTILE=64; empty value -> -DNAME
  std::vector<std::string> options;                          // passed to NVRTC as they are, after the ones above
  std::vector<std::string> name_expressions;                 // "sgemm<64, 64>", "&ns::kernel": instantiated and lowered
  std::vector<SourceHeader> headers;
};

// Adds every field of `request` that decides what the compiler makes of it to `hasher`: the
// caches of compiled results (the PTX cache, the forecaster's facts) key on it.
inline void add_to_hash(ContentHasher& hasher, const CompileRequest& request) {
  hasher.add(request.source);
  hasher.add(request.file_name);
  hasher.add(request.arch);
  for (const auto& dir : request.include_dirs) hasher.add(dir);
  for (const auto& [name, value] : request.defines) hasher.add(name + "=" + value);
  for (const auto& option : request.options) hasher.add(option);
  for (const auto& expression : request.name_expressions) hasher.add(expression);
  for (const auto& header : request.headers) {
    hasher.add(header.include_name);
    hasher.add(header.text);
  }
}

struct LoweredName {
  std::string expression;  // "sgemm<64, 64>"
  std::string lowered;     // "_Z5sgemmILi64ELi64EEvPf"
};

struct CompileOutput {
  std::string ptx;
  std::vector<std::byte> cubin;            // empty for a compute_XX target
  std::string log;                         // NVRTC's whole program log, ptxas report included
  std::vector<KernelResources> functions;  // from the ptxas report; source_name set from lowered_names
  std::vector<LoweredName> lowered_names;  // one per name expression, in request order
  std::vector<std::string> options;        // the options the compiler was given
};

// -minimal (NVRTC 12.4+) leaves texture, surface and device-runtime declarations out of NVRTC's
// built-in header: about a third less front-end time, the same code for kernels that do not use
// them (those that do fail to compile that way and are compiled again in full).
inline bool supports_minimal_header(const NvrtcVersion& version) {
  return version.major > 12 || (version.major == 12 && version.minor >= 4);
}

class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual NvrtcVersion version() const = 0;
  virtual std::string library_path() const = 0;
  // Compute capabilities the compiler can target, e.g. {75, 80, 86, 89, 90, ...}; empty when the
  // library cannot say.
  virtual std::vector<int> supported_archs() const = 0;
  // A source that does not compile is an Error whose message carries the compile log.
  virtual Result<CompileOutput> compile(const CompileRequest& request) const = 0;
};

using LoadedCompiler = std::expected<std::unique_ptr<Compiler>, Unavailable>;

}  // namespace kforecast::cuda
