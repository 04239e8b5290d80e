// SPDX-License-Identifier: Apache-2.0
#include "measure/capture_command_step.hpp"

#include <fstream>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/subprocess.hpp"
#include "capture/capture_request.hpp"
#include "capture/capture_summary.hpp"
#include "capture/injection/capture_settings.hpp"
#include "measure/revision_captures.hpp"
#include "harness/built_tree.hpp"
#include "harness/harness_measure.hpp"

namespace kforecast::measure {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view recorded_marker = ".kforecast-captured";

std::chrono::milliseconds timeout_of(const CaptureCommandSettings& settings) {
  return std::chrono::milliseconds(static_cast<long long>(settings.timeout_seconds * 1000));
}

// The last line of the command's standard error that says something, else of its output.
std::string last_words(const ProcessOutput& output) {
  for (const std::string* text : {&output.err, &output.out}) {
    std::string line = harness::last_lines(*text, 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) return line;
  }
  return "(no output)";
}

Result<std::string> tree_hash_of(const fs::path& repository, const std::string& commit) {
  auto ran = run_process({"git", "-C", repository.string(), "rev-parse", "--verify", "--quiet", commit + "^{tree}"},
                         {.timeout = std::chrono::minutes(1)});
  if (!ran || ran->exit_status != 0 || ran->out.size() < 40)
    return fail(ExitCode::could_not_run, fmt::format("the base revision {} has no tree here", commit.substr(0, 12)));
  return ran->out.substr(0, 40);
}

std::string summary_of(const fs::path& folder) {
  const auto summary = capture::summarize_captures(folder);
  return fmt::format("{} launch{} of {} kernel{}", summary.launches, summary.launches == 1 ? "" : "es",
                     summary.kernels.size(), summary.kernels.size() == 1 ? "" : "s");
}

}  // namespace

CaptureCommandSettings capture_command_settings(const config::Config& config) {
  return {config.string_value("capture.command"), config.string_value("capture.build"),
          config.number_value("capture.timeout_seconds")};
}

Result<CommandCaptures> run_capture_command(const CaptureCommandRequest& request, const harness::ShellRunner& shell) {
  const auto& settings = request.settings;
  auto tree = tree_hash_of(request.repository, request.base_commit);
  if (!tree) return std::unexpected(tree.error());
  ContentHasher commands;
  commands.add(settings.build);
  commands.add(settings.command);
  const fs::path entry = request.captures / fmt::format("{}-{}", tree->substr(0, 20), commands.hex().substr(0, 12));
  const fs::path folder = entry / "launches";
  std::error_code ec;
  if (fs::exists(entry / recorded_marker, ec)) return CommandCaptures{folder, true, summary_of(folder)};

  harness::Harness builder;
  builder.name = "capture.build";
  builder.build = settings.build;
  builder.timeout_seconds = settings.timeout_seconds;
  builder.origin = "capture.build";
  auto built = harness::built_tree({request.repository, request.base_commit, "base", request.trees}, builder, shell);
  if (!built) return fail(ExitCode::could_not_run, fmt::format("capture.build: {}", built.error().message));

  // A folder an earlier, unfinished run left is recorded again from nothing.
  fs::remove_all(folder, ec);
  fs::create_directories(folder, ec);
  if (ec)
    return fail(ExitCode::could_not_run, fmt::format("cannot create the capture folder {}: {}", folder.string(),
                                                     ec.message()));
  capture::CaptureRequest recording;
  recording.dir = folder;
  recording.byte_budget = capture::injection::default_byte_budget;
  harness::ShellCommand command{settings.command, built->path, entry, timeout_of(settings), {}, {}};
  command.environment = capture::capture_environment(recording, request.injection_library, request.env);
  command.readable = {request.injection_library};
  // Where the user names CUPTI for `kforecast capture`, the confined program gets the same.
  if (auto cupti = request.env(capture::injection::env_cupti); cupti && !cupti->empty()) {
    command.environment.emplace_back(std::string(capture::injection::env_cupti), *cupti);
    command.readable.emplace_back(*cupti);
  }
  auto ran = shell(command);
  if (!ran)
    return fail(ExitCode::could_not_run, fmt::format("capture.command did not finish: {} (capture.timeout_seconds = {:g})",
                                                     ran.error().message, settings.timeout_seconds));
  std::ofstream(entry / "command.log", std::ios::binary) << ran->out << ran->err;
  if (ran->exit_status != 0)
    return fail(ExitCode::could_not_run,
                fmt::format("capture.command failed (exit {}): {}", ran->exit_status, last_words(*ran)));
  std::ofstream(entry / recorded_marker) << settings.build << "\n" << settings.command << "\n";
  return CommandCaptures{folder, false, summary_of(folder)};
}

Result<CaptureFolders> command_capture_folders(const std::string& base, const std::string& head,
                                               const CaptureCommandSettings& settings, const fs::path& repository,
                                               const ProjectPrograms& programs) {
  if (!names_a_commit(base) || !names_a_commit(head))
    return usage_error(fmt::format("capture.command not run: it builds the base revision, and {} against {} are not "
                                   "both commits",
                                   head, base));
  if (!programs.shell || !programs.capture_library)
    return usage_error("capture.command not run: this command does not run project programs");
  auto library = programs.capture_library();
  if (!library) return usage_error(fmt::format("capture.command not run: {}", library.error().message));
  if (!programs.trees) return usage_error("capture.command not run: no cache folder (set HOME or XDG_CACHE_HOME)");
  const fs::path& trees = *programs.trees;
  auto recorded = run_capture_command(
      {settings, repository, base, trees, trees.parent_path() / "captures", *library, programs.env}, programs.shell);
  if (!recorded) return std::unexpected(recorded.error());
  const std::string origin =
      fmt::format("capture.command at the base revision {} ({}{})", base.substr(0, 12), recorded->summary,
                  recorded->reused ? ", recorded by an earlier run" : "");
  return CaptureFolders{recorded->folder, recorded->folder, origin, origin};
}

}  // namespace kforecast::measure
