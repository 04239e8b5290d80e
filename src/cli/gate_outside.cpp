// SPDX-License-Identifier: Apache-2.0
#include "cli/gate_outside.hpp"

#include <filesystem>

#include "capture/injection_library.hpp"
#include "cuda/isolated_compiler.hpp"
#include "gate/bench_child.hpp"
#include "gate/compiler_loading.hpp"
#include "gate/configured_forecaster.hpp"
#include "gate/pr_bench.hpp"
#include "harness/harness_measure.hpp"
#include "harness/shell_runner.hpp"

namespace kforecast::cli {

const SandboxStatus& this_machine_sandbox() {
  static const SandboxStatus status = probe_sandbox(cuda::this_executable());
  return status;
}

gate::Outside real_outside(const config::Config& config, Context& context) {
  gate::Outside outside{
      context.env,
      context.err,
      context.err_is_terminal,
      context.progress,
      [&config, env = context.env] { return gate::load_compiler(config, env); },
      [&config] { return gate::first_local_gpu(config); },
      gate::configured_forecaster(config, context.env, context.err_is_terminal ? &context.err : nullptr, context.err),
      [&config] { return gate::no_gpu_reason(config); },
      [](const gate::ChildRequest& request, const std::function<void(std::string_view)>& progress) {
        return gate::measure_confirmed(request, progress);
      },
      gate::utc_timestamp,
      [&config, env = context.env] { return gate::load_unit_compiler(config, env); },
      [](const harness::HarnessRequest& request, const harness::HarnessProgress& progress) {
        return harness::measure_with_harness(request, harness::confined_shell_runner(cuda::this_executable()),
                                             progress);
      },
      harness::confined_shell_runner(cuda::this_executable()),
      [env = context.env] {
        return capture::find_injection_library(cuda::this_executable(), env, [](const std::filesystem::path& path) {
          std::error_code ignored;
          return std::filesystem::is_regular_file(path, ignored);
        });
      }};
  outside.deadline = gate::RunDeadline(
      context.started, std::chrono::seconds(static_cast<long long>(config.number_value("run.budget_seconds"))));
  outside.sandbox = this_machine_sandbox();
  return outside;
}

}  // namespace kforecast::cli
