// SPDX-License-Identifier: Apache-2.0
#pragma once

// The pieces of the sandbox's end-to-end tests: a pull-request job whose author is a fork's or a
// member's, run under kf_deny_syscalls (tests/support/deny_syscalls.cpp) to take a layer of the
// sandbox away; an nvcc that logs every call before it becomes the real one; doctor's lines.

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "base/subprocess.hpp"
#include "gate_job.hpp"
#include "support/cuda_requirements.hpp"

namespace kforecast::e2e {

// The layers a test takes away: kf_deny_syscalls' options ("--deny-landlock", ...).
inline std::vector<std::string> denying(std::vector<std::string> options) {
  std::vector<std::string> wrapper{KF_DENY_SYSCALLS};
  wrapper.insert(wrapper.end(), options.begin(), options.end());
  wrapper.emplace_back("--");
  return wrapper;
}

// Why kf_deny_syscalls cannot run here, or nullopt.
inline std::optional<std::string> missing_deny_syscalls() {
  auto ran = run_process({KF_DENY_SYSCALLS, "--deny-landlock", "--deny-userns", "--", "/bin/true"});
  if (!ran || ran->exit_status != 0)
    return "kf_deny_syscalls cannot install its seccomp filter here: " + (ran ? ran->err : ran.error().message);
  return std::nullopt;
}

using Author = PullRequestJob::Author;

// `folder`/bin/nvcc: appends its arguments to `folder`/nvcc.log, then becomes the toolkit's nvcc.
inline std::filesystem::path logging_nvcc(const std::filesystem::path& folder) {
  const auto shim = folder / "bin" / "nvcc";
  std::filesystem::create_directories(shim.parent_path());
  std::ofstream(shim) << "#!/bin/sh\necho \"$*\" >> '" << (folder / "nvcc.log").string() << "'\nexec '"
                      << testing::nvcc_for_tests() << "' \"$@\"\n";
  ::chmod(shim.c_str(), 0755);
  return shim;
}

// One kernel changed between two commits, the base's config naming `nvcc` (the logging one).
inline void commit_kernel_change(FixtureRepo& repo, const std::filesystem::path& nvcc) {
  repo.write(".kforecast.toml", "[cuda]\nnvcc = \"" + nvcc.string() + "\"\n");
  repo.write("k.cu", "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[threadIdx.x] = 2.0f * a[threadIdx.x]; }\n");
  repo.commit("head");
}

// `kforecast ARGS...` under `wrapper` in `cwd`, with a clean environment as run_kforecast gives.
inline Run kforecast_under(const std::vector<std::string>& wrapper, const std::vector<std::string>& args,
                           const std::filesystem::path& cwd = {}) {
  std::vector<std::string> argv{"env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp"};
  for (auto& variable : testing::toolkit_environment()) argv.push_back(std::move(variable));
  argv.insert(argv.end(), wrapper.begin(), wrapper.end());
  argv.emplace_back(KF_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = run_process(argv, {.working_directory = cwd.string(), .timeout = std::chrono::seconds(60)});
  REQUIRE(result.has_value());
  return {result->exit_status, result->out, result->err};
}

inline Run doctor_under(const std::vector<std::string>& wrapper) { return kforecast_under(wrapper, {"doctor"}); }

// Doctor's line of `label`, without its label, or "".
inline std::string doctor_line(const std::string& out, const std::string& label) {
  const std::string prefix = "  " + label + std::string(10 - label.size(), ' ');
  for (std::size_t at = 0; at < out.size();) {
    const auto end = out.find('\n', at);
    const std::string line = out.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.starts_with(prefix)) return line.substr(prefix.size());
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return "";
}

}  // namespace kforecast::e2e
