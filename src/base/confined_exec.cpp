// SPDX-License-Identifier: Apache-2.0
#include "base/confined_exec.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <ostream>

#include <fmt/format.h>

namespace kforecast {
namespace {

std::optional<std::uint64_t> number(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::unexpected<Error> bad(std::string_view what) { return usage_error(fmt::format("{}: {}", confined_exec_command, what)); }

}  // namespace

std::vector<std::string> confined_exec_arguments(const Confinement& confinement, const std::vector<std::string>& program) {
  std::vector<std::string> arguments;
  for (const auto& path : confinement.readable) arguments.insert(arguments.end(), {"--read", path.string()});
  for (const auto& path : confinement.writable) arguments.insert(arguments.end(), {"--write", path.string()});
  arguments.insert(arguments.end(), {"--memory", std::to_string(confinement.max_memory_bytes), "--cpu-seconds",
                                     std::to_string(confinement.max_cpu_seconds), "--sockets",
                                     confinement.sockets == SocketAccess::none ? "none" : "unix", "--"});
  arguments.insert(arguments.end(), program.begin(), program.end());
  return arguments;
}

Result<ConfinedExec> parse_confined_exec_arguments(std::span<const std::string> arguments) {
  ConfinedExec parsed;
  std::size_t i = 0;
  for (; i < arguments.size() && arguments[i] != "--"; i += 2) {
    const std::string& name = arguments[i];
    if (i + 1 >= arguments.size()) return bad(fmt::format("'{}' needs a value", name));
    const std::string& value = arguments[i + 1];
    if (name == "--read") {
      parsed.confinement.readable.emplace_back(value);
    } else if (name == "--write") {
      parsed.confinement.writable.emplace_back(value);
    } else if (name == "--sockets") {
      if (value != "none" && value != "unix") return bad("'--sockets' is 'none' or 'unix'");
      parsed.confinement.sockets = value == "none" ? SocketAccess::none : SocketAccess::unix_only;
    } else if (name == "--memory" || name == "--cpu-seconds") {
      const auto parsed_number = number(value);
      if (!parsed_number) return bad(fmt::format("'{}' needs a number", name));
      (name == "--memory" ? parsed.confinement.max_memory_bytes : parsed.confinement.max_cpu_seconds) = *parsed_number;
    } else {
      return bad(fmt::format("unknown option '{}'", name));
    }
  }
  if (i >= arguments.size() || i + 1 >= arguments.size())
    return bad("'-- PROGRAM ARGS...' is missing");
  parsed.program.assign(arguments.begin() + static_cast<std::ptrdiff_t>(i) + 1, arguments.end());
  if (!parsed.program.front().starts_with('/'))
    return bad(fmt::format("the program '{}' must be an absolute path", parsed.program.front()));
  return parsed;
}

int run_confined_exec(std::span<const std::string> arguments, std::ostream& err) {
  const auto parsed = parse_confined_exec_arguments(arguments);
  if (!parsed) {
    err << "kforecast: error: " << parsed.error().message << "\n";
    return static_cast<int>(ExitCode::usage);
  }
  const auto confined = confine_this_process(parsed->confinement);
  if (!confined) {
    err << "kforecast: error: " << confined.error().message << "\n";
    return static_cast<int>(ExitCode::could_not_run);
  }
  std::vector<char*> argv;
  for (const auto& argument : parsed->program) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  // The environment is the one the parent gave this process, already without secrets.
  ::execv(argv.front(), argv.data());
  err << fmt::format("kforecast: error: cannot run {}: {}\n", parsed->program.front(), std::strerror(errno));
  return static_cast<int>(ExitCode::could_not_run);
}

}  // namespace kforecast
