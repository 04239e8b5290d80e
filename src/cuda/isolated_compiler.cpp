// SPDX-License-Identifier: Apache-2.0
#include "cuda/isolated_compiler.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "base/scratch_folder.hpp"
#include "base/subprocess.hpp"
#include "cuda/compile_child.hpp"
#include "cuda/compile_wire.hpp"
#include "cuda/compiled_resources.hpp"

namespace kforecast::cuda {
namespace {

// LeakSanitizer reads /proc/self/task at exit, which the child's Landlock rules keep it from: the
// sanitizer build (tests only) turns the child's leak check off; the parent's still runs.
#ifdef KF_SANITIZED
constexpr bool child_leak_check_off = true;
#else
constexpr bool child_leak_check_off = false;
#endif

// The resources of each kernel come from the ptxas report in the log and the cubin, named after the name
// expressions the child lowered: the same as NvrtcCompiler::compile gives.
void attach_resources(CompileOutput& output) {
  output.functions = compiled_resources(output.log, output.cubin);
  for (const auto& name : output.lowered_names)
    for (auto& function : output.functions)
      if (function.name == name.lowered) function.source_name = name.expression;
}

}  // namespace

IsolatedCompiler::IsolatedCompiler(std::unique_ptr<Compiler> nvrtc, IsolationSettings settings)
    : m_nvrtc(std::move(nvrtc)), m_settings(std::move(settings)) {}

Result<CompileOutput> IsolatedCompiler::compile(const CompileRequest& request) const {
  const std::string where = fmt::format("compiling {} for {}: ", request.file_name, request.arch);
  auto confined = confine_includes(request, m_settings.roots);
  if (!confined) return fail(confined.error().exit_code, where + confined.error().message);

  const ScratchFolder scratch("kforecast-compile");
  if (scratch.path().empty()) return fail(ExitCode::could_not_run, where + "cannot create a scratch folder");
  CompileChildSettings child;
  child.nvrtc_library = m_nvrtc->library_path();
  child.readable = m_settings.roots.toolkit;
  child.max_memory_bytes = m_settings.max_memory_bytes;
  child.max_cpu_seconds = m_settings.max_cpu_seconds;
  std::vector<std::string> argv = {m_settings.program, std::string(compile_child_command)};
  for (auto& argument : compile_child_arguments(child)) argv.push_back(std::move(argument));

  ProcessOptions options;
  options.working_directory = scratch.path();
  options.input = encode_request(*confined);
  options.timeout = m_settings.timeout;
  options.max_output_bytes = m_settings.max_answer_bytes;
  options.environment = compile_child_environment(scratch.path(), process_environment());
  auto ran = run_process(argv, options);
  if (!ran)
    return fail(ExitCode::gate_failed,
                where + fmt::format("the compiler was stopped: {}",
                                    ran.error().message.find("did not finish") != std::string::npos
                                        ? fmt::format("it ran past {} s", m_settings.timeout.count())
                                        : ran.error().message));
  if (ran->signal)
    return fail(ExitCode::gate_failed, where + fmt::format("the compiler crashed ({})", signal_name(*ran->signal)));
  if (ran->exit_status != 0) {
    std::string reason = ran->err.substr(0, 2000);
    while (!reason.empty() && reason.back() == '\n') reason.pop_back();
    return fail(ExitCode::could_not_run,
                where + fmt::format("the compiler child failed (exit {}): {}", ran->exit_status, reason));
  }
  auto answer = decode_answer(ran->out);
  if (!answer) return fail(ExitCode::could_not_run, where + answer.error().message);
  if (!answer->output) return std::unexpected(answer->output.error());
  attach_resources(*answer->output);
  return std::move(*answer->output);
}

std::vector<std::string> compile_child_environment(const std::string& scratch, const EnvLookup& env) {
  std::vector<std::string> environment = {"PATH=/usr/bin:/bin", "HOME=" + scratch, "TMPDIR=" + scratch, "LC_ALL=C"};
  // The loader's path is how kforecast itself was started where its libraries are not the
  // system's (a carried build, a conda environment): without it the child cannot start.
  if (auto libraries = env("LD_LIBRARY_PATH"); libraries && !libraries->empty())
    environment.push_back("LD_LIBRARY_PATH=" + *libraries);
  if (child_leak_check_off) environment.push_back("ASAN_OPTIONS=detect_leaks=0");
  return environment;
}

}  // namespace kforecast::cuda
