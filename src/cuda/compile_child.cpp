// SPDX-License-Identifier: Apache-2.0
#include "cuda/compile_child.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <iterator>
#include <regex>

#include <fmt/format.h>

#include "base/process_confinement.hpp"
#include "cuda/compile_wire.hpp"
#include "cuda/nvrtc.hpp"

namespace kforecast::cuda {
namespace {

// What the dynamic loader and NVRTC need to start: the system's libraries and the loader's cache.
const std::vector<std::filesystem::path>& system_library_paths() {
  static const std::vector<std::filesystem::path> paths = {
      "/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib", "/etc/ld.so.cache", "/dev/null", "/dev/urandom"};
  return paths;
}

std::optional<std::uint64_t> number(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A diagnostic's first line: "FILE(LINE): error: ..." as NVRTC writes it.
std::optional<std::string> diagnostic_file(std::string_view line) {
  static const std::regex header(R"(^(.+)\((\d+)\): (catastrophic error|error|warning|remark|note)\b.*)");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(line.begin(), line.end(), match, header)) return std::nullopt;
  return match[1].str();
}

}  // namespace

std::vector<std::string> compile_child_arguments(const CompileChildSettings& settings) {
  std::vector<std::string> arguments = {"--nvrtc",       settings.nvrtc_library,
                                        "--memory",      std::to_string(settings.max_memory_bytes),
                                        "--cpu-seconds", std::to_string(settings.max_cpu_seconds)};
  for (const auto& path : settings.readable) {
    arguments.push_back("--read");
    arguments.push_back(path.string());
  }
  return arguments;
}

Result<CompileChildSettings> parse_compile_child_arguments(std::span<const std::string> arguments) {
  CompileChildSettings settings;
  for (std::size_t i = 0; i < arguments.size(); i += 2) {
    if (i + 1 >= arguments.size())
      return usage_error(fmt::format("{}: '{}' needs a value", compile_child_command, arguments[i]));
    const std::string& name = arguments[i];
    const std::string& value = arguments[i + 1];
    if (name == "--nvrtc") {
      settings.nvrtc_library = value;
    } else if (name == "--read") {
      settings.readable.emplace_back(value);
    } else if (name == "--memory" || name == "--cpu-seconds") {
      const auto parsed = number(value);
      if (!parsed) return usage_error(fmt::format("{}: '{}' needs a number", compile_child_command, name));
      (name == "--memory" ? settings.max_memory_bytes : settings.max_cpu_seconds) = *parsed;
    } else {
      return usage_error(fmt::format("{}: unknown option '{}'", compile_child_command, name));
    }
  }
  if (settings.nvrtc_library.empty()) return usage_error(fmt::format("{}: --nvrtc is required", compile_child_command));
  return settings;
}

std::string quote_only_project_files(std::string_view log, std::span<const std::string> project_files) {
  std::string kept;
  bool quoting = true;  // lines after a diagnostic belong to it until the next one
  std::size_t omitted = 0;
  while (!log.empty()) {
    const auto end = log.find('\n');
    const std::string_view line = log.substr(0, end);
    log.remove_prefix(end == std::string_view::npos ? log.size() : end + 1);
    if (const auto file = diagnostic_file(line)) {
      quoting = std::ranges::find(project_files, *file) != project_files.end();
      kept.append(line).push_back('\n');
      continue;
    }
    if (quoting || line.empty()) {
      kept.append(line).push_back('\n');
    } else {
      ++omitted;
    }
  }
  if (omitted > 0) kept += fmt::format("({} quoted lines of files outside the repository left out)\n", omitted);
  return kept;
}

int run_compile_child(std::span<const std::string> arguments, std::istream& in, std::ostream& out, std::ostream& err) {
  const auto settings = parse_compile_child_arguments(arguments);
  if (!settings) {
    err << "kforecast: error: " << settings.error().message << "\n";
    return static_cast<int>(ExitCode::usage);
  }
  Confinement confinement;
  confinement.readable = system_library_paths();
  confinement.readable.push_back(std::filesystem::path(settings->nvrtc_library).parent_path());
  confinement.readable.insert(confinement.readable.end(), settings->readable.begin(), settings->readable.end());
  std::error_code ec;
  confinement.writable.push_back(std::filesystem::current_path(ec));
  confinement.max_memory_bytes = settings->max_memory_bytes;
  confinement.max_cpu_seconds = settings->max_cpu_seconds;
  confinement.sockets = SocketAccess::none;  // NVRTC opens none
  const auto confined = confine_this_process(confinement);
  if (!confined) {
    err << "kforecast: error: " << confined.error().message << "\n";
    return static_cast<int>(ExitCode::could_not_run);
  }

  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto request = decode_request(bytes);
  if (!request) {
    out << encode_answer({std::unexpected(request.error())});
    return 0;
  }
  const std::string candidates[] = {settings->nvrtc_library};
  auto compiler = NvrtcCompiler::load(candidates);
  if (!compiler) {
    // Most likely the memory limit: NVRTC alone maps a few hundred MiB.
    out << encode_answer({std::unexpected(
        Error{fmt::format("the compiler child could not load NVRTC under its limit of {} MiB of address space: {}",
                          settings->max_memory_bytes >> 20, compiler.error().message()),
              ExitCode::could_not_run})});
    return 0;
  }
  std::vector<std::string> project_files = {request->file_name};
  for (const auto& header : request->headers) project_files.push_back(header.include_name);
  auto output = (*compiler)->compile(*request);
  if (output)
    output->log = quote_only_project_files(output->log, project_files);
  else
    output.error().message = quote_only_project_files(output.error().message, project_files);
  out << encode_answer({std::move(output)});
  out.flush();
  return 0;
}

}  // namespace kforecast::cuda
