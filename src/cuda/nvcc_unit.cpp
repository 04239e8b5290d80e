// SPDX-License-Identifier: Apache-2.0
#include "cuda/nvcc_unit.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "base/confined_exec.hpp"
#include "base/environment.hpp"
#include "base/scratch_folder.hpp"
#include "base/shell_text.hpp"
#include "base/subprocess.hpp"
#include "cuda/isolated_compiler.hpp"

namespace kforecast::cuda {
namespace {

namespace fs = std::filesystem;

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What nvcc and the programs it starts may read: the toolkit, the system's compiler, headers and
// libraries, the revision's files, and the absolute include folders of the unit's context (a
// system library's, or PyTorch's in a virtual environment: the context's readers admit no other,
// context/include_folder.hpp). Nothing else: not the runner's home, not /proc of other processes,
// not the repository's .git.
Confinement nvcc_confinement(const NvccSettings& settings, const fs::path& tree, const std::string& scratch,
                             const std::vector<std::string>& arguments) {
  Confinement confinement;
  confinement.readable = {"/usr", "/lib", "/lib64", "/bin", "/etc/ld.so.cache", "/dev/null", "/dev/urandom", tree};
  for (const std::string& argument : arguments)
    if (const fs::path folder = argument.starts_with("-I/") ? argument.substr(2) : std::string();
        folder.has_relative_path() && folder.lexically_normal() == folder)
      confinement.readable.push_back(folder);
  std::error_code ec;
  // The toolkit's root: nvcc lives in <root>/bin and reads <root>/bin/nvcc.profile, <root>/include, <root>/nvvm.
  const fs::path root = fs::canonical(fs::path(settings.nvcc), ec).parent_path().parent_path();
  if (!ec) confinement.readable.push_back(root);
  confinement.writable = {scratch};
  confinement.max_memory_bytes = settings.max_memory_bytes;
  confinement.max_cpu_seconds = settings.max_cpu_seconds;
  confinement.sockets = SocketAccess::none;  // no compiler it starts opens one
  return confinement;
}

// The unit's path is taken from a pull request: relative, inside the tree, no "..".
bool is_plain_relative(const std::string& path) {
  if (path.empty() || path.starts_with('/') || path.starts_with('-')) return false;
  for (const auto& part : fs::path(path))
    if (part == "..") return false;
  return true;
}

// nvcc runs its stages through a shell (base/shell_text.hpp). The context's readers refuse such
// text with a note; this is the last check, for every caller: a define may hold quotes (nvcc
// escapes them there), a path or another flag may not.
std::optional<std::string> shell_unsafe_argument(const UnitBuildRequest& request) {
  const auto refusal = [](std::string_view what, std::string_view text, char c) {
    return fmt::format("not compiled: {} '{}' holds {}, which the shell nvcc runs its steps in would act on", what,
                       text, describe_character(c));
  };
  if (auto c = shell_active_or_quote(request.unit)) return refusal("its file name", request.unit, *c);
  for (const std::string& argument : request.arguments) {
    const bool define = argument.starts_with("-D") || argument.starts_with("--define-macro");
    if (auto c = define ? shell_active_character(argument) : shell_active_or_quote(argument))
      return refusal("the argument", argument, *c);
  }
  return std::nullopt;
}

// A repository file from a depfile entry (relative to the tree, or absolute inside it), or "".
std::string project_file(const std::string& entry, const fs::path& tree) {
  fs::path path(entry);
  if (path.is_absolute()) {
    const auto relative = path.lexically_relative(tree);
    if (relative.empty() || relative.begin()->string() == "..") return {};
    path = relative;
  }
  path = path.lexically_normal();
  if (path.empty() || path.begin()->string() == "..") return {};
  return path.generic_string();
}

}  // namespace

Result<UnitBuildOutput> NvccUnitCompiler::compile(const UnitBuildRequest& request) const {
  const std::string where = fmt::format("compiling {} with {} for {}: ", request.unit, name(), request.arch);
  if (!is_plain_relative(request.unit)) return fail(ExitCode::gate_failed, where + "not a path inside the repository");
  if (auto refused = shell_unsafe_argument(request)) return fail(ExitCode::could_not_run, where + *refused);
  const ScratchFolder scratch("kforecast-nvcc");
  if (scratch.path().empty()) return fail(ExitCode::could_not_run, where + "cannot create a scratch folder");
  const fs::path cubin = fs::path(scratch.path()) / "unit.cubin";
  const fs::path depfile = fs::path(scratch.path()) / "unit.d";

  UnitBuildOutput output;
  output.command = {m_settings.nvcc, "-cubin", "-arch=" + request.arch};
  output.command.insert(output.command.end(), request.arguments.begin(), request.arguments.end());
  output.command.insert(output.command.end(), {"-MD", "-MF", depfile.string(), "-o", cubin.string(), request.unit});

  // The confinement and the working folder are absolute: nvcc runs inside the tree, where a
  // relative path would name tree/tree.
  std::error_code ec;
  const fs::path tree = fs::absolute(request.tree, ec);
  std::vector<std::string> argv = {m_settings.program, std::string(confined_exec_command)};
  for (auto& argument : confined_exec_arguments(nvcc_confinement(m_settings, tree, scratch.path(), request.arguments), output.command))
    argv.push_back(std::move(argument));
  ProcessOptions options;
  options.working_directory = tree.string();
  options.timeout = request.time_limit.count() > 0
                        ? std::min<std::chrono::milliseconds>(request.time_limit, m_settings.timeout)
                        : std::chrono::milliseconds(m_settings.timeout);
  options.max_output_bytes = m_settings.max_log_bytes;
  // The same environment as NVRTC's confined child: nothing of kforecast's (the CI's tokens).
  options.environment = compile_child_environment(scratch.path(), process_environment());
  auto ran = run_process(argv, options);
  if (!ran) return fail(ExitCode::could_not_run, where + "nvcc was stopped: " + ran.error().message);
  std::string log = ran->out + ran->err;
  if (ran->signal)
    return fail(ExitCode::could_not_run,
                where + fmt::format("nvcc crashed ({}){}", signal_name(*ran->signal), log.empty() ? "" : ": " + log));
  // The confining child's own failure (it never became nvcc) names itself.
  if (ran->exit_status != 0 && ran->err.starts_with("kforecast: error: "))
    return fail(ExitCode::could_not_run, where + ran->err.substr(18));
  if (ran->exit_status != 0) return fail(ExitCode::gate_failed, log.empty() ? where + "nvcc failed without a message" : log);

  const std::string bytes = read_whole(cubin);
  if (bytes.empty()) return fail(ExitCode::could_not_run, where + "nvcc wrote no cubin");
  output.cubin.resize(bytes.size());
  std::memcpy(output.cubin.data(), bytes.data(), bytes.size());
  output.log = std::move(log);
  for (const auto& entry : parse_depfile(read_whole(depfile)))
    if (auto file = project_file(entry, tree); !file.empty() && file != request.unit)
      output.project_headers.push_back(std::move(file));
  return output;
}

std::vector<std::string> parse_depfile(std::string_view text) {
  std::vector<std::string> files;
  // The target ends at the first unescaped ':' followed by white space (a Windows drive letter
  // never appears here).
  std::size_t at = 0;
  for (; at < text.size(); ++at) {
    if (text[at] == '\\') {
      ++at;
      continue;
    }
    if (text[at] == ':' && (at + 1 == text.size() || text[at + 1] == ' ' || text[at + 1] == '\n' ||
                            text[at + 1] == '\t' || text[at + 1] == '\r'))
      break;
  }
  if (at >= text.size()) return files;
  std::string current;
  auto finish = [&] {
    if (!current.empty()) files.push_back(std::move(current));
    current.clear();
  };
  for (++at; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '\\' && at + 1 == text.size()) break;  // a continuation of nothing
    if (c == '\\') {
      const char next = text[at + 1];
      if (next == '\n' || next == '\r') {  // a line continuation
        finish();
        ++at;
        continue;
      }
      if (next == ' ' || next == '\\' || next == '#' || next == ':') {
        current.push_back(next);
        ++at;
        continue;
      }
      current.push_back(c);
      continue;
    }
    if (c == '$' && at + 1 < text.size() && text[at + 1] == '$') {
      current.push_back('$');
      ++at;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      finish();
      continue;
    }
    if (c == '\n') {  // the rule ends; later rules (phony targets of -MP) name no new file
      finish();
      break;
    }
    current.push_back(c);
  }
  finish();
  return files;
}

}  // namespace kforecast::cuda
