// SPDX-License-Identifier: Apache-2.0
// run_gate over an Outside built from fakes: a compiler whose machine code is a function of the
// source's length, a forecaster that answers what each test says, and a GPU that measures what
// each test says. Each tier, the budget, a failing forecaster and a missing compiler or GPU.
#include "gate/run_gate.hpp"

#include <sstream>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "cuda/fake_compiler.hpp"
#include "gate/fallback_forecaster.hpp"
#include "support/gate_fakes.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using kforecast::test::compile_by_length;
using kforecast::test::measured;
using Catch::Matchers::Contains;

namespace {

// A kernel with a launch spec, so the measuring step can prepare it; `body` is its one statement.
std::string kernel_file(const std::string& name, const std::string& body) {
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

report::ForecastEntry forecast_of(double p_regression, double confidence, std::string forecaster = "embedded") {
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
class FakeForecaster final : public Forecaster {
 public:
  using Answer = std::function<KernelForecast(const std::string& kernel)>;
  FakeForecaster(Answer answer, std::size_t& asked) : m_answer(std::move(answer)), m_asked(asked) {}
  std::string_view name() const override { return "fake"; }
  Result<ForecastRun> forecast(std::span<const ForecastRequest> requests) const override {
    ForecastRun run;
    for (const auto& request : requests) {
      ++m_asked;
      run.kernels.push_back(m_answer(request.candidate.kernel));
    }
    return run;
  }

 private:
  Answer m_answer;
  std::size_t& m_asked;
};

// One gate run over `base` and `head` (path -> text) with the fakes a test sets.
struct Harness {
  kernels::SourceFiles base_files;
  kernels::SourceFiles head_files;
  std::string config_text;
  bool has_compiler = true;
  cuda::FakeCompiler::Handler compile = compile_by_length;
  FakeForecaster::Answer answer = [](const std::string&) { return KernelForecast{forecast_of(0.05, 0.9), "", "", {}}; };
  std::optional<std::string> no_gpu = "no GPU here (fake)";
  std::function<Result<bench::Measurement>(const ChildRequest&)> measure = [](const ChildRequest&) {
    return Result<bench::Measurement>(measured(bench::Verdict::same, 1.0, 1.0));
  };
  bool forecaster_fails_to_build = false;
  // Set: the forecaster is forecast.fallback's composition, `answer` the primary's and this the
  // stand-in's.
  std::optional<FakeForecaster::Answer> stand_in;
  git::ChangeAuthor author;

  std::size_t forecasts_asked = 0;
  std::size_t stand_ins_asked = 0;
  std::size_t measurements_asked = 0;
  std::size_t compiles = 0;
  std::ostringstream warnings;

  Result<GateResult> run(GateStop stop = GateStop::after_measuring) {
    auto config = config::parse_config(config_text, "test.toml");
    REQUIRE(config.has_value());
    m_config = std::move(*config);
    const Settings settings = read_settings(m_config, "/nonexistent-repository");
    const kernels::RevisionSources base(base_files), head(head_files);
    std::set<std::string, std::less<>> touched;
    for (const auto& [path, text] : head_files) touched.insert(path);
    for (const auto& [path, text] : base_files) touched.insert(path);
    const auto analysis = kernels::find_changed_kernels(base, head, {}, touched);
    Outside outside{[](std::string_view) { return std::optional<std::string>(); },
                    warnings,
                    false,
                    nullptr,
                    [this]() -> cuda::LoadedCompiler {
                      if (!has_compiler) return std::unexpected(cuda::Unavailable{"NVRTC not found", "", "", {}});
                      ++compiles;
                      return std::make_unique<cuda::FakeCompiler>(compile);
                    },
                    [] { return std::optional<std::pair<std::string, std::string>>(); },
                    [this](const embedded::FeatureContext&, std::optional<llm::PromptSet>,
                           std::vector<std::string>) -> Result<std::unique_ptr<Forecaster>> {
                      if (forecaster_fails_to_build) return usage_error("endpoint.url is not set");
                      auto primary = std::make_unique<FakeForecaster>(answer, forecasts_asked);
                      if (!stand_in) return std::unique_ptr<Forecaster>(std::move(primary));
                      return std::unique_ptr<Forecaster>(std::make_unique<FallbackForecaster>(
                          std::move(primary), std::make_unique<FakeForecaster>(*stand_in, stand_ins_asked)));
                    },
                    [this] { return no_gpu; },
                    [this](const ChildRequest& request, const std::function<void(std::string_view)>&) {
                      ++measurements_asked;
                      return measure(request);
                    },
                    [] { return std::string("2026-11-25T00:00:00Z"); }};
    return run_gate({"base", "head", "revisions: a test", base, head, analysis, std::nullopt, {},
                     author, {}},
                    settings, outside, stop);
  }

 private:
  config::Config m_config;
};

const report::KernelEntry& only_entry(const GateResult& result) {
  REQUIRE(result.run.cases.size() == 1);
  return result.run.cases.front().entry;
}

}  // namespace

TEST_CASE("run_gate: identical machine code settles the kernel before any forecast") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 3.0f;")}};  // the same length
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.decision == report::Decision::identical_code);
  CHECK(entry.verdict == report::KernelVerdict::pass);
  CHECK(h.forecasts_asked == 0);
  CHECK(h.measurements_asked == 0);
  const auto report = build_report(result->run);
  CHECK(report.verdict == report::GateVerdict::pass);
  CHECK(report.notes.front() == "revisions: a test");
}

TEST_CASE("run_gate: a sure forecast is trusted and nothing is measured") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.decision == report::Decision::trusted_forecast);
  CHECK(entry.verdict == report::KernelVerdict::pass);
  CHECK(h.forecasts_asked == 1);
  CHECK(result->to_measure.empty());
  CHECK(h.measurements_asked == 0);
  CHECK_THAT(entry.notes.back(), Contains("trusted forecast"));
}

TEST_CASE("run_gate: an unsure forecast needs the GPU, and without one the kernel is unverified") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) { return KernelForecast{forecast_of(0.6, 0.3), "", "", {}}; };
  SECTION("policy.on_unverified = warn: the gate passes with a warning") {
    auto result = h.run();
    REQUIRE(result.has_value());
    const auto& entry = only_entry(*result);
    CHECK(entry.verdict == report::KernelVerdict::warn);
    CHECK(entry.unverified);
    CHECK_THAT(entry.notes.back(), Contains("unverified: not measured: no GPU here (fake)"));
    CHECK_FALSE(any_failed(result->run));
    REQUIRE(result->run.gpu_time);
    CHECK(result->run.gpu_time->note == "no GPU");
  }
  SECTION("policy.on_unverified = fail: the gate fails") {
    h.config_text = "[policy]\non_unverified = \"fail\"\n";
    auto result = h.run();
    REQUIRE(result.has_value());
    CHECK(only_entry(*result).verdict == report::KernelVerdict::fail);
    CHECK(build_report(result->run).verdict == report::GateVerdict::fail);
  }
  SECTION("stopped after the policy (a plan), nothing is measured and there is no GPU time") {
    auto result = h.run(GateStop::after_policy);
    REQUIRE(result.has_value());
    CHECK(result->to_measure == std::vector<std::size_t>{0});
    CHECK_FALSE(result->run.gpu_time);
    CHECK(h.measurements_asked == 0);
  }
}

TEST_CASE("run_gate: measured riskiest first until the GPU budget is spent") {
  Harness h;
  h.base_files = {{"a.cu", kernel_file("low_risk", "y[i] = x[i] * 2.0f;")},
                  {"b.cu", kernel_file("high_risk", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"a.cu", kernel_file("low_risk", "y[i] = x[i] * x[i] * 2.0f;")},
                  {"b.cu", kernel_file("high_risk", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string& kernel) {
    return KernelForecast{forecast_of(kernel == "high_risk" ? 0.8 : 0.4, 0.3), "", "", {}};
  };
  h.no_gpu.reset();
  std::vector<std::string> measured_kernels;
  h.measure = [&](const ChildRequest& request) {
    measured_kernels.push_back(request.pair.candidate.substr(request.pair.candidate.rfind(':') + 1));
    return Result<bench::Measurement>(measured(bench::Verdict::regression, 0.5, 6.0));
  };
  h.config_text = "[policy]\ngpu_budget_seconds = 5\n";
  auto result = h.run();
  REQUIRE(result.has_value());
  REQUIRE(measured_kernels == std::vector<std::string>{"high_risk"});
  const auto& cases = result->run.cases;
  REQUIRE(cases.size() == 2);
  const auto& high = cases[0].entry.name == "high_risk" ? cases[0].entry : cases[1].entry;
  const auto& low = cases[0].entry.name == "low_risk" ? cases[0].entry : cases[1].entry;
  CHECK(high.decision == report::Decision::measured);
  CHECK(high.verdict == report::KernelVerdict::fail);
  CHECK(low.unverified);
  CHECK_THAT(low.notes.back(), Contains("the GPU budget is spent"));
  CHECK(any_failed(result->run));
  REQUIRE(result->run.gpu_time);
  CHECK(result->run.gpu_time->measured == 1);
}

TEST_CASE("run_gate: a forecaster that fails for a kernel is a run warning, and the kernel needs the GPU") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) {
    return KernelForecast{std::nullopt, "the endpoint answered 503", "no forecast: the endpoint answered 503", {}};
  };
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK_FALSE(entry.forecast);
  CHECK(std::ranges::find(entry.notes, "no forecast: the endpoint answered 503") != entry.notes.end());
  CHECK(entry.unverified);
  REQUIRE(result->run.warnings.size() == 1);
  CHECK_THAT(result->run.warnings.front().headline, Contains("the fake forecaster failed for 1 of 1 kernel"));
  CHECK_THAT(h.warnings.str(), Contains("kforecast: warning: the fake forecaster failed"));
}

TEST_CASE("run_gate: a forecaster that cannot be built fails the run before any request") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.forecaster_fails_to_build = true;
  auto result = h.run();
  REQUIRE_FALSE(result.has_value());
  CHECK_THAT(result.error().message, Contains("endpoint.url is not set"));
  CHECK(h.forecasts_asked == 0);
}

TEST_CASE("run_gate: without a compiler the code is not compared, and the forecast still runs") {
  Harness h;
  h.has_compiler = false;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 3.0f;")}};
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.decision == report::Decision::trusted_forecast);
  CHECK(std::ranges::any_of(entry.notes, [](const std::string& note) {
    return note.starts_with("machine code not compared: NVRTC not found");
  }));
  CHECK(h.forecasts_asked == 1);
}

TEST_CASE("run_gate: a new kernel and a removed one are settled without a forecast") {
  Harness h;
  h.base_files = {{"old.cu", kernel_file("retired", "y[i] = x[i];")}};
  h.head_files = {{"new.cu", kernel_file("fresh", "y[i] = x[i];")}};
  auto result = h.run();
  REQUIRE(result.has_value());
  REQUIRE(result->run.cases.size() == 2);
  for (const auto& kernel : result->run.cases) {
    CHECK(kernel.entry.decision == report::Decision::skipped);
    CHECK(kernel.entry.verdict == report::KernelVerdict::pass);
  }
  CHECK(h.forecasts_asked == 0);
  CHECK(build_report(result->run).verdict == report::GateVerdict::pass);
}

TEST_CASE("run_gate: with forecast.fallback the stand-in's forecast decides a kernel the primary failed for") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) {
    return KernelForecast{std::nullopt, "the endpoint timed out", "the endpoint timed out: the embedded forecast stands in",
                          {}};
  };
  h.stand_in = [](const std::string&) { return KernelForecast{forecast_of(0.05, 0.9), "", "", {}}; };
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  REQUIRE(entry.forecast);
  CHECK(entry.forecast->fallback_for == "fake");
  CHECK(entry.decision == report::Decision::trusted_forecast);
  CHECK(h.stand_ins_asked == 1);
  REQUIRE(result->run.warnings.size() == 1);
  CHECK_THAT(result->run.warnings.front().detail, Contains("stood in"));
}

TEST_CASE("run_gate: an untrusted author's kernel is not passed on an LLM forecast alone") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) { return KernelForecast{forecast_of(0.05, 0.9, "llm"), "", "", {}}; };
  h.author.trust = git::AuthorTrust::untrusted;
  h.author.reason = "a first-time contributor (test)";
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  // The embedded forecaster's second opinion was asked for; whatever it said, the LLM's sure
  // forecast alone did not pass the kernel.
  CHECK(result->run.cases.front().second_opinion.has_value());
  const bool passed_on_embedded = std::ranges::any_of(entry.notes, [](const std::string& note) {
    return note.starts_with("trusted on the embedded forecaster's forecast");
  });
  CHECK((entry.decision != report::Decision::trusted_forecast || passed_on_embedded));
  CHECK((entry.decision == report::Decision::trusted_forecast || entry.unverified));
  CHECK(std::ranges::none_of(entry.notes, [](const std::string& note) { return note.starts_with("trusted forecast:"); }));
}

TEST_CASE("run_gate: a trusted author's kernel may pass on the LLM's sure forecast") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) { return KernelForecast{forecast_of(0.05, 0.9, "llm"), "", "", {}}; };
  h.author.trust = git::AuthorTrust::trusted;
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(only_entry(*result).decision == report::Decision::trusted_forecast);
  CHECK_FALSE(result->run.cases.front().second_opinion);
}

namespace {

// A compiler that fails on every source containing `marker` ("": every source), with `log` as its message, the way
// the confined NVRTC reports a failure ("FILE does not compile for ARCH:" and NVRTC's log).
cuda::FakeCompiler::Handler failing_on(std::string marker, std::string log) {
  return [marker = std::move(marker), log = std::move(log)](const cuda::CompileRequest& request) -> Result<cuda::CompileOutput> {
    if (request.source.find(marker) != std::string::npos)
      return fail(ExitCode::could_not_run, fmt::format("{} does not compile for compute_90:\n{}", request.file_name, log));
    return compile_by_length(request);
  };
}

bool has_note(const report::KernelEntry& entry, std::string_view text) {
  return std::ranges::any_of(entry.notes,
                             [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("run_gate: a head that no longer compiles, where the base did, fails the gate with the first error") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * undefined_z;")}};
  h.compile = failing_on("undefined_z", "k.cu(12): error: identifier \"undefined_z\" is undefined\n1 error detected");
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.verdict == report::KernelVerdict::fail);
  CHECK(has_note(entry, "the head does not compile for sm_90"));
  CHECK(has_note(entry, "k.cu(12): error: identifier \"undefined_z\" is undefined"));
  CHECK(h.forecasts_asked == 0);
}

TEST_CASE("run_gate: a head that needs a header the compiler cannot open is forecast, not failed") {
  // The shape of a merged commit that includes a host library's header (cuBLAS, NVTX) in a
  // kernel file: NVRTC has no C library, so the toolkit header's own #include fails. The
  // project builds it; kforecast lacks the context, which is no reason to fail the change.
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.compile = failing_on("x[i] * x[i]",
                         "/usr/local/cuda/include/cublas_api.h(68): catastrophic error: cannot open source file "
                         "\"stdint.h\"\n  #include <stdint.h>\n\n1 catastrophic error detected");
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.verdict != report::KernelVerdict::fail);
  CHECK(has_note(entry, "the head could not be compiled for sm_90 with the context kforecast has"));
  CHECK(has_note(entry, "\"stdint.h\""));
  CHECK(h.forecasts_asked == 1);
  CHECK_FALSE(any_failed(result->run));
}

TEST_CASE("run_gate: a kernel neither revision compiles is forecast, not failed") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.compile = failing_on("", "k.cu(40): error: identifier \"FILE\" is undefined\n1 error detected");
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.verdict != report::KernelVerdict::fail);
  CHECK(has_note(entry, "neither revision compiles for sm_90 with the context kforecast has"));
  CHECK(h.forecasts_asked == 1);
}
