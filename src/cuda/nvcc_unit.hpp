// SPDX-License-Identifier: Apache-2.0
#pragma once

// Compiling one translation unit the way the project's build does: the CUDA toolkit's nvcc on
// the whole unit (host code included, so <cublas_v2.h>, <cstdint> and host templates are fine),
// with the project's include folders, defines and flags, to one architecture's machine code (a
// cubin holding every kernel instantiation the unit makes). The unit is code under review: nvcc
// runs confined (base/confined_exec.hpp) with an environment without secrets, in a scratch
// folder, reading only the revision's files on disk, the toolkit and the system's compiler.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::cuda {

struct UnitBuildRequest {
  std::filesystem::path tree;          // the revision's files on disk (nvcc's working folder)
  std::string unit;                    // the .cu, relative to `tree`
  std::vector<std::string> arguments;  // the compile context: -I (relative to `tree`), -D, -std=, flags
  std::string arch = "sm_90";          // sm_XX: machine code for that architecture
  // Wall-clock limit of this compile where the caller's budget leaves less than the compiler's
  // own (NvccSettings::timeout); 0: the compiler's own.
  std::chrono::milliseconds time_limit{0};
};

struct UnitBuildOutput {
  std::vector<std::byte> cubin;
  std::string log;                           // warnings, if any
  std::vector<std::string> project_headers;  // files of `tree` the unit read (its depfile), the unit excluded
  std::vector<std::string> command;          // the compiler's arguments, for the report
};

// A compiler of whole units. Abstract so tests and machines without a toolkit can supply a fake.
class UnitCompiler {
 public:
  virtual ~UnitCompiler() = default;
  // "nvcc 13.0": names the compiler in reports, and keys the unit cache.
  virtual std::string name() const = 0;
  // A unit that does not compile is an Error (ExitCode::gate_failed) whose message is the log,
  // first error first; a compiler that could not run, crashed or ran too long is one too, with
  // ExitCode::could_not_run.
  virtual Result<UnitBuildOutput> compile(const UnitBuildRequest& request) const = 0;
};

struct NvccSettings {
  std::string nvcc;     // absolute path
  std::string version;  // "13.0"
  std::string program;  // kforecast's own executable, run as the confining child
  std::chrono::seconds timeout{600};
  std::uint64_t max_memory_bytes = std::uint64_t{16} << 30;
  std::uint64_t max_cpu_seconds = 900;
  std::size_t max_log_bytes = std::size_t{4} << 20;
};

class NvccUnitCompiler final : public UnitCompiler {
 public:
  explicit NvccUnitCompiler(NvccSettings settings) : m_settings(std::move(settings)) {}
  std::string name() const override { return "nvcc " + m_settings.version; }
  Result<UnitBuildOutput> compile(const UnitBuildRequest& request) const override;

 private:
  NvccSettings m_settings;
};

// The files a make-format dependency file (nvcc -MD -MF) lists as prerequisites, in order, with
// its escapes undone ("a\ b.h" is one file). Untrusted: the unit's includes name them.
std::vector<std::string> parse_depfile(std::string_view text);

}  // namespace kforecast::cuda
