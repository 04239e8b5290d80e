// SPDX-License-Identifier: Apache-2.0
// `kforecast spec suggest` through the command line: the draft on standard output, the count of
// values to fill on standard error, the runner found beside the header, and every mistake.
#include <sstream>

#include <catch2/catch.hpp>

#include "cli/run.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;

namespace {

struct Outcome {
  ExitCode code;
  std::string out, err;
};

Outcome spec(std::vector<std::string> args) {
  std::ostringstream out, err;
  Context context{out, err, fixed_environment({})};
  args.insert(args.begin(), "spec");
  const ExitCode code = run(args, context);
  return {code, out.str(), err.str()};
}

const std::string fixtures = std::string(KF_SOURCE_DIR) + "/fixtures/spec_suggest/";

}  // namespace

TEST_CASE("cli spec: suggest drafts a block from the kernel and the runner that includes its header") {
  auto draft = spec({"suggest", fixtures + "gemm/gemm.cuh:sgemm_tiled"});
  CHECK(draft.code == ExitCode::pass);
  CHECK(draft.out.starts_with("// kforecast:\n"));
  CHECK_THAT(draft.out,
             Contains("name = \"sgemm_tiled<32, 32, 32, float>\"  # guessed from " + fixtures + "gemm/runner.cu:11"));
  CHECK_THAT(draft.err, Contains("kforecast: 5 values to fill (FILL), 7 guesses to check"));
  CHECK_THAT(draft.err, Contains("paste the block directly above 'sgemm_tiled'"));
  CHECK_THAT(draft.err,
             Contains("`kforecast bench '" + fixtures + "gemm/gemm.cuh:sgemm_tiled<32, 32, 32, float>'` measures it"));

  auto table = spec({"suggest", fixtures + "reduce.cu:block_sum", "--format", "toml"});
  CHECK(table.code == ExitCode::pass);
  CHECK(table.out.starts_with("[[kernel]]\n"));
  CHECK_THAT(table.err, Contains("0 values to fill"));
  CHECK_THAT(table.err, Contains("into .kforecast.toml"));
}

TEST_CASE("cli spec: mistakes exit 2 naming the file and the kernel") {
  auto missing_file = spec({"suggest", "/nonexistent/k.cu:k"});
  CHECK(missing_file.code == ExitCode::usage);
  CHECK_THAT(missing_file.err, Contains("/nonexistent/k.cu: no such file (for kernel 'k')"));
  auto missing_kernel = spec({"suggest", fixtures + "saxpy.cu:sax"});
  CHECK(missing_kernel.code == ExitCode::usage);
  CHECK_THAT(missing_kernel.err, Contains("saxpy.cu: no kernel 'sax'"));
  CHECK_THAT(missing_kernel.err, Contains("kernels there: saxpy"));
  CHECK(spec({"suggest", fixtures + "saxpy.cu"}).code == ExitCode::usage);
  CHECK_THAT(spec({"suggest"}).err, Contains("usage: kforecast spec suggest FILE:KERNEL"));
  CHECK_THAT(spec({"draft", fixtures + "saxpy.cu:saxpy"}).err, Contains("usage: kforecast spec suggest"));
  CHECK_THAT(spec({"suggest", fixtures + "saxpy.cu:saxpy", "--format", "yaml"}).err, Contains("--format yaml"));
}

TEST_CASE("cli spec: help teaches with an example") {
  auto help = spec({"--help"});
  CHECK(help.code == ExitCode::pass);
  CHECK_THAT(help.out, Contains("kforecast spec suggest FILE:KERNEL [--format comment|toml]"));
  CHECK_THAT(help.out, Contains("$ kforecast spec suggest src/scale.cu:scale"));
  CHECK_THAT(help.out, Contains("--format comment|toml"));
}
