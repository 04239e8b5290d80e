// SPDX-License-Identifier: Apache-2.0
#pragma once

// A subcommand is a row: name, one-line summary, options, handler. The table drives dispatch,
// `--help`, `help CMD` and "did you mean" for typos (ninja's ChooseTool is the model).

#include <chrono>
#include <iosfwd>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "base/progress.hpp"

namespace kforecast::cli {

// Where a command writes and what it may read of the outside world; tests pass string streams
// and a fixed environment.
struct Context {
  std::ostream& out;
  std::ostream& err;
  EnvLookup env;
  // Whether out and err reach a terminal (progress lines, colour); false for tests' streams.
  bool out_is_terminal = false;
  bool err_is_terminal = false;
  // Where a long run reports its stage and counts (base/progress.hpp); nullptr: nowhere.
  Progress* progress = nullptr;
  // When the command started: the run's wall budget counts from here.
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

struct OptionSpec {
  std::string_view name;        // "--config"
  std::string_view value_name;  // "FILE"; empty for a flag
  std::string_view help;
};

// What the command line said, after the command's options were checked against its table.
struct Invocation {
  std::string command;
  std::vector<std::string> positional;
  std::map<std::string, std::string, std::less<>> options;  // flags map to ""

  bool has(std::string_view option) const { return options.contains(option); }
  std::string value(std::string_view option) const;
};

using Handler = Result<ExitCode> (*)(const Invocation&, Context&);

struct Command {
  std::string_view name;
  std::string_view summary;
  std::string_view usage;        // "kforecast doctor [--config FILE]"
  std::string_view description;  // paragraphs shown by `help CMD`
  std::span<const OptionSpec> options;
  Handler handler;
  // Non-empty while the command is not built; running it exits 3 with this text.
  std::string_view planned = {};
};

std::span<const Command> all_commands();
const Command* find_command(std::string_view name);

}  // namespace kforecast::cli
