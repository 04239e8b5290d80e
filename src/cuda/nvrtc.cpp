// SPDX-License-Identifier: Apache-2.0
#include "cuda/nvrtc.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/compiled_resources.hpp"

namespace kforecast::cuda {

namespace {

// Destroys the program on every path out of compile().
class ProgramGuard {
 public:
  ProgramGuard(const NvrtcApi& api, nvrtcProgram program) : m_api(api), m_program(program) {}
  ProgramGuard(const ProgramGuard&) = delete;
  ProgramGuard& operator=(const ProgramGuard&) = delete;
  ~ProgramGuard() {
    if (m_program != nullptr) m_api.nvrtcDestroyProgram(&m_program);
  }

 private:
  const NvrtcApi& m_api;
  nvrtcProgram m_program;
};

// The name of the first required entry point `library` lacks, or empty when it has them all.
std::string bind_api(const DynamicLibrary& library, NvrtcApi& api) {
  const std::string missing = first_unbound({
      KF_BIND(library, api, nvrtcGetErrorString),
      KF_BIND(library, api, nvrtcVersion),
      KF_BIND(library, api, nvrtcCreateProgram),
      KF_BIND(library, api, nvrtcDestroyProgram),
      KF_BIND(library, api, nvrtcCompileProgram),
      KF_BIND(library, api, nvrtcGetPTXSize),
      KF_BIND(library, api, nvrtcGetPTX),
      KF_BIND(library, api, nvrtcGetProgramLogSize),
      KF_BIND(library, api, nvrtcGetProgramLog),
      KF_BIND(library, api, nvrtcAddNameExpression),
      KF_BIND(library, api, nvrtcGetLoweredName),
  });
  library.bind("nvrtcGetCUBINSize", api.nvrtcGetCUBINSize);
  library.bind("nvrtcGetCUBIN", api.nvrtcGetCUBIN);
  library.bind("nvrtcGetNumSupportedArchs", api.nvrtcGetNumSupportedArchs);
  library.bind("nvrtcGetSupportedArchs", api.nvrtcGetSupportedArchs);
  return missing;
}

std::vector<int> query_supported_archs(const NvrtcApi& api) {
  if (api.nvrtcGetNumSupportedArchs == nullptr || api.nvrtcGetSupportedArchs == nullptr) return {};
  int count = 0;
  if (!KF_NVRTC_CALL(api, api.nvrtcGetNumSupportedArchs(&count)) || count <= 0 || count > 4096) return {};
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (!KF_NVRTC_CALL(api, api.nvrtcGetSupportedArchs(archs.data()))) return {};
  return archs;
}

std::string compiling(const CompileRequest& request) {
  return "compiling " + request.file_name + " for " + request.arch + ": ";
}

// NVRTC reads a UTF-8 byte-order mark as an unrecognized token where nvcc and host compilers
// skip it; blanked, the text compiles as the project's build compiles it, columns unchanged.
std::string without_byte_order_mark(const std::string& text) {
  if (!text.starts_with("\xEF\xBB\xBF")) return text;
  return "   " + text.substr(3);
}

}  // namespace

std::vector<std::string> unresolved_name_expressions(std::span<const std::string> requested, std::string_view log) {
  const auto without_blanks = [](std::string_view text) {
    std::string packed;
    for (const char c : text)
      if (c != ' ' && c != '\t') packed += c;
    return packed;
  };
  constexpr std::string_view marker = "Input name expression was: \"";
  std::vector<std::string> reported;
  for (auto at = log.find(marker); at != std::string_view::npos; at = log.find(marker, at + 1)) {
    const auto begin = at + marker.size();
    const auto end = log.find_first_of("\"\n", begin);
    reported.push_back(without_blanks(log.substr(begin, end == std::string_view::npos ? end : end - begin)));
  }
  std::vector<std::string> unresolved;
  for (const auto& expression : requested)
    if (std::ranges::find(reported, without_blanks(expression)) != reported.end()) unresolved.push_back(expression);
  if (unresolved.empty() && log.find("__nv_name_map") != std::string_view::npos)
    unresolved.assign(requested.begin(), requested.end());
  return unresolved;
}

NvrtcCompiler::NvrtcCompiler(DynamicLibrary library, NvrtcApi api, std::string path)
    : m_library(std::move(library)), m_api(api), m_path(std::move(path)) {}

std::expected<std::unique_ptr<NvrtcCompiler>, Unavailable> NvrtcCompiler::load(
    std::span<const std::string> candidates) {
  std::vector<LoadAttempt> tried;
  bool found_any = false;
  for (auto rest = candidates; !rest.empty();) {
    auto opened = open_first(rest);
    if (!opened) {
      tried.insert(tried.end(), opened.error().tried.begin(), opened.error().tried.end());
      break;
    }
    tried.insert(tried.end(), opened->failed.begin(), opened->failed.end());
    rest = rest.subspan(opened->index + 1);
    found_any = true;

    NvrtcApi api;
    if (auto missing = bind_api(opened->library, api); !missing.empty()) {
      tried.push_back({opened->path, "opened, but it does not export " + missing});
      continue;
    }
    NvrtcVersion version;
    if (auto ok = KF_NVRTC_CALL(api, api.nvrtcVersion(&version.major, &version.minor)); !ok) {
      tried.push_back({opened->path, "opened, but " + ok.error().message});
      continue;
    }
    // NVRTC keeps internal allocations (and libnvrtc-builtins) for the life of the process;
    // unloading it frees nothing that matters and hides its frames from leak checkers.
    opened->library.keep_loaded();
    std::string path = opened->library.loaded_path();
    if (path.empty()) path = opened->path;
    // NVRTC opens libnvrtc-builtins by soname at its first compile; mapped here by path first,
    // it is found where the loader would not look (the private toolkit, a CUDA_HOME outside
    // ld.so.cache). Where this fails, that compile reports the missing library itself.
    if (auto builtins = nvrtc_builtins_beside(path, version.major, version.minor); !builtins.empty())
      if (auto loaded = DynamicLibrary::open(builtins)) loaded->keep_loaded();
    auto compiler = std::unique_ptr<NvrtcCompiler>(new NvrtcCompiler(std::move(opened->library), api, std::move(path)));
    compiler->m_version = version;
    compiler->m_supported_archs = query_supported_archs(api);
    return compiler;
  }
  Unavailable missing;
  missing.what = found_any ? "no usable NVRTC found" : "NVRTC not found";
  missing.consequence = "compiler facts and benchmarks unavailable";
  missing.fix = "install the CUDA toolkit's NVRTC or set cuda.nvrtc_library / KFORECAST_NVRTC_LIBRARY";
  missing.tried = std::move(tried);
  return std::unexpected(std::move(missing));
}

LoadedCompiler load_nvrtc(const LoaderOptions& options, const EnvLookup& env) {
  const auto candidates = nvrtc_candidates(options, env);
  auto compiler = NvrtcCompiler::load(candidates);
  if (!compiler) return std::unexpected(std::move(compiler.error()));
  return std::unique_ptr<Compiler>(std::move(*compiler));
}

std::vector<std::string> nvrtc_options(const CompileRequest& request) {
  std::vector<std::string> options = {"--gpu-architecture=" + request.arch, "--ptxas-options=--verbose"};
  for (const auto& directory : request.include_dirs) options.push_back("--include-path=" + directory);
  for (const auto& [name, value] : request.defines)
    options.push_back("--define-macro=" + name + (value.empty() ? "" : "=" + value));
  options.insert(options.end(), request.options.begin(), request.options.end());
  return options;
}

std::string log_excerpt(std::string_view log, std::size_t max_lines) {
  std::string excerpt;
  std::size_t lines = 0;
  while (!log.empty() && lines < max_lines) {
    const auto newline = log.find('\n');
    excerpt += log.substr(0, newline);
    excerpt += '\n';
    ++lines;
    log = newline == std::string_view::npos ? std::string_view() : log.substr(newline + 1);
  }
  if (!log.empty()) {
    std::size_t rest = 1;
    for (char c : log.substr(0, log.size() - 1)) rest += c == '\n';
    excerpt += "... (" + std::to_string(rest) + " more lines of compile log)\n";
  }
  while (!excerpt.empty() && (excerpt.back() == '\n' || excerpt.back() == '\0')) excerpt.pop_back();
  return excerpt;
}

Result<std::string> NvrtcCompiler::program_log(nvrtcProgram program) const {
  std::size_t size = 0;
  if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcGetProgramLogSize(program, &size)); !ok)
    return std::unexpected(ok.error());
  std::string log(size, '\0');
  if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcGetProgramLog(program, log.data())); !ok)
    return std::unexpected(ok.error());
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

Result<std::string> NvrtcCompiler::program_ptx(nvrtcProgram program) const {
  std::size_t size = 0;
  if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcGetPTXSize(program, &size)); !ok) return std::unexpected(ok.error());
  std::string ptx(size, '\0');
  if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcGetPTX(program, ptx.data())); !ok) return std::unexpected(ok.error());
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

Result<std::vector<std::byte>> NvrtcCompiler::program_cubin(nvrtcProgram program, const CompileRequest& request) const {
  if (!request.arch.starts_with("sm_")) return std::vector<std::byte>{};
  if (m_api.nvrtcGetCUBINSize == nullptr || m_api.nvrtcGetCUBIN == nullptr)
    return fail(ExitCode::could_not_run, compiling(request) + "NVRTC " + m_version.text() +
                                             " cannot return machine code (nvrtcGetCUBIN); use NVRTC 11.1 or later");
  std::size_t size = 0;
  if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcGetCUBINSize(program, &size)); !ok) return std::unexpected(ok.error());
  std::vector<std::byte> cubin(size);
  if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcGetCUBIN(program, reinterpret_cast<char*>(cubin.data()))); !ok)
    return std::unexpected(ok.error());
  return cubin;
}

Result<CompileOutput> NvrtcCompiler::compile(const CompileRequest& request) const {
  std::vector<std::string> header_bodies;
  std::vector<const char*> header_texts;
  std::vector<const char*> header_names;
  header_bodies.reserve(request.headers.size());
  for (const auto& header : request.headers) {
    header_bodies.push_back(without_byte_order_mark(header.text));
    header_texts.push_back(header_bodies.back().c_str());
    header_names.push_back(header.include_name.c_str());
  }
  const std::string source = without_byte_order_mark(request.source);
  nvrtcProgram program = nullptr;
  if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcCreateProgram(&program, source.c_str(), request.file_name.c_str(),
                                                              static_cast<int>(header_texts.size()),
                                                              header_texts.data(), header_names.data()));
      !ok)
    return fail(ok.error().exit_code, compiling(request) + ok.error().message);
  const ProgramGuard guard(m_api, program);

  for (const auto& expression : request.name_expressions)
    if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcAddNameExpression(program, expression.c_str())); !ok)
      return fail(ok.error().exit_code,
                  compiling(request) + "name expression '" + expression + "': " + ok.error().message);

  CompileOutput output;
  output.options = nvrtc_options(request);
  std::vector<const char*> arguments;
  for (const auto& option : output.options) arguments.push_back(option.c_str());
  const nvrtcResult result = m_api.nvrtcCompileProgram(program, static_cast<int>(arguments.size()), arguments.data());
  auto compiled = KF_NVRTC_CALL(m_api, result);
  auto log = program_log(program);
  if (!compiled) {
    // Code that does not compile: the compiler's own words under one line naming the file (the
    // failing call is no news to a kernel author, and a note keeps only a message's first lines).
    // A name expression NVRTC cannot look up fails the compile too; the header names it, since
    // NVRTC 11.8's log quotes it only re-spaced ("no_such < 1 >").
    if (result == NVRTC_ERROR_COMPILATION && log && !log->empty()) {
      const auto unresolved = unresolved_name_expressions(request.name_expressions, *log);
      std::string naming;
      for (const auto& expression : unresolved) naming += fmt::format("{}'{}'", naming.empty() ? "" : ", ", expression);
      if (!naming.empty())
        naming = fmt::format(" with the name expression{} {}", unresolved.size() == 1 ? "" : "s", naming);
      return fail(compiled.error().exit_code, fmt::format("{} does not compile for {}{}:\n{}", request.file_name,
                                                          request.arch, naming, log_excerpt(*log)));
    }
    return fail(compiled.error().exit_code, compiling(request) + compiled.error().message);
  }
  if (!log) return std::unexpected(log.error());
  output.log = std::move(*log);

  auto ptx = program_ptx(program);
  if (!ptx) return std::unexpected(ptx.error());
  output.ptx = std::move(*ptx);
  auto cubin = program_cubin(program, request);
  if (!cubin) return std::unexpected(cubin.error());
  output.cubin = std::move(*cubin);

  output.functions = compiled_resources(output.log, output.cubin);
  for (const auto& expression : request.name_expressions) {
    const char* lowered = nullptr;
    if (auto ok = KF_NVRTC_CALL(m_api, m_api.nvrtcGetLoweredName(program, expression.c_str(), &lowered)); !ok)
      return fail(ok.error().exit_code,
                  compiling(request) + "name expression '" + expression + "': " + ok.error().message);
    output.lowered_names.push_back({expression, lowered != nullptr ? lowered : ""});
    for (auto& function : output.functions)
      if (function.name == output.lowered_names.back().lowered) function.source_name = expression;
  }
  return output;
}

}  // namespace kforecast::cuda
