// SPDX-License-Identifier: Apache-2.0
#include "cli/gate_outside.hpp"

#include <chrono>

#include "base/this_executable.hpp"
#include "cuda/isolated_compiler.hpp"
#include "forecasters/configured_forecaster.hpp"
#include "git/repository.hpp"

namespace kforecast::cli {
namespace {

template <class T>
const T* pointer_to(const std::optional<T>& value) {
  return value ? &*value : nullptr;
}

}  // namespace

const SandboxStatus& this_machine_sandbox() {
  static const SandboxStatus status = probe_sandbox(this_executable());
  return status;
}

RealOutside::RealOutside(const config::Config& config, Context& context)
    : m_caches(open_caches(context.env)),
      m_outside{.env = context.env,
                .console = {context.err, context.err_is_terminal, context.progress},
                .compilers = real_compilers(config, context.env),
                .gpu = real_gpu(config),
                .forecaster = forecasters::configured_forecaster(config, context.env,
                                                                 real_llm_world(config, context.env),
                                                                 context.progress,
                                                                 context.err),
                .project = real_project_programs(context.env),
                .repository = [](const std::filesystem::path& folder) { return git::open_repository(folder); },
                .caches = {pointer_to(m_caches.units), pointer_to(m_caches.ptx), pointer_to(m_caches.facts)},
                .now = utc_timestamp,
                .deadline = RunDeadline(context.started, std::chrono::seconds(static_cast<long long>(
                                                             config.number_value("run.budget_seconds")))),
                .sandbox = this_machine_sandbox()} {}

}  // namespace kforecast::cli
