// SPDX-License-Identifier: Apache-2.0
#include <ostream>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "cli/handlers.hpp"
#include "kforecast_version.hpp"

namespace kforecast::cli {

std::string main_help() {
  std::string out = fmt::format(
      "kforecast {} - forecast and gate the performance of CUDA kernel changes\n\n"
      "usage: kforecast COMMAND [OPTIONS]\n"
      "       kforecast help COMMAND\n\n"
      "commands:\n",
      kforecast::version);
  for (const Command& command : all_commands()) {
    out += fmt::format("  {:<12} {}", command.name, command.summary);
    if (!command.planned.empty()) out += " (not built yet)";
    out += "\n";
  }
  out +=
      "\noptions:\n"
      "  -h, --help     show this help, or a command's after its name\n"
      "  -V, --version  print the version\n\n"
      "exit codes: 0 pass, 1 gate failed (regression), 2 usage or configuration error,\n"
      "            3 the work could not be done\n\n"
      "Start with 'kforecast doctor' to see what this machine offers.\n";
  return out;
}

std::string command_help(const Command& command) {
  std::string out = fmt::format("usage: {}\n\n{}\n", command.usage, command.description);
  if (!command.planned.empty()) out += fmt::format("\nNot built yet: {}.\n", command.planned);
  if (!command.options.empty()) {
    out += "\noptions:\n";
    for (const OptionSpec& option : command.options) {
      const std::string left =
          option.value_name.empty() ? std::string(option.name) : fmt::format("{} {}", option.name, option.value_name);
      out += fmt::format("  {:<22} {}\n", left, option.help);
    }
  }
  out += "  -h, --help             show this help\n";
  return out;
}

Result<ExitCode> help_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.empty()) {
    context.out << main_help();
    return ExitCode::pass;
  }
  if (invocation.positional.size() > 1) return usage_error("usage: kforecast help [COMMAND]");
  const std::string& name = invocation.positional.front();
  const Command* command = find_command(name);
  if (command == nullptr) {
    std::vector<std::string_view> names;
    for (const Command& c : all_commands()) names.push_back(c.name);
    return usage_error(fmt::format("no help for unknown command '{}'{}", name, did_you_mean(name, names)));
  }
  context.out << command_help(*command);
  return ExitCode::pass;
}

}  // namespace kforecast::cli
