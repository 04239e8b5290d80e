// SPDX-License-Identifier: Apache-2.0
#include "measure/bench_child.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "base/this_executable.hpp"
#include "base/subprocess.hpp"
#include "base/scratch_folder.hpp"
#include "base/text_file.hpp"
#include "measure/batch_protocol.hpp"
#include "measure/confirmation.hpp"

namespace kforecast::measure {
namespace {

using bench::Measurement;

std::string last_lines(const std::string& text, std::size_t count) {
  std::size_t start = text.size();
  for (std::size_t i = 0; i < count && start > 0; ++i) {
    start = text.rfind('\n', start - 1);
    if (start == std::string::npos) return text;
  }
  // Nothing written (a child killed before a word) has no last lines.
  return start >= text.size() ? text : text.substr(start + 1);
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const std::string_view prefix = "kforecast: error: ";
  if (text.starts_with(prefix)) text.erase(0, prefix.size());
  return text;
}

}  // namespace

Result<Measurement> measure_in_child(const ChildRequest& request) {
  const BenchPair& pair = request.pair;
  const std::string self = this_executable();
  std::vector<std::string> argv{self.empty() ? std::string("kforecast") : self, "bench", pair.candidate, "--in-process", "--format", "json"};
  if (!pair.versus.empty()) argv.insert(argv.end(), {"--vs", pair.versus});
  if (!pair.against.empty()) argv.insert(argv.end(), {"--against", pair.against});
  if (!pair.project_build.empty()) argv.insert(argv.end(), {"--project-build", pair.project_build});
  if (!pair.capture.empty()) argv.insert(argv.end(), {"--capture", pair.capture});
  if (request.config) argv.insert(argv.end(), {"--config", *request.config});
  if (request.confirming) argv.emplace_back("--confirming");
  if (request.extended) argv.emplace_back("--extended");
  if (!request.builds_folder.empty()) argv.insert(argv.end(), {"--builds", request.builds_folder.string()});
  const auto timeout = std::chrono::milliseconds(static_cast<std::int64_t>(request.timeout_seconds * 1000));
  const auto start = std::chrono::steady_clock::now();
  auto child = run_process(argv, {.working_directory = request.working_directory, .timeout = timeout});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!child) {
    auto failed = bench::failed_measurement(fmt::format(
        "the measurement did not finish within bench.timeout_seconds ({:g} s) and was killed: a kernel that "
        "hangs, or a limit too low for this spec",
        request.timeout_seconds));
    failed.gpu_seconds = seconds;
    failed.wall_seconds = seconds;
    return failed;
  }
  if (child->exit_status == 2 || child->exit_status == 3)
    return fail(static_cast<ExitCode>(child->exit_status), trimmed(child->err));
  if (child->signal || (child->exit_status != 0 && child->exit_status != 1) || child->out.empty()) {
    const int status = child->exit_status;
    auto failed = bench::failed_measurement(
        fmt::format("the measurement process {}: {}",
                    child->signal ? fmt::format("was killed by {}", signal_name(*child->signal))
                                  : fmt::format("exited with status {}", status),
                    trimmed(last_lines(child->err, 5))));
    failed.gpu_seconds = seconds;
    failed.wall_seconds = seconds;
    return failed;
  }
  auto measurement = bench::parse_measurement_json(child->out);
  if (measurement) measurement->wall_seconds = seconds;
  return measurement;
}

Result<Measurement> measure_confirmed(const ChildRequest& request, const std::function<void(std::string_view)>& progress,
                                      const MeasureOneProcess& measure) {
  // The processes of one decision share a builds folder: the fresh ones load both sides' machine
  // code instead of compiling it again.
  std::optional<ScratchFolder> builds;
  ChildRequest first = request;
  if (first.builds_folder.empty()) first.builds_folder = builds.emplace("kforecast-builds").path();
  auto measurement = measure(first);
  if (!measurement || !needs_confirmation(*measurement)) return measurement;
  if (progress) progress("confirming the regression in a fresh process...");
  // The first process compared both kernels' outputs on two seeds; the same code on the same
  // inputs adds nothing there. What the second adds is its own placement, so it checks one seed
  // (which also sets its inputs up) and spends the rest on timing.
  ChildRequest confirmation = first;
  confirmation.confirming = true;
  auto second = measure(confirmation);
  if (!second) return std::unexpected(second.error());
  add_process(*measurement, *second, 2);
  std::optional<Measurement> third;
  if (needs_third_process(*second)) {
    if (progress) progress("the confirmation straddled the tolerance: measuring again with more rounds...");
    ChildRequest extended = confirmation;
    extended.extended = true;
    auto measured = measure(extended);
    if (!measured) return std::unexpected(measured.error());
    third = std::move(*measured);
    add_process(*measurement, *third, 3);
  }
  settle_confirmation(*measurement, *second, third ? &*third : nullptr);
  return measurement;
}

namespace {

// What one batch child reached: a result per pair it finished, keyed by its place in `pairs`.
struct BatchRun {
  std::vector<BatchResult> results;
  std::optional<ProcessOutput> output;  // nullopt: it ran past its time and was stopped
  double wall_seconds = 0;
  std::string unreadable;  // why the results file could not be read, if so
};

// Counts the complete lines of a results file while its child writes it, every quarter second,
// and tells `on_lines` when the count grows: a run of 50 kernels shows them finishing.
class ResultsWatcher {
 public:
  ResultsWatcher(std::filesystem::path file, std::function<void(std::size_t)> on_lines)
      : m_thread([file = std::move(file), on_lines = std::move(on_lines)](const std::stop_token& stop) {
          std::size_t told = 0;
          while (!stop.stop_requested()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
            std::ifstream in(file, std::ios::binary);
            const auto lines = static_cast<std::size_t>(
                std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
            if (lines > told) on_lines(told = lines);
          }
        }) {}

 private:
  std::jthread m_thread;
};

BatchRun run_batch_child(const BatchRequest& request, const std::vector<BenchPair>& pairs, double budget_seconds,
                         std::chrono::milliseconds limit, std::size_t finished_before) {
  BatchRun run;
  const ScratchFolder folder("kforecast-batch");
  const std::filesystem::path batch_file = std::filesystem::path(folder.path()) / "batch.json";
  const std::filesystem::path results_file = std::filesystem::path(folder.path()) / "results.jsonl";
  std::ofstream(batch_file) << batch_file_json(pairs);
  const std::string self = request.program.empty() ? this_executable() : request.program;
  std::vector<std::string> argv{self.empty() ? std::string("kforecast") : self, "bench", "--in-process", "--batch",
                                batch_file.string(), "--results", results_file.string(), "--format", "json"};
  if (request.config) argv.insert(argv.end(), {"--config", *request.config});
  if (request.confirming) argv.emplace_back("--confirming");
  if (request.extended) argv.emplace_back("--extended");
  if (budget_seconds > 0) argv.insert(argv.end(), {"--budget", fmt::format("{:.6f}", budget_seconds)});
  if (!request.builds_folder.empty()) argv.insert(argv.end(), {"--builds", request.builds_folder.string()});
  const auto start = std::chrono::steady_clock::now();
  std::optional<ResultsWatcher> watcher;
  if (request.on_progress) watcher.emplace(results_file, [&](std::size_t lines) { request.on_progress(finished_before + lines); });
  auto child = run_process(argv, {.working_directory = request.working_directory, .timeout = limit});
  watcher.reset();
  run.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (child) run.output = std::move(*child);
  auto text = read_text_file(results_file, "the measuring child's results");
  if (!text) return run;  // none written: the child stopped before its first result
  auto results = parse_batch_results(*text);
  if (!results)
    run.unreadable = results.error().message;
  else
    run.results = std::move(*results);
  return run;
}

// Why a child's process ended without a pair's result, for that pair's `failed` measurement.
std::string child_ending(const BatchRun& run, double timeout_seconds) {
  if (!run.output)
    return fmt::format("the measurement did not finish within bench.timeout_seconds ({:g} s) and was killed: a kernel "
                       "that hangs, or a limit too low for this spec",
                       timeout_seconds);
  const ProcessOutput& output = *run.output;
  std::string ending = fmt::format("the measurement process {}",
                                   output.signal ? fmt::format("was killed by {}", signal_name(*output.signal))
                                                 : fmt::format("exited with status {}", output.exit_status));
  if (!run.unreadable.empty()) ending += ", and its results could not be read: " + run.unreadable;
  const std::string tail = trimmed(last_lines(output.err, 5));
  return tail.empty() ? ending : ending + ": " + tail;
}

}  // namespace

BatchOutcomes measure_batch_in_children(const BatchRequest& request) {
  BatchOutcomes outcomes(request.pairs.size());
  std::vector<std::size_t> remaining(request.pairs.size());
  for (std::size_t i = 0; i < remaining.size(); ++i) remaining[i] = i;
  const auto start = std::chrono::steady_clock::now();
  double spent = 0;  // GPU seconds of the measurements so far, against the budget
  while (!remaining.empty()) {
    const double budget_left = request.budget_seconds > 0 ? request.budget_seconds - spent : 0;
    if (request.budget_seconds > 0 && budget_left <= 0) break;  // the rest stay unstarted
    // Each pair's own limit, and start-up; within the run's wall time where it has one.
    auto limit = std::chrono::milliseconds(
        static_cast<std::int64_t>((request.timeout_seconds * static_cast<double>(remaining.size()) + 60) * 1000));
    bool wall_bound = false;
    if (request.wall_left.count() > 0) {
      const auto left = request.wall_left - std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::steady_clock::now() - start);
      if (left.count() <= 0) break;
      if (left < limit) limit = left, wall_bound = true;
    }
    std::vector<BenchPair> pairs;
    for (const std::size_t index : remaining) pairs.push_back(request.pairs[index]);
    const BatchRun run = run_batch_child(request, pairs, budget_left, limit, request.pairs.size() - remaining.size());
    // Exit 2 or 3 before any result: nothing in the batch can be measured (no GPU, a bad option).
    if (run.output && run.results.empty() && (run.output->exit_status == 2 || run.output->exit_status == 3)) {
      for (const std::size_t index : remaining)
        outcomes[index] = fail(static_cast<ExitCode>(run.output->exit_status), trimmed(run.output->err));
      break;
    }
    std::vector<bool> reached(pairs.size(), false);
    bool skipped = false;
    double accounted = 0;
    std::optional<Result<bench::Measurement>>* first_measured = nullptr;
    for (const BatchResult& result : run.results) {
      if (result.index >= pairs.size() || reached[result.index]) continue;  // not a pair it was given
      reached[result.index] = true;
      auto& outcome = outcomes[remaining[result.index]];
      accounted += result.seconds;
      if (const auto* measurement = std::get_if<bench::Measurement>(&result.outcome)) {
        outcome = *measurement;
        (*outcome)->wall_seconds = result.seconds;
        spent += measurement->gpu_seconds;
        if (first_measured == nullptr) first_measured = &outcome;
      } else if (const auto* error = std::get_if<BatchError>(&result.outcome)) {
        outcome = fail(static_cast<ExitCode>(error->exit_status), error->message);
      } else {
        skipped = true;  // not started: the budget was spent
      }
    }
    // The process's start-up and ending belong to no pair: the first measured carries them.
    if (first_measured != nullptr) (**first_measured)->wall_seconds += std::max(0.0, run.wall_seconds - accounted);
    std::vector<std::size_t> left;
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (!reached[i]) left.push_back(remaining[i]);
    if (skipped || left.empty()) break;
    if (!run.output && wall_bound) break;  // the run's wall time ended it: the rest are not measured
    // A process that stopped after a failed pair (a spoiled context) ended cleanly: the rest go
    // to a fresh one. Any other ending (a crash, a hang, no result at all) is the first
    // unfinished pair's failure, so every round settles at least one pair.
    const bool stopped_after_failure = run.output && run.output->exit_status == 1 && !run.results.empty() &&
                                       std::holds_alternative<bench::Measurement>(run.results.back().outcome) &&
                                       std::get<bench::Measurement>(run.results.back().outcome).verdict ==
                                           bench::Verdict::failed;
    if (!stopped_after_failure) {
      auto failed = bench::failed_measurement(child_ending(run, request.timeout_seconds));
      failed.gpu_seconds = failed.wall_seconds = std::max(0.0, run.wall_seconds - accounted);
      outcomes[left.front()] = std::move(failed);
      left.erase(left.begin());
    }
    remaining = std::move(left);
  }
  return outcomes;
}

BatchOutcomes measure_batch_confirmed(const BatchRequest& request, const std::function<void(std::string_view)>& progress,
                                      const MeasureBatch& measure) {
  std::optional<ScratchFolder> builds;
  BatchRequest first_request = request;
  if (first_request.builds_folder.empty()) first_request.builds_folder = builds.emplace("kforecast-builds").path();
  BatchOutcomes outcomes = measure(first_request);
  const auto measured = [&](std::size_t index) -> bench::Measurement* {
    auto& outcome = outcomes[index];
    return outcome && *outcome ? &**outcome : nullptr;
  };
  // The pairs of `indices`, measured again together with `flags` set; one outcome each.
  const auto again = [&](const std::vector<std::size_t>& indices, bool extended) {
    BatchRequest next = first_request;
    next.pairs.clear();
    for (const std::size_t index : indices) next.pairs.push_back(request.pairs[index]);
    next.confirming = true;
    next.extended = extended;
    next.budget_seconds = 0;  // a regression found is always confirmed
    next.on_progress = nullptr;  // the count is of the first measurements; `progress` tells of these
    return measure(next);
  };
  std::vector<std::size_t> to_confirm;
  for (std::size_t i = 0; i < outcomes.size(); ++i)
    if (auto* first = measured(i); first != nullptr && needs_confirmation(*first)) to_confirm.push_back(i);
  if (to_confirm.empty()) return outcomes;
  if (progress)
    progress(fmt::format("confirming {} regression{} in a fresh process...", to_confirm.size(),
                         to_confirm.size() == 1 ? "" : "s"));
  const BatchOutcomes seconds = again(to_confirm, false);
  std::vector<std::size_t> to_extend;
  std::vector<const bench::Measurement*> second_of(outcomes.size(), nullptr);
  for (std::size_t j = 0; j < to_confirm.size(); ++j) {
    const std::size_t index = to_confirm[j];
    const auto& second = seconds[j];
    if (!second || !*second) {
      outcomes[index] = second ? std::unexpected((*second).error())
                               : fail(ExitCode::could_not_run, "the regression's confirmation was not started: the "
                                                               "run's wall time was spent");
      continue;
    }
    add_process(*measured(index), **second, 2);
    second_of[index] = &**second;
    if (needs_third_process(**second)) to_extend.push_back(index);
  }
  BatchOutcomes thirds;
  if (!to_extend.empty()) {
    if (progress) progress("a confirmation straddled the tolerance: measuring again with more rounds...");
    thirds = again(to_extend, true);
  }
  for (const std::size_t index : to_confirm) {
    if (second_of[index] == nullptr) continue;
    const bench::Measurement* third = nullptr;
    if (const auto at = std::ranges::find(to_extend, index); at != to_extend.end()) {
      const auto& outcome = thirds[static_cast<std::size_t>(at - to_extend.begin())];
      if (!outcome || !*outcome) {
        outcomes[index] = outcome ? std::unexpected((*outcome).error())
                                  : fail(ExitCode::could_not_run, "the regression's third measurement was not started: "
                                                                  "the run's wall time was spent");
        continue;
      }
      third = &**outcome;
      add_process(*measured(index), *third, 3);
    }
    settle_confirmation(*measured(index), *second_of[index], third);
  }
  return outcomes;
}

}  // namespace kforecast::measure
