// SPDX-License-Identifier: Apache-2.0
// How pr measures a kernel: both revisions' texts (the kernel's file and the local headers it
// reaches) are written to a private temporary directory, and the pair is measured there exactly
// as `kforecast bench HEAD_FILE:KERNEL --vs BASE_FILE:KERNEL` would (measure/bench_child.hpp), with
// the config pr decided under (the base revision's) handed to the child. So the texts measured
// are the texts analysed, whichever revisions, index or patch they came from.

#include "gate/pr_bench.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/scratch_folder.hpp"
#include "base/shell_text.hpp"
#include "gate/harness_step.hpp"
#include "gate/measure_step.hpp"
#include "measure/bench_child.hpp"
#include "measure/bench_measure.hpp"
#include "measure/capture_command_step.hpp"
#include "measure/revision_captures.hpp"
#include "measure/shipped_build.hpp"
#include "policy/ledger.hpp"

namespace kforecast::gate {
namespace {

namespace fs = std::filesystem;

// Whether a repository path may be written below a directory: relative, no "..", no empty name.
bool safe_relative(const std::string& path) {
  const fs::path p(path);
  if (path.empty() || p.is_absolute()) return false;
  for (const auto& part : p)
    if (part == ".." || part.empty()) return false;
  return true;
}

// Writes one side's texts under `root`; the hash of what was written (paths and texts), for the
// ledger.
Result<std::string> write_side(const MeasureSide& side, const fs::path& root) {
  ContentHasher hasher;
  for (const auto& [file, text] : side.files) {
    if (!safe_relative(file)) return usage_error(fmt::format("{}: not a path inside the repository", file));
    const fs::path target = root / file;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    std::ofstream out(target, std::ios::binary);
    out << text.view();
    if (!out) return fail(ExitCode::could_not_run, fmt::format("cannot write {}", target.string()));
    hasher.add(file);
    hasher.add(text);
  }
  return hasher.hex();
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// A message with the scratch folder's paths taken out: "<root>/3/head/src/a.cu" reads
// "src/a.cu", as do "<root>/captures/base/..." and a side written for another kernel.
std::string without_scratch_prefixes(std::string text, const std::string& root) {
  for (std::size_t at = text.find(root); at != std::string::npos; at = text.find(root, at)) {
    std::size_t end = at + root.size();
    if (text.compare(end, 9, "captures/") == 0) {
      end += 9;
    } else {
      const std::size_t digits = end;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
      if (end == digits || end >= text.size() || text[end] != '/') {
        at += root.size();
        continue;
      }
      ++end;
    }
    if (text.compare(end, 5, "base/") == 0 || text.compare(end, 5, "head/") == 0)
      text.erase(at, end + 5 - at);
    else
      at += root.size();
  }
  return text;
}

}  // namespace

namespace {

// The command that measures one kernel, runnable as printed: the base revision the run compared
// against where it is a commit (not "patch base" or "index"), else a placeholder.
std::string how_to_measure(const report::KernelEntry& entry, const std::string& base) {
  const bool commit = base.size() >= 7 && base.size() <= 64 &&
                      std::ranges::all_of(base, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
  // A kernel renamed or moved has its old name and file only at the base: --vs names them there.
  return fmt::format("run `kforecast bench {} --against {}{}` on a GPU", shell_word(entry.file + ":" + entry.name),
                     commit ? base.substr(0, 12) : std::string("BASE"),
                     entry.base_kernel.empty() ? std::string() : " --vs " + shell_word(entry.base_kernel));
}

}  // namespace

void measure_in_pr(GateRun& run, std::span<const std::size_t> to_measure, const PrBenchInputs& inputs,
                   const Settings& settings, Outside& outside) {
  const auto jobs = measure_jobs(to_measure, inputs.base, inputs.head, run.cases);
  measure_jobs_in_pr(run, jobs, inputs.ledger, inputs.no_bench, settings, outside, inputs.observe);
}

void measure_jobs_in_pr(GateRun& run, std::span<const MeasureJob> all_jobs, const std::filesystem::path& ledger,
                        const NoBench& no_bench, const Settings& settings, Outside& outside,
                        const MeasureObserver& observe) {
  const config::Config& config = settings.config;
  // The project's own harness first (gate/harness_step.hpp): it needs no GPU of kforecast's, so it
  // runs before the GPU check; what it does not take goes on below as before.
  HarnessOutcome through_harness;
  if (no_bench.set)
    through_harness.others.assign(all_jobs.begin(), all_jobs.end());
  else
    through_harness = measure_through_harness(run, all_jobs, ledger, settings, outside, observe);
  const MeasureOutcome& harness_outcome = through_harness.outcome;
  const std::span<const MeasureJob> jobs = through_harness.others;
  std::vector<std::size_t> to_measure;
  for (const auto& job : jobs) to_measure.push_back(job.entry);
  if (to_measure.empty()) {
    run.gpu_time = gpu_time(run.cases, harness_outcome, "");
    return;
  }
  const auto leave = [&](const std::string& why, const std::string& note) {
    for (const std::size_t index : to_measure) {
      const std::string reason = fmt::format("{}; {}", why, how_to_measure(run.cases[index].entry, run.base));
      if (observe) observe(index, usage_error(reason));
      mark_unverified(run.cases[index].entry, reason, settings.measure);
    }
    run.gpu_time = gpu_time(run.cases, harness_outcome, note);
  };
  if (no_bench.set) return leave(no_bench.reason, no_bench.note);
  const measure::CaptureCommandSettings capture_command = measure::capture_command_settings(config);
  if (auto why = outside.gpu.unavailable()) {
    // The capture command records launches on the GPU; where there is none it is not run, and
    // the run says so where a kernel could have used it.
    if (!capture_command.command.empty() &&
        std::ranges::any_of(jobs, [&](const MeasureJob& job) { return job.complete && !has_launch_spec(job, config); }))
      run.notes.push_back(fmt::format("capture.command not run: {}", *why));
    leave(*why, "no GPU");
    run.gpu_time->unavailable = *why;
    return;
  }
  // A folder of our own under the system's temporary folder, removed with everything in it.
  const ScratchFolder scratch("kforecast-pr");
  if (scratch.path().empty())
    return leave("cannot create a temporary folder under the system's temporary folder", "no scratch directory");
  const fs::path root = scratch.path();

  // The child reads the same config: the file given, else the base revision's text.
  std::optional<std::string> child_config;
  if (config.file()) {
    std::error_code ec;
    child_config = fs::absolute(*config.file(), ec).string();
  } else {
    child_config = (root / "kforecast.toml").string();
    std::ofstream(*child_config, std::ios::binary) << config.source_text();
  }

  // What the child is doing, after the command's counts.
  const auto progress = [&](const std::string& line) { outside.console.detail(line); };
  // Each revision's capture.dir, written here from git where it is committed
  // (measure/revision_captures.hpp): read once, for the first kernel without a launch spec.
  std::optional<Result<measure::CaptureFolders>> capture_folders;
  const fs::path repository_root = measure::capture_repository_root(settings.compile.repository_root, outside.repository);
  // capture.command's captures (measure/capture_command_step.hpp): recorded once, for the first
  // kernel that has neither spec nor capture; its failure is each such kernel's reason.
  std::optional<Result<measure::CaptureFolders>> command_folders;
  const auto folders_of_command = [&]() -> const Result<measure::CaptureFolders>& {
    if (!command_folders)
      command_folders =
          measure::command_capture_folders(run.base, run.head, capture_command, repository_root, outside.project);
    return *command_folders;
  };
  const auto folders_of_revisions = [&]() -> const Result<measure::CaptureFolders>& {
    if (!capture_folders)
      capture_folders = measure::revision_capture_folders(config, repository_root, run.base, run.head, root, outside.repository);
    return *capture_folders;
  };
  // Paths below the current folder (the repository's: captures found in capture.dir) relative too.
  std::error_code cwd_error;
  const std::string here_prefix = fs::current_path(cwd_error).string() + "/";
  const auto readable = [&](std::string text) {
    text = without_scratch_prefixes(std::move(text), root.string() + "/");
    return here_prefix.size() > 1 ? replace_all(std::move(text), here_prefix, "") : text;
  };
  // Every pair here names its capture folders: the repository is not looked for.
  const measure::BenchWorld world{.cuda_include_dir = outside.compilers.cuda_include_dir};
  policy::LedgerEntry ledger_run;
  ledger_run.kforecast_version = run.version;
  ledger_run.recorded = outside.now();
  ledger_run.base = run.base;
  ledger_run.head = run.head;

  // A kernel ready for the GPU: its pair, written under the scratch folder, and what its
  // measurement's notes and ledger line say of it.
  struct Ready {
    measure::BenchPair pair;
    std::string capture_origin;
    std::string measured_as;  // another instantiation than the one the machine code note names
    std::string base_hash, head_hash;
  };
  // Everything that can be checked without the GPU is checked here, so a kernel without a spec
  // costs no child process; each job's sides go to a folder of their own, since one process
  // measures them all.
  const auto prepare = [&](const MeasureJob& job, std::size_t slot) -> Result<Ready> {
    const auto& entry = run.cases[job.entry].entry;
    if (!job.complete) return usage_error("it has no version at one of the revisions to compare with");
    const fs::path sides = root / std::to_string(slot);
    Ready ready;
    auto base_hash = write_side(job.base, sides / "base");
    if (!base_hash) return std::unexpected(base_hash.error());
    auto head_hash = write_side(job.head, sides / "head");
    if (!head_hash) return std::unexpected(head_hash.error());
    ready.base_hash = *base_hash;
    ready.head_hash = *head_hash;
    measure::BenchPair& pair = ready.pair;
    pair = {(sides / "head" / job.head.file).string() + ":" + job.head.kernel,
            (sides / "base" / job.base.file).string() + ":" + job.base.kernel, "", ""};
    // Both sides built as the project builds them, where nvcc built their units for the gate.
    if (job.base.build_arguments && job.head.build_arguments) {
      const fs::path build_file = sides / "project-build.json";
      std::ofstream(build_file) << measure::project_build_json({(sides / "base").string(), (sides / "head").string(),
                                                                *job.base.build_arguments, *job.head.build_arguments});
      pair.project_build = build_file.string();
    }
    // Captures come from the revisions compared, not from the work tree.
    if (!has_launch_spec(job, config)) {
      const auto& folders = folders_of_revisions();
      if (!folders) return usage_error(readable(folders.error().message));
      pair.capture_folders = *folders;
    }
    // The captures may hold another instantiation the build made than the one named (a runner that
    // launches <128, 128> at every size the program runs, and <64, 64> at none): each is tried.
    const auto prepare_any_instance = [&] {
      auto first = prepare_pair(pair, config, world);
      for (const std::string& other : job.other_instances) {
        if (first || first.error().kind != measure::PairProblem::Kind::no_launch_spec) break;
        measure::BenchPair tried = pair;
        tried.candidate = (sides / "head" / job.head.file).string() + ":" + other;
        tried.versus = (sides / "base" / job.base.file).string() + ":" + other;
        if (auto again = prepare_pair(tried, config, world);
            again || again.error().kind != measure::PairProblem::Kind::no_launch_spec) {
          pair = std::move(tried);
          ready.measured_as = other;
          return again;
        }
      }
      return first;
    };
    auto prepared = prepare_any_instance();
    if (!prepared && prepared.error().kind == measure::PairProblem::Kind::no_launch_spec && !capture_command.command.empty()) {
      const auto& recorded = folders_of_command();
      if (!recorded) return usage_error(fmt::format("could not measure: {}", readable(recorded.error().message)));
      pair.capture_folders = *recorded;
      prepared = prepare_any_instance();
      if (!prepared && prepared.error().kind == measure::PairProblem::Kind::no_launch_spec)
        return usage_error(fmt::format(
            "no launch spec, no capture, and capture.command (`{}`) launched no kernel named {} at the base "
            "revision: run a program that launches it, or add a `// kforecast:` block (`kforecast spec suggest "
            "{}` drafts one); then {}",
            capture_command.command, job.base.kernel, shell_word(job.head.file + ":" + job.head.kernel),
            how_to_measure(entry, run.base)));
    }
    if (!prepared) {
      const std::string message = readable(prepared.error().error.message);
      if (prepared.error().kind == measure::PairProblem::Kind::no_launch_spec)
        return usage_error(fmt::format(
            "no launch spec, so it cannot be run: add a `// kforecast:` comment block directly above `{}` in {} "
            "(`kforecast spec suggest {}` drafts one; sizes, grid, block and [kernel.args]; `kforecast help "
            "bench` shows one), or a [[kernel]] table with name = \"{}\" in the base revision's .kforecast.toml, "
            "or record its launches with `kforecast capture -- COMMAND` into capture.dir (docs/design/capture.md); "
            "then {}",
            job.head.kernel, job.head.file, shell_word(job.head.file + ":" + job.head.kernel), job.head.kernel,
            how_to_measure(entry, run.base)));
      // A template no file instantiates and no compiled unit built is not a spec's fault.
      if (message.find("is a template") != std::string::npos)
        return usage_error(fmt::format("it cannot be measured: {} (no unit that nvcc built for this run instantiates it; "
                                       "where nvcc is found, the units that launch it give the instantiation)",
                                       message));
      return usage_error(fmt::format("its launch spec cannot be used: {}", message));
    }
    if (!prepared->replay.captures.empty()) {
      pair.capture = prepared->replay.path;  // the child replays the captures found here
      ready.capture_origin = prepared->replay.origin;
    }
    return ready;
  };
  // Riskiest first, as measure_kernels takes them: the batch's budget stops at the same kernel.
  const std::vector<std::size_t> order = measurement_order(run.cases, to_measure);
  std::map<std::size_t, Result<Ready>> ready;
  for (const std::size_t index : order)
    ready.emplace(index, prepare(*std::ranges::find(jobs, index, &MeasureJob::entry), ready.size()));
  measure::BatchRequest batch{.config = child_config,
                              .working_directory = root.string(),
                              .timeout_seconds = settings.bench_timeout_seconds,
                              .budget_seconds = settings.measure.budget_seconds,
                              .wall_left = outside.deadline.budget().count() > 0
                                               ? outside.deadline.left(outside.deadline.budget())
                                               : std::chrono::milliseconds(0),
                              .on_progress = [&](std::size_t finished) {
                                if (outside.console.progress) outside.console.progress->advance(finished);
                              }};
  std::map<std::size_t, std::size_t> slot_of;  // entry -> its place in the batch
  for (const std::size_t index : order)
    if (const auto& prepared = ready.at(index); prepared) {
      slot_of[index] = batch.pairs.size();
      batch.pairs.push_back(prepared->pair);
    }
  // Past the run's wall budget nothing starts: each kernel is left with that reason below.
  measure::BatchOutcomes outcomes(batch.pairs.size());
  if (outside.console.progress) outside.console.progress->stage("measuring on the GPU", to_measure.size());
  if (!batch.pairs.empty() && !outside.deadline.passed()) {
    progress(fmt::format("kforecast: measuring {} kernel{} on the GPU in one process (limit {:g} s each)...",
                         batch.pairs.size(), batch.pairs.size() == 1 ? "" : "s", settings.bench_timeout_seconds));
    outcomes = outside.gpu.measure_pairs(batch, [&](std::string_view line) { progress(std::string(line)); });
  }

  std::size_t not_started = 0;
  double spent = 0;  // GPU seconds of the measurements applied so far
  const MeasureKernel measure_one = [&](std::size_t index) -> Result<bench::Measurement> {
    const auto& entry = run.cases[index].entry;
    auto& prepared = ready.at(index);
    if (!prepared) return std::unexpected(prepared.error());
    auto& outcome = outcomes.at(slot_of.at(index));
    if (!outcome) {
      ++not_started;
      if (outside.deadline.passed()) return usage_error(outside.deadline.reason() + " (riskier kernels were measured first)");
      return usage_error(budget_spent_reason(spent, settings.measure.budget_seconds));
    }
    if (!*outcome) return usage_error(readable(outcome->error().message));
    bench::Measurement measurement = std::move(**outcome);
    spent += measurement.gpu_seconds;
    if (outside.console.progress) outside.console.progress->add_gpu_seconds(measurement.gpu_seconds);
    measurement.reason = readable(measurement.reason);
    if (!prepared->capture_origin.empty())
      if (auto unfit = replay_did_not_fit(measurement)) return usage_error(*unfit);
    for (auto& note : measurement.notes) note = readable(note);
    if (!prepared->capture_origin.empty())
      measurement.notes.push_back(fmt::format("captures from {}; both sides replayed them", prepared->capture_origin));
    if (!prepared->measured_as.empty())
      measurement.notes.push_back(fmt::format(
          "measured as {}, the instantiation of the build that the captures launch", prepared->measured_as));
    auto line = ledger_entry(entry, measurement, ledger_run);
    line.reference_hash = prepared->base_hash;
    line.candidate_hash = prepared->head_hash;
    if (auto appended = policy::append_to_ledger(ledger, line); !appended)
      run.notes.push_back(fmt::format("ledger not written: {}", appended.error().message));
    return measurement;
  };
  // The observer sees what measure_kernels decides with, whether measured or not.
  const MeasureKernel measure = [&](std::size_t index) {
    auto outcome = measure_one(index);
    if (observe) observe(index, outcome);
    return outcome;
  };
  // The batch kept to the budget and the run's wall time already: what it measured is applied.
  MeasureSettings applied = settings.measure;
  applied.budget_seconds = 0;
  MeasureOutcome outcome = measure_kernels(run.cases, to_measure, applied, measure);
  if (outside.console.progress) outside.console.progress->advance(to_measure.size());
  outcome.over_budget += not_started;
  run.gpu_time = gpu_time(run.cases,
                          {outcome.spent_seconds + harness_outcome.spent_seconds,
                           outcome.measured + harness_outcome.measured, outcome.over_budget + harness_outcome.over_budget,
                           outcome.wall_seconds + harness_outcome.wall_seconds},
                          "");
  if (outcome.measured > 0)
    run.notes.push_back(fmt::format("measured {} kernel{} on the GPU; ledger: {}", outcome.measured,
                                       outcome.measured == 1 ? "" : "s", ledger.string()));
}

}  // namespace kforecast::gate
