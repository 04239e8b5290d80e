// SPDX-License-Identifier: Apache-2.0
// `kforecast capture -- COMMAND...`: runs the project's program with the injection library
// loaded by the CUDA driver, passes its exit code on, and summarizes what was captured. The
// logic is in src/capture; this file wires the command line, the file system and the process.

#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "capture/attached_process.hpp"
#include "base/this_executable.hpp"
#include "capture/capture_request.hpp"
#include "capture/capture_summary.hpp"
#include "capture/injection_library.hpp"
#include "cli/handlers.hpp"

namespace kforecast::cli {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> option_value(const Invocation& invocation, std::string_view name) {
  if (!invocation.has(name)) return std::nullopt;
  return invocation.value(name);
}

}  // namespace

Result<ExitCode> capture_command(const Invocation& invocation, Context& context) {
  const capture::CaptureOptions options{.dir = option_value(invocation, "--dir"),
                                        .launches_per_shape = option_value(invocation, "--launches-per-shape"),
                                        .bytes = option_value(invocation, "--bytes"),
                                        .kernels = option_value(invocation, "--kernels"),
                                        .command = invocation.positional};
  std::error_code error;
  const fs::path working_directory = fs::current_path(error);
  if (error)
    return fail(ExitCode::could_not_run, fmt::format("cannot read the current directory: {}", error.message()));
  auto request =
      capture::make_capture_request(options, working_directory, capture::repository_root_above(working_directory));
  if (!request) return std::unexpected(request.error());
  auto library = capture::find_injection_library(this_executable(), context.env, [](const fs::path& path) {
    std::error_code ignored;
    return fs::is_regular_file(path, ignored);
  });
  if (!library) return std::unexpected(library.error());
  fs::create_directories(request->dir, error);
  if (error)
    return fail(ExitCode::could_not_run,
                fmt::format("cannot create the capture folder {}: {}", request->dir.string(), error.message()));
  context.err << fmt::format(
      "kforecast capture: recording kernel launches ({}) of '{}' into {}: the first {} of each "
      "shape, contents up to {} bytes in all\n",
      request->kernels, fmt::join(request->command, " "), request->dir.string(), request->launches_per_shape,
      request->byte_budget);
  context.err.flush();
  auto status = capture::run_attached(request->command, capture::capture_environment(*request, *library, context.env));
  if (!status) return std::unexpected(status.error());
  context.err << capture::format_summary(capture::summarize_captures(request->dir), request->dir);
  if (*status != 0) context.err << fmt::format("kforecast capture: the program exited with status {}\n", *status);
  return static_cast<ExitCode>(*status);
}

}  // namespace kforecast::cli
