// SPDX-License-Identifier: Apache-2.0
#include "cli/options.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/nearest_name.hpp"

namespace kforecast::cli {

std::string Invocation::value(std::string_view option) const {
  auto it = options.find(option);
  return it == options.end() ? std::string() : it->second;
}

Result<Invocation> parse_arguments(const Command& command, std::span<const std::string> args) {
  Invocation invocation{std::string(command.name), {}, {}};
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || arg.size() < 2 || arg[0] != '-') {
      invocation.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      invocation.options["--help"] = "";
      continue;
    }
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    auto spec = std::ranges::find(command.options, std::string_view(name), &OptionSpec::name);
    if (spec == command.options.end()) {
      std::vector<std::string_view> names;
      for (const auto& option : command.options) names.push_back(option.name);
      return usage_error(fmt::format("unknown option '{}' for '{}'{}; see 'kforecast help {}'", name, command.name,
                                     did_you_mean(name, names), command.name));
    }
    if (spec->value_name.empty()) {
      if (equals != std::string::npos) return usage_error(fmt::format("option '{}' takes no value", name));
      invocation.options[name] = "";
    } else if (equals != std::string::npos) {
      invocation.options[name] = arg.substr(equals + 1);
    } else if (i + 1 < args.size()) {
      invocation.options[name] = args[++i];
    } else {
      return usage_error(fmt::format("option '{}' needs a value ({} {})", name, name, spec->value_name));
    }
  }
  return invocation;
}

Result<std::string> format_option(const Invocation& invocation, std::initializer_list<std::string_view> allowed) {
  std::string format = invocation.has("--format") ? invocation.value("--format") : "text";
  if (std::ranges::find(allowed, format) != allowed.end()) return format;
  std::string listed;
  for (std::size_t i = 0; const std::string_view name : allowed)
    listed += fmt::format("{}{}", i++ == 0 ? "" : i == allowed.size() ? " or " : ", ", name);
  return usage_error(fmt::format("--format {}: expected {}", format, listed));
}

}  // namespace kforecast::cli
