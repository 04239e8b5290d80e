// SPDX-License-Identifier: Apache-2.0
// `kforecast eval` through cli::run, on corpus kernels paired with INVENTED speedups (the labels
// exercise the command; they teach nothing about GPUs). NVRTC is left out (--no-nvrtc) so the
// tests run everywhere and fast.

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include "base/json_string.hpp"
#include "cli/run.hpp"
#include "forecast/scoring.hpp"
#include "support/fake_http_server.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using kforecast::testing::FakeHttpServer;
using kforecast::testing::ScriptedResponse;
using kforecast::testing::TempDir;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  ExitCode code;
  std::string out, err;
};

Outcome run_cli(std::vector<std::string> args, std::map<std::string, std::string, std::less<>> env = {}) {
  std::ostringstream out, err;
  Context context{out, err, fixed_environment(env)};
  const ExitCode code = run(args, context);
  return {code, out.str(), err.str()};
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Kernel {
  std::string source, name;
};

Kernel corpus_kernel(const std::string& family, const std::string& file, const std::string& name) {
  return {read(fs::path(KF_SOURCE_DIR) / "fixtures" / "corpus" / family / (file + ".cu")), name};
}

std::string pair_line(const std::string& id, const std::string& family, const Kernel& reference,
                      const Kernel& candidate, double speedup) {
  return fmt::format(
      "{{\"id\": {}, \"family\": {}, \"hardware\": \"H100\", \"reference\": {{\"source\": {}, \"kernel\": {}}}, "
      "\"candidate\": {{\"source\": {}, \"kernel\": {}}}, \"speedup\": {}}}\n",
      json_string(id), json_string(family), json_string(reference.source), json_string(reference.name),
      json_string(candidate.source), json_string(candidate.name), speedup);
}

// Both directions of a naive/vectorised pair in each of three families, with invented speedups.
fs::path write_dataset(const fs::path& dir, const std::string& extra_lines = "") {
  const Kernel gemv_a = corpus_kernel("gemv", "thread_per_row", "gemv_thread_per_row");
  const Kernel gemv_b = corpus_kernel("gemv", "warp_vectorized", "gemv_warp_vectorized");
  const Kernel red_a = corpus_kernel("reduction", "thread_per_row", "row_sum_thread_per_row");
  const Kernel red_b = corpus_kernel("reduction", "vectorized", "row_sum_vectorized");
  const Kernel soft_a = corpus_kernel("softmax", "thread_per_row", "softmax_thread_per_row");
  const Kernel soft_b = corpus_kernel("softmax", "block_vectorized", "softmax_block_vectorized");
  const auto path = dir / "pairs.jsonl";
  std::ofstream out(path);
  out << pair_line("gemv-1", "gemv", gemv_a, gemv_b, 2.5) << pair_line("gemv-2", "gemv", gemv_b, gemv_a, 0.4)
      << pair_line("red-1", "reduction", red_a, red_b, 1.8) << pair_line("red-2", "reduction", red_b, red_a, 0.55)
      << "\n"  // a blank line is allowed
      << pair_line("soft-1", "softmax", soft_a, soft_b, 3.0) << pair_line("soft-2", "softmax", soft_b, soft_a, 0.33)
      << extra_lines;
  return path;
}

nlohmann::json parse(const std::string& text) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  REQUIRE(!doc.is_discarded());
  return doc;
}

double number(const nlohmann::json& e) {
  REQUIRE(e.is_number());
  return e.get<double>();
}

struct Prediction {
  std::string id, family, decision;
  std::array<double, 8> probabilities{}, prior{};
  int predicted_bin = 0, true_bin = 0;
  double confidence = 0, speedup = 0;
  std::size_t notes = 0;
};

std::vector<Prediction> read_predictions(const fs::path& path) {
  std::vector<Prediction> predictions;
  std::istringstream lines(read(path));
  std::string line;
  while (std::getline(lines, line)) {
    auto doc = parse(line);
    Prediction p;
    p.id = doc["id"].get<std::string>();
    p.family = doc["family"].get<std::string>();
    p.decision = doc["decision"].get<std::string>();
    std::size_t k = 0;
    for (const auto& v : doc["probabilities"]) p.probabilities.at(k++) = number(v);
    REQUIRE(k == 8);
    k = 0;
    for (const auto& v : doc["prior"]) p.prior.at(k++) = number(v);
    p.predicted_bin = static_cast<int>(number(doc["predicted_bin"]));
    p.true_bin = static_cast<int>(number(doc["true_bin"]));
    p.confidence = number(doc["confidence"]);
    p.speedup = number(doc["speedup"]);
    p.notes = doc["notes"].size();
    predictions.push_back(p);
  }
  return predictions;
}

// Brier recomputed from the predictions file alone, by the definition: 0.5 * sum (p_k - y_k)^2.
double recomputed_brier(const std::vector<Prediction>& predictions, bool prior) {
  double total = 0;
  for (const auto& p : predictions) {
    const auto& probabilities = prior ? p.prior : p.probabilities;
    double row = 0;
    for (int k = 1; k <= 8; ++k) {
      const double y = k == p.true_bin ? 1.0 : 0.0;
      row +=
          (probabilities[static_cast<std::size_t>(k - 1)] - y) * (probabilities[static_cast<std::size_t>(k - 1)] - y);
    }
    total += 0.5 * row;
  }
  return total / static_cast<double>(predictions.size());
}

}  // namespace

TEST_CASE("cli: eval prints the metrics, and --predictions lets anyone recompute them") {
  TempDir dir;
  const auto dataset = write_dataset(dir.path());
  const auto predictions_path = dir.path() / "predictions.jsonl";
  auto outcome =
      run_cli({"eval", dataset.string(), "--no-nvrtc", "--format", "json", "--predictions", predictions_path.string()});
  INFO(outcome.err);
  REQUIRE(outcome.code == ExitCode::pass);
  auto report = parse(outcome.out);
  CHECK(number(report["n"]) == 6);
  CHECK(report["cv"].get<std::string>() == "none");
  CHECK(report["families"].size() == 3);
  auto overall = report["overall"];
  CHECK(overall["name"].get<std::string>() == "overall");

  const auto predictions = read_predictions(predictions_path);
  REQUIRE(predictions.size() == 6);  // the blank line is not a pair; every pair is a line
  CHECK(predictions[0].id == "gemv-1");
  CHECK(predictions[4].family == "softmax");
  CHECK(predictions[0].true_bin == 7);  // 2.5
  CHECK(predictions[1].true_bin == 2);  // 0.4
  CHECK(predictions[5].true_bin == 2);  // 0.33
  for (const auto& p : predictions) {
    double sum = 0;
    for (double v : p.probabilities) sum += v;
    CHECK(sum == Approx(1.0));
    CHECK(p.confidence == Approx(*std::max_element(p.probabilities.begin(), p.probabilities.end())));
    CHECK((p.decision == "trusted_forecast" || p.decision == "measure"));
  }
  // The JSON prints 6 significant digits.
  CHECK(number(overall["forecaster"]["brier"]) == Approx(recomputed_brier(predictions, false)).epsilon(1e-5));
  CHECK(number(overall["training_prior"]["brier"]) == Approx(recomputed_brier(predictions, true)).epsilon(1e-5));
  std::size_t measured = 0;
  for (const auto& p : predictions) measured += p.decision == "measure";
  CHECK(number(overall["forecaster"]["gpu_fraction"]) == Approx(static_cast<double>(measured) / 6.0));

  // The same figures as a table.
  auto table = run_cli({"eval", dataset.string(), "--no-nvrtc"});
  REQUIRE(table.code == ExitCode::pass);
  CHECK_THAT(table.out, StartsWith("kforecast eval: " + dataset.string() + ": 6 pairs in 3 families"));
  CHECK_THAT(table.out, Contains("forecaster  training prior  always bin 5"));
  CHECK_THAT(table.out, Contains(fmt::format("  brier{:>24.3f}", number(overall["forecaster"]["brier"]))));
  CHECK_THAT(table.out, Contains("regression_recall") && Contains("gpu_fraction") && Contains("per family"));
  CHECK_THAT(table.out, Contains("  reduction "));
}

TEST_CASE("cli: eval --cv family never trains a fold's model on the family it forecasts") {
  // The same two kernels in four families, with invented, contradictory labels. In family a (20
  // pairs) the vectorised kernel is 3x slower than the naive one; in b, c and d (4 pairs each) it
  // is 3x faster. Each fold's model must follow the OTHER families: a's follows b, c and d
  // (naive -> vectorised faster), while had a's own 20 pairs leaked into its training they would
  // outvote the 12 and turn it around. b's, c's and d's follow a's majority (slower).
  TempDir dir;
  const Kernel naive = corpus_kernel("gemv", "thread_per_row", "gemv_thread_per_row");
  const Kernel fast = corpus_kernel("gemv", "warp_vectorized", "gemv_warp_vectorized");
  const auto path = dir.path() / "leak.jsonl";
  {
    std::ofstream out(path);
    for (const std::string family : {"a", "b", "c", "d"}) {
      const double speedup = family == "a" ? 1.0 / 3.0 : 3.0;
      for (int copy = 0; copy < (family == "a" ? 10 : 2); ++copy) {
        out << pair_line(fmt::format("{}-up-{}", family, copy), family, naive, fast, speedup);
        out << pair_line(fmt::format("{}-down-{}", family, copy), family, fast, naive, 1.0 / speedup);
      }
    }
  }
  const auto predictions_path = dir.path() / "p.jsonl";
  auto outcome = run_cli({"eval", path.string(), "--no-nvrtc", "--cv", "family", "--format", "json", "--predictions",
                          predictions_path.string()});
  INFO(outcome.err);
  REQUIRE(outcome.code == ExitCode::pass);
  const auto predictions = read_predictions(predictions_path);
  REQUIRE(predictions.size() == 32);
  for (const auto& p : predictions) {
    INFO(p.id);
    const bool up = p.id.find("-up-") != std::string::npos;
    // P(S > 1): on which side of "no change" the forecast falls (temperature cannot move it).
    const double p_faster = p.probabilities[4] + p.probabilities[5] + p.probabilities[6] + p.probabilities[7];
    const bool others_say_faster = (p.family == "a") == up;
    CHECK((others_say_faster ? p_faster > 0.5 : p_faster < 0.5));
  }
  auto report = parse(outcome.out);
  CHECK(report["cv"].get<std::string>() == "family");
  CHECK_THAT(report["model"].get<std::string>(), Contains("leave-one-family-out"));
  CHECK(report["families"].size() == 4);
}

TEST_CASE("cli: eval counts a pair whose source cannot be read, and never drops a row") {
  TempDir dir;
  const Kernel naive = corpus_kernel("gemv", "thread_per_row", "gemv_thread_per_row");
  const Kernel garbage{"this is not CUDA {{{ ((( \"unterminated", "missing_kernel"};
  const auto dataset = write_dataset(dir.path(), pair_line("broken", "gemv", naive, garbage, 0.9));
  const auto predictions_path = dir.path() / "p.jsonl";
  auto outcome = run_cli({"eval", dataset.string(), "--no-nvrtc", "--predictions", predictions_path.string()});
  INFO(outcome.err);
  REQUIRE(outcome.code == ExitCode::pass);
  CHECK_THAT(outcome.out, Contains("7 pairs in 3 families"));
  CHECK_THAT(outcome.out, Contains("1 pair with a kernel not found in its source: forecast from what could be read"));
  const auto predictions = read_predictions(predictions_path);
  REQUIRE(predictions.size() == 7);
  CHECK(predictions.back().id == "broken");
  CHECK(predictions.back().notes == 1);
  // Less is known: the distribution is wider (less confident) than a pair whose kernels were found.
  CHECK(predictions.back().confidence < predictions[0].confidence);
}

TEST_CASE("cli: eval refuses bad input with the place and the fix") {
  TempDir dir;
  const auto dataset = write_dataset(dir.path(), "{\"id\": \"x\", \"reference\": {\"source\": 1}}\n");
  auto malformed = run_cli({"eval", dataset.string(), "--no-nvrtc"});
  CHECK(malformed.code == ExitCode::usage);
  CHECK_THAT(malformed.err, Contains(dataset.string() + ":8: reference.\"source\" must be a string"));
  CHECK(malformed.out.empty());

  std::ofstream(dir.path() / "truncated.jsonl") << "{\"id\": \"x\", \"reference\": {\"sou";
  CHECK_THAT(run_cli({"eval", (dir.path() / "truncated.jsonl").string()}).err, Contains("truncated.jsonl:1: not JSON"));
  std::ofstream(dir.path() / "empty.jsonl") << "\n\n";
  auto empty = run_cli({"eval", (dir.path() / "empty.jsonl").string(), "--no-nvrtc"});
  CHECK(empty.code == ExitCode::could_not_run);
  CHECK_THAT(empty.err, Contains("empty.jsonl: no labelled pairs"));
  auto missing = run_cli({"eval", (dir.path() / "missing.jsonl").string()});
  CHECK(missing.code == ExitCode::could_not_run);
  CHECK_THAT(missing.err, Contains("cannot read the dataset"));

  CHECK(run_cli({"eval"}).code == ExitCode::usage);
  CHECK(run_cli({"eval", "a.jsonl", "b.jsonl"}).code == ExitCode::usage);
  CHECK_THAT(run_cli({"eval", "x.jsonl", "--cv", "folds"}).err, Contains("--cv folds: expected family"));
  CHECK_THAT(run_cli({"eval", "x.jsonl", "--format", "md"}).err, Contains("--format md: expected text or json"));
  CHECK_THAT(run_cli({"eval", "x.jsonl", "--forecaster", "oracle"}).err,
             Contains("--forecaster oracle: expected embedded or llm"));
  CHECK_THAT(run_cli({"eval", "x.jsonl", "--hardware", "Z9"}).err, Contains("unknown GPU 'Z9'"));

  // Leave-one-family-out needs two families.
  const Kernel naive = corpus_kernel("gemv", "thread_per_row", "gemv_thread_per_row");
  std::ofstream(dir.path() / "one.jsonl")
      << pair_line("1", "gemv", naive, naive, 1.0) << pair_line("2", "gemv", naive, naive, 1.0);
  auto one_family = run_cli({"eval", (dir.path() / "one.jsonl").string(), "--no-nvrtc", "--cv", "family"});
  CHECK(one_family.code == ExitCode::usage);
  CHECK_THAT(one_family.err,
             Contains("--cv family needs pairs from at least two families; every pair here is in 'gemv'"));

  // An unwritable predictions file is an error, not a silent pass.
  auto unwritable = run_cli({"eval", (dir.path() / "one.jsonl").string(), "--no-nvrtc", "--predictions",
                             (dir.path() / "no" / "such" / "dir" / "p.jsonl").string()});
  CHECK(unwritable.code == ExitCode::could_not_run);
  CHECK_THAT(unwritable.err, Contains("--predictions: cannot write"));
}

TEST_CASE("cli: eval --plots writes the two SVGs and says where") {
  TempDir dir;
  const auto dataset = write_dataset(dir.path());
  auto outcome = run_cli({"eval", dataset.string(), "--no-nvrtc", "--plots", (dir.path() / "plots").string()});
  INFO(outcome.err);
  REQUIRE(outcome.code == ExitCode::pass);
  CHECK(fs::is_regular_file(dir.path() / "plots" / "reliability.svg"));
  CHECK(fs::is_regular_file(dir.path() / "plots" / "risk_coverage.svg"));
  CHECK_THAT(outcome.out, Contains("plot written to " + (dir.path() / "plots" / "reliability.svg").string()));
  CHECK_THAT(read(dir.path() / "plots" / "reliability.svg"), StartsWith("<?xml") && Contains("</svg>"));
}

TEST_CASE("cli: eval --forecaster llm scores the endpoint, and a failed forecast still counts") {
  TempDir dir;
  const auto dataset = write_dataset(dir.path());
  FakeHttpServer server;
  // Every answer: bin 5 at 0.5. The softmax pairs get a server error: no forecast.
  server.set_handler([](const auto& request, std::size_t) {
    if (request.body.find("softmax_block_vectorized") != std::string::npos)
      return ScriptedResponse::json(500, R"({"error": {"message": "overloaded"}})");
    return ScriptedResponse::json(
        200,
        R"({"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"rationale\":\"r\",\"p1_severe_slowdown\":0,\"p2_significant_slowdown\":0,\"p3_moderate_slowdown\":0.1,\"p4_minor_slowdown\":0.2,\"p5_minor_speedup\":0.5,\"p6_significant_speedup\":0.2,\"p7_high_speedup\":0,\"p8_extreme_speedup\":0,\"predicted_bin\":5}"}}]})");
  });
  std::ofstream(dir.path() / "config.toml") << "[endpoint]\ncache = false\nmax_retries = 0\n";
  const auto predictions_path = dir.path() / "p.jsonl";
  auto outcome = run_cli({"eval", dataset.string(), "--no-nvrtc", "--forecaster", "llm", "--config",
                          (dir.path() / "config.toml").string(), "--predictions", predictions_path.string()},
                         {{"KFORECAST_ENDPOINT", server.base_url() + "/v1"}, {"KFORECAST_MODEL", "fake-model"}});
  INFO(outcome.err);
  REQUIRE(outcome.code == ExitCode::pass);
  CHECK_THAT(outcome.out, Contains("forecaster llm: LLM forecaster: fake-model"));
  CHECK_THAT(outcome.out, Contains("2 pairs without an LLM forecast: scored as the uniform distribution"));
  const auto predictions = read_predictions(predictions_path);
  REQUIRE(predictions.size() == 6);
  CHECK(predictions[0].probabilities[4] == Approx(0.5));
  CHECK(predictions[4].family == "softmax");
  CHECK(predictions[4].probabilities[4] == Approx(0.125));
  CHECK(predictions[4].notes == 1);

  // Without an endpoint: a usage error naming what to set.
  auto unconfigured = run_cli({"eval", dataset.string(), "--no-nvrtc", "--forecaster", "llm"});
  CHECK(unconfigured.code == ExitCode::usage);
  CHECK_THAT(unconfigured.err, Contains("endpoint.url"));
}

TEST_CASE("cli: help eval teaches the metrics and the flags") {
  auto help = run_cli({"help", "eval"});
  CHECK(help.code == ExitCode::pass);
  CHECK_THAT(help.out, StartsWith("usage: kforecast eval DATASET.jsonl"));
  for (const char* word :
       {"--cv", "--predictions", "--plots", "--forecaster", "--format", "accuracy", "within_one", "ece", "brier",
        "crps", "nll", "aurc", "gpu_fraction", "regression_recall", "training prior", "always bin 5"})
    CHECK_THAT(help.out, Contains(word));
  CHECK(run_cli({"eval", "--help"}).out == help.out);
}
