// SPDX-License-Identifier: Apache-2.0
#pragma once

// run_gate over an Outside built from fakes (tests/gate/run_gate_*_test.cpp): a compiler whose
// machine code is a function of the source's length unless a test says otherwise, a forecaster
// that answers what each test says, and a GPU that measures what each test says.

#include <sstream>

#include <catch2/catch.hpp>

#include "cuda/fake_compiler.hpp"
#include "forecasters/fallback_forecaster.hpp"
#include "gate/run_gate.hpp"
#include "harness/harness_measure.hpp"
#include "support/gate_fakes.hpp"
#include "support/sandbox_statuses.hpp"

namespace kforecast::test {

using namespace kforecast;
using namespace kforecast::gate;


// A kernel with a launch spec, so the measuring step can prepare it; `body` is its one statement.
inline std::string kernel_file(const std::string& name, const std::string& body) {
  return "// kforecast:\n"
         "// sizes = [{ n = 1024 }]\n"
         "// grid = [\"ceil_div(n, 256)\"]\n"
         "// block = [256]\n"
         "// [kernel.args]\n"
         "// x = { count = \"n\", init = \"uniform(-1, 1)\" }\n"
         "// y = { count = \"n\", role = \"out\" }\n"
         "// n = \"n\"\n"
         "__global__ void " +
         name + "(const float* x, float* y, int n) {\n  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) " +
         body + "\n}\n";
}

inline report::ForecastEntry forecast_of(double p_regression, double confidence, std::string forecaster = "embedded") {
  report::ForecastEntry f;
  f.forecaster = std::move(forecaster);
  f.model = "fake";
  f.bin = 4;
  f.probabilities = {0, 0, 0.1, 0.4, 0.4, 0.1, 0, 0};
  f.p_regression = p_regression;
  f.confidence = confidence;
  return f;
}

// Answers every request with `answer(kernel name)`; counts the requests.
class FakeForecaster final : public forecasters::Forecaster {
 public:
  using Answer = std::function<forecasters::KernelForecast(const std::string& kernel)>;
  FakeForecaster(Answer answer, std::size_t& asked, std::vector<forecasters::ForecastRequest>* seen = nullptr)
      : m_answer(std::move(answer)), m_asked(asked), m_seen(seen) {}
  std::string_view name() const override { return "fake"; }
  Result<forecasters::ForecastRun> forecast(std::span<const forecasters::ForecastRequest> requests) const override {
    forecasters::ForecastRun run;
    for (const auto& request : requests) {
      ++m_asked;
      if (m_seen != nullptr) m_seen->push_back(request);
      run.kernels.push_back(m_answer(request.candidate.kernel));
    }
    return run;
  }

 private:
  Answer m_answer;
  std::size_t& m_asked;
  std::vector<forecasters::ForecastRequest>* m_seen;
};

// One gate run over `base` and `head` (path -> text) with the fakes a test sets.
struct Harness {
  kernels::SourceFiles base_files;
  kernels::SourceFiles head_files;
  std::string config_text;
  bool has_compiler = true;
  cuda::FakeCompiler::Handler compile = compile_by_length;
  FakeForecaster::Answer answer = [](const std::string&) { return forecasters::KernelForecast{forecast_of(0.05, 0.9), "", "", {}}; };
  std::optional<std::string> no_gpu = "no GPU here (fake)";
  std::function<Result<bench::Measurement>(const measure::ChildRequest&)> measure = [](const measure::ChildRequest&) {
    return Result<bench::Measurement>(measured(bench::Verdict::same, 1.0, 1.0));
  };
  bool forecaster_fails_to_build = false;
  // Set: the forecaster is forecast.fallback's composition, `answer` the primary's and this the
  // stand-in's.
  std::optional<FakeForecaster::Answer> stand_in;
  git::ChangeAuthor author;
  // The revisions as the run names them (the project's harness needs commits), and the harness
  // measurer; empty: none.
  std::string base_revision = "base";
  std::string head_revision = "head";
  // Where the run's repository is (capture.dir is read there at each revision).
  std::filesystem::path repository_root = "/nonexistent-repository";
  measure::HarnessMeasurer measure_with_harness;
  // capture.command's shell runner and capture library; empty: none lent.
  harness::ShellRunner capture_shell;
  std::function<Result<std::filesystem::path>()> capture_library;
  EnvLookup env = [](std::string_view) { return std::optional<std::string>(); };
  RunDeadline deadline;  // the run's wall budget; default: none
  // What confines code under review here; every layer unless a test says otherwise.
  SandboxStatus sandbox = testing::sandbox_in_force();

  std::size_t forecasts_asked = 0;
  std::vector<forecasters::ForecastRequest> forecast_requests;  // what the primary forecaster was asked
  std::size_t stand_ins_asked = 0;
  std::size_t measurements_asked = 0;
  std::size_t compiles = 0;
  std::ostringstream warnings;

  Result<gate::GateResult> run(gate::GateStop stop = gate::GateStop::after_measuring) {
    auto config = config::parse_config(config_text, "test.toml");
    REQUIRE(config.has_value());
    m_config = std::move(*config);
    const gate::Settings settings = read_settings(m_config, repository_root);
    const kernels::RevisionSources base(base_files), head(head_files);
    std::set<std::string, std::less<>> touched;
    for (const auto& [path, text] : head_files) touched.insert(path);
    for (const auto& [path, text] : base_files) touched.insert(path);
    const auto analysis = kernel_changes::find_changed_kernels(base, head, {}, touched);
    // The caches the environment names, as cli opens them.
    std::optional<policy::PtxCache> ptx;
    std::optional<embedded::FactsCache> facts;
    if (auto directory = policy::default_ptx_cache_directory(env)) {
      ptx.emplace(*directory);
      facts.emplace(directory->parent_path() / "facts");
    }
    std::optional<builds::UnitCache> units;
    if (auto directory = builds::default_unit_cache_directory(env)) units.emplace(*directory);
    gate::Outside outside{
        .env = env,
        .console = {warnings, false, nullptr},
        .compilers = {.nvrtc = [this]() -> cuda::LoadedCompiler {
                        if (!has_compiler) return std::unexpected(cuda::Unavailable{"NVRTC not found", "", "", {}});
                        ++compiles;
                        return std::make_unique<cuda::FakeCompiler>(compile);
                      }},
        .gpu = {.local = [] { return std::optional<std::pair<std::string, std::string>>(); },
                .unavailable = [this] { return no_gpu; },
                .measure_pairs =
                    [this](const measure::BatchRequest& batch, const std::function<void(std::string_view)>&) {
                      // As the batch child does: pairs in order, none started once the budget is spent.
                      measure::BatchOutcomes outcomes;
                      double spent = 0;
                      for (const auto& pair : batch.pairs) {
                        if (batch.budget_seconds > 0 && spent >= batch.budget_seconds) {
                          outcomes.emplace_back();
                          continue;
                        }
                        ++measurements_asked;
                        auto outcome = measure({pair, batch.config, batch.working_directory, batch.timeout_seconds});
                        if (outcome) spent += outcome->gpu_seconds;
                        outcomes.emplace_back(std::move(outcome));
                      }
                      return outcomes;
                    }},
        .forecaster = [this](const embedded::FeatureContext&, std::optional<llm::PromptSet>,
                             std::vector<std::string>) -> Result<std::unique_ptr<forecasters::Forecaster>> {
          if (forecaster_fails_to_build) return usage_error("endpoint.url is not set");
          auto primary = std::make_unique<FakeForecaster>(answer, forecasts_asked, &forecast_requests);
          if (!stand_in) return std::unique_ptr<forecasters::Forecaster>(std::move(primary));
          return std::unique_ptr<forecasters::Forecaster>(std::make_unique<forecasters::FallbackForecaster>(
              std::move(primary), std::make_unique<FakeForecaster>(*stand_in, stand_ins_asked)));
        },
        .project = {.shell = capture_shell,
                    .harness = measure_with_harness,
                    .capture_library = capture_library,
                    .trees = harness::default_harness_cache(env),
                    .env = env},
        .repository = [](const std::filesystem::path& folder) { return git::open_repository(folder); },
        .caches = {.units = units ? &*units : nullptr, .ptx = ptx ? &*ptx : nullptr, .facts = facts ? &*facts : nullptr},
        .now = [] { return std::string("2026-11-25T00:00:00Z"); },
        .deadline = deadline,
        .sandbox = sandbox};
    return run_gate(
        {base_revision, head_revision, "revisions: a test", base, head, analysis, std::nullopt, {}, author, {}},
        settings, outside, stop);
  }

 private:
  config::Config m_config;
};

inline const report::KernelEntry& only_entry(const gate::GateResult& result) {
  REQUIRE(result.run.cases.size() == 1);
  return result.run.cases.front().entry;
}

}  // namespace kforecast::test
