// SPDX-License-Identifier: Apache-2.0
#include "cli/run.hpp"

#include <unistd.h>

#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "base/confined_exec.hpp"
#include "base/nearest_name.hpp"
#include "base/process_confinement.hpp"
#include "base/redaction.hpp"
#include "base/sandbox_status.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "cuda/compile_child.hpp"
#include "kforecast_version.hpp"

namespace kforecast::cli {
namespace {

ExitCode report(const Error& error, Context& context) {
  context.err << "kforecast: error: " << error.message << "\n";
  return error.exit_code;
}

Result<ExitCode> dispatch(std::span<const std::string> args, Context& context) {
  if (args.empty()) {
    context.err << main_help();
    return usage_error("no command given");
  }
  const std::string& first = args.front();
  if (first == "-h" || first == "--help") {
    context.out << main_help();
    return ExitCode::pass;
  }
  if (first == "-V" || first == "--version") {
    context.out << "kforecast " << kforecast::version << "\n";
    return ExitCode::pass;
  }
  const Command* command = find_command(first);
  if (command == nullptr) {
    std::vector<std::string_view> names;
    for (const Command& c : all_commands()) names.push_back(c.name);
    const std::string_view kind = first.starts_with("-") ? "option" : "command";
    return usage_error(fmt::format("unknown {} '{}'{}; run 'kforecast --help' for the list of commands", kind, first,
                                   did_you_mean(first, names)));
  }
  auto invocation = parse_arguments(*command, args.subspan(1));
  if (!invocation) return std::unexpected(invocation.error());
  if (invocation->has("--help")) {
    context.out << command_help(*command);
    return ExitCode::pass;
  }
  if (!command->planned.empty())
    return fail(ExitCode::could_not_run, fmt::format("'kforecast {}' is not available in kforecast {}: {}",
                                                     command->name, kforecast::version, command->planned));
  return command->handler(*invocation, context);
}

}  // namespace

ExitCode run(std::span<const std::string> args, Context& context) {
  try {
    auto result = dispatch(args, context);
    return result ? *result : report(result.error(), context);
  } catch (const Fatal& fatal) {
    return report(Error{fatal.what(), fatal.exit_code()}, context);
  } catch (const std::exception& unexpected) {
    return report(Error{fmt::format("internal error: {}", unexpected.what()), ExitCode::could_not_run}, context);
  }
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  // The compiler child holds no secret and speaks a wire format of its own: it skips the rest.
  if (!args.empty() && args.front() == cuda::compile_child_command)
    return cuda::run_compile_child(std::span(args).subspan(1), std::cin, std::cout, std::cerr);
  // So does the confined runner of nvcc: it confines itself and becomes nvcc (base/confined_exec.hpp).
  if (!args.empty() && args.front() == confined_exec_command)
    return run_confined_exec(std::span(args).subspan(1), std::cerr);
  // And the sandbox's probe, started with an empty environment (base/sandbox_status.hpp).
  if (args.size() == 1 && args.front() == sandbox_probe_command) return run_sandbox_probe(std::cout);
  protect_this_process_from_its_children();
  register_environment_secrets();
  RedactingStream out(std::cout), err(std::cerr);
  Context context{out.stream(), err.stream(), process_environment(), ::isatty(STDOUT_FILENO) == 1,
                  ::isatty(STDERR_FILENO) == 1};
  return static_cast<int>(run(args, context));
}

}  // namespace kforecast::cli
