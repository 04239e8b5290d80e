// SPDX-License-Identifier: Apache-2.0
#include "measure/bench_child.hpp"

#include <unistd.h>

#include <array>
#include <optional>
#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "base/this_executable.hpp"
#include "base/subprocess.hpp"
#include "bench/statistics.hpp"

namespace kforecast::measure {
namespace {

using bench::Measurement;
using bench::Verdict;

std::string last_lines(const std::string& text, std::size_t count) {
  std::size_t start = text.size();
  for (std::size_t i = 0; i < count && start > 0; ++i) {
    start = text.rfind('\n', start - 1);
    if (start == std::string::npos) return text;
  }
  return text.substr(start + 1);
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
  auto measurement = measure(request);
  if (!measurement || measurement->verdict != Verdict::regression) return measurement;
  // The second process exists to catch a bias of the first process's own (where its buffers and
  // modules landed); a regression beyond the tolerance by more than any such bias is settled.
  if (bench::beyond_process_bias(measurement->interval, measurement->tolerance)) {
    measurement->notes.push_back(fmt::format(
        "not re-measured in a fresh process: the whole interval lies more than {:g}% beyond the tolerance, more than "
        "a process-level bias (allocation placement) could explain",
        100 * bench::process_bias_bound));
    return measurement;
  }
  if (progress) progress("confirming the regression in a fresh process...");
  // The first process compared both kernels' outputs on two seeds; the same code on the same
  // inputs adds nothing there. What the second adds is its own placement, so it checks one seed
  // (which also sets its inputs up) and spends the rest on timing.
  ChildRequest confirmation = request;
  confirmation.confirming = true;
  auto second = measure(confirmation);
  if (!second) return std::unexpected(second.error());
  measurement->gpu_seconds += second->gpu_seconds;
  measurement->wall_seconds += second->wall_seconds;
  measurement->regression_checks = 2;
  if (second->verdict == Verdict::regression) return measurement;
  // A second process that decided nothing: the slowdown sits near the tolerance, where more rounds
  // narrow the interval to a decision. A third process gets them, before anything is called
  // borderline.
  std::optional<Result<Measurement>> third;
  if (second->verdict == Verdict::inconclusive) {
    if (progress) progress("the confirmation straddled the tolerance: measuring again with more rounds...");
    ChildRequest extended = confirmation;
    extended.extended = true;
    third = measure(extended);
    if (!*third) return std::unexpected(third->error());
    measurement->gpu_seconds += (*third)->gpu_seconds;
    measurement->wall_seconds += (*third)->wall_seconds;
    measurement->regression_checks = 3;
    if ((*third)->verdict == Verdict::regression) {
      measurement->notes.push_back(fmt::format(
          "confirmed by a third process with four times the rounds ({}), after a second straddled the tolerance ({})",
          bench::slowdown_text((*third)->interval), bench::slowdown_text(second->interval)));
      return measurement;
    }
  }
  const Measurement& last = third ? **third : *second;
  // The processes disagree: the slowdown sits near the tolerance, or one process was biased.
  // Neither is a regression at the method's confidence, and neither is a pass: inconclusive,
  // which the gate treats as policy.on_borderline says.
  measurement->notes.push_back(fmt::format("a second process measured {} ({:.4f}x)",
                                           bench::verdict_name(second->verdict), second->interval.speedup));
  if (third)
    measurement->notes.push_back(fmt::format("a third process, with four times the rounds, measured {} ({:.4f}x)",
                                             bench::verdict_name(last.verdict), last.interval.speedup));
  // Pooling the processes' rounds into one interval was rejected: it would average a process
  // bias away instead of testing for it, which is what the second process is for.
  if (last.verdict == Verdict::failed)
    measurement->reason = "the regression was not confirmed: the fresh process failed: " + last.reason;
  else
    measurement->reason = fmt::format("borderline: the first process measured {}, {} {} ({}); the regression was not "
                                      "confirmed",
                                      bench::slowdown_text(measurement->interval),
                                      third ? "a fresh process straddled the tolerance, and a third with more rounds"
                                            : "a fresh process",
                                      bench::slowdown_text(last.interval), bench::verdict_name(last.verdict));
  measurement->verdict = Verdict::inconclusive;
  return measurement;
}

}  // namespace kforecast::measure
