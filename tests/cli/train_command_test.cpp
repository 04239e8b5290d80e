// SPDX-License-Identifier: Apache-2.0
// `kforecast train` through cli::run, on corpus kernels paired with INVENTED speedups: the labels
// exist to exercise the command, not to teach the model anything. NVRTC is left out (--no-nvrtc)
// so the test runs everywhere; tests/embedded covers NVRTC facts.

#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "cli/run.hpp"
#include "embedded/ordinal_model.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

struct Outcome {
  ExitCode code;
  std::string out, err;
};

Outcome run_cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  Context context{out, err, fixed_environment({})};
  const ExitCode code = run(args, context);
  return {code, out.str(), err.str()};
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// Invented labels: the vectorised variant "2x faster" than the naive one in each family.
std::filesystem::path write_dataset(const std::filesystem::path& dir) {
  const auto corpus = std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "corpus";
  struct Variant {
    std::string family, file, kernel;
  };
  const std::vector<std::pair<Variant, Variant>> pairs{
      {{"gemv", "thread_per_row", "gemv_thread_per_row"}, {"gemv", "warp_vectorized", "gemv_warp_vectorized"}},
      {{"reduction", "thread_per_row", "row_sum_thread_per_row"}, {"reduction", "vectorized", "row_sum_vectorized"}},
      {{"softmax", "thread_per_row", "softmax_thread_per_row"},
       {"softmax", "block_vectorized", "softmax_block_vectorized"}},
  };
  const auto path = dir / "pairs.jsonl";
  std::ofstream out(path);
  for (const auto& [a, b] : pairs) {
    for (int direction = 0; direction < 2; ++direction) {
      const Variant& ref = direction == 0 ? a : b;
      const Variant& cand = direction == 0 ? b : a;
      out << "{\"family\": \"" << a.family
          << "\", \"reference\": {\"source\": " << json_string(read(corpus / ref.family / (ref.file + ".cu")))
          << ", \"kernel\": \"" << ref.kernel
          << "\"}, \"candidate\": {\"source\": " << json_string(read(corpus / cand.family / (cand.file + ".cu")))
          << ", \"kernel\": \"" << cand.kernel << "\"}, \"speedup\": " << (direction == 0 ? "2.0" : "0.5") << "}\n";
    }
  }
  return path;
}

}  // namespace

TEST_CASE("cli: train writes a model file that kforecast reads back") {
  const auto dir = std::filesystem::temp_directory_path() / "kforecast_train_test";
  std::filesystem::create_directories(dir);
  const auto dataset = write_dataset(dir);
  const auto model_path = dir / "model.txt";
  auto outcome = run_cli({"train", dataset.string(), "--no-nvrtc", "--output", model_path.string()});
  INFO(outcome.err);
  REQUIRE(outcome.code == ExitCode::pass);
  CHECK_THAT(outcome.out, StartsWith("kforecast train: 6 pairs from "));
  CHECK_THAT(outcome.out, Contains("(3 families), H100 for sm_90"));
  CHECK_THAT(outcome.out, Contains("NVRTC facts for 0 pairs (NVRTC not used: --no-nvrtc)"));
  CHECK_THAT(outcome.out, Contains("out of fold (3 folds, one per family)"));
  const auto model = embedded::parse_model(read(model_path), model_path.string());
  REQUIRE(model.has_value());
  CHECK(model->status == embedded::ModelStatus::trained);
  CHECK(model->training_pairs == 6);

  // Without --output the model goes to standard output and the summary to standard error.
  auto to_stdout = run_cli({"train", dataset.string(), "--no-nvrtc"});
  CHECK(to_stdout.code == ExitCode::pass);
  CHECK(embedded::parse_model(to_stdout.out, "stdout").has_value());
  CHECK_THAT(to_stdout.err, StartsWith("kforecast train: 6 pairs"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: train refuses bad input with the place and the fix") {
  const auto dir = std::filesystem::temp_directory_path() / "kforecast_train_bad";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bad.jsonl") << "{\"reference\": 1}\n";
  auto bad = run_cli({"train", (dir / "bad.jsonl").string()});
  CHECK(bad.code == ExitCode::usage);
  CHECK_THAT(bad.err, Contains("bad.jsonl:1: \"reference\" is missing or not an object"));
  auto missing = run_cli({"train", (dir / "missing.jsonl").string()});
  CHECK(missing.code == ExitCode::could_not_run);
  CHECK_THAT(missing.err, Contains("cannot read the dataset"));
  CHECK(run_cli({"train"}).code == ExitCode::usage);
  CHECK_THAT(run_cli({"train", "x.jsonl", "--folds", "1"}).err,
             Contains("--folds: '1' is not a whole number from 2 to 1000"));
  CHECK_THAT(run_cli({"train", "x.jsonl", "--hardware", "Z9"}).err, Contains("--hardware: unknown GPU 'Z9'"));
  std::ofstream(dir / "one.jsonl") << "{\"reference\": {\"source\": \"s\", \"kernel\": \"a\"}, \"candidate\": "
                                      "{\"source\": \"s\", \"kernel\": \"b\"}, \"speedup\": 1}\n";
  CHECK_THAT(run_cli({"train", (dir / "one.jsonl").string(), "--no-nvrtc"}).err,
             Contains("training needs at least two labelled pairs"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: help train teaches the command") {
  auto help = run_cli({"help", "train"});
  CHECK(help.code == ExitCode::pass);
  CHECK_THAT(help.out, StartsWith("usage: kforecast train DATASET.jsonl"));
  CHECK_THAT(help.out, Contains("--no-nvrtc"));
}
