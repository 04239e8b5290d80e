// SPDX-License-Identifier: Apache-2.0
// prepare_pair: which spec each side of a pair launches with. The reference's sizes, arguments
// and tolerances hold for both (one problem, one set of buffers, chosen by the base revision, not
// by the head under review); grid and block are each side's own.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "measure/bench_measure.hpp"
#include "support/bench_world.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::measure;
using Catch::Matchers::Contains;

namespace {

const std::string copy_file = std::string(KF_SOURCE_DIR) + "/fixtures/bench/copy.cu";

std::expected<measure::PreparedPair, measure::PairProblem> prepare(const std::string& candidate, const std::string& reference) {
  static const EnvLookup env = fixed_environment({});
  static const config::Config config;
  return measure::prepare_pair({candidate, reference, ""}, config, testing::bench_world(env));
}

}  // namespace

TEST_CASE("bench measure: each side launches with its own spec's geometry and the reference's data") {
  auto pair = prepare(copy_file + ":copy_four_per_thread", copy_file + ":copy");
  REQUIRE(pair.has_value());
  CHECK(pair->candidate_spec.grid == std::vector<std::string>{"ceil_div(n, 1024)"});
  CHECK(pair->reference_spec.grid == std::vector<std::string>{"ceil_div(n, 256)"});
  CHECK(pair->reference_spec.sizes == pair->candidate_spec.sizes);
  REQUIRE(pair->reference_spec.args.size() == pair->candidate_spec.args.size());
  for (std::size_t i = 0; i < pair->reference_spec.args.size(); ++i)
    CHECK(pair->reference_spec.args[i].name == pair->candidate_spec.args[i].name);

  auto reverse = prepare(copy_file + ":copy", copy_file + ":copy_four_per_thread");
  REQUIRE(reverse.has_value());
  CHECK(reverse->candidate_spec.grid == std::vector<std::string>{"ceil_div(n, 256)"});
  CHECK(reverse->reference_spec.grid == std::vector<std::string>{"ceil_div(n, 1024)"});
}

TEST_CASE("bench measure: a side without a spec of its own takes the other side's") {
  // copy_strided has no comment block; copy's covers it.
  auto pair = prepare(copy_file + ":copy_strided", copy_file + ":copy");
  REQUIRE(pair.has_value());
  CHECK(pair->candidate_spec.grid == std::vector<std::string>{"ceil_div(n, 256)"});
  CHECK(pair->reference_spec.grid == std::vector<std::string>{"ceil_div(n, 256)"});
  auto reverse = prepare(copy_file + ":copy", copy_file + ":copy_strided");
  REQUIRE(reverse.has_value());
  CHECK(reverse->reference_spec.grid == std::vector<std::string>{"ceil_div(n, 256)"});
}

TEST_CASE("bench measure: a candidate geometry that needs a size the reference's spec lacks is a usage error") {
  testing::TempDir dir;
  const auto write = [&](const std::string& name, std::string_view text) {
    std::ofstream((dir.path() / name).string()) << text;
    return (dir.path() / name).string();
  };
  const std::string spec_tail = R"(// block = [256]
// [kernel.args]
// x = { count = "n" }
// y = { count = "n", role = "out" }
// n = "n"
__global__ void scale(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
)";
  const auto candidate = write("new.cu",
                               "// kforecast:\n// sizes = [{ n = 4096, rows = 16 }]\n"
                               "// grid = [\"rows\"]\n" +
                                   spec_tail);
  const auto reference = write("old.cu",
                               "// kforecast:\n// sizes = [{ n = 4096 }]\n"
                               "// grid = [\"ceil_div(n, 256)\"]\n" +
                                   spec_tail);
  auto pair = prepare(candidate + ":scale", reference + ":scale");
  REQUIRE_FALSE(pair.has_value());
  CHECK(pair.error().kind == PairProblem::Kind::other);
  CHECK(pair.error().error.exit_code == ExitCode::usage);
  CHECK_THAT(pair.error().error.message, Contains("rows"));
}

TEST_CASE("bench measure: the head's spec cannot choose the problem both sides are measured at") {
  // A head that shrinks its sizes (or loosens its tolerance) to look fast is measured at the
  // base's sizes, with the base's tolerance, all the same.
  testing::TempDir dir;
  const auto write = [&](const std::string& name, std::string_view text) {
    std::ofstream((dir.path() / name).string()) << text;
    return (dir.path() / name).string();
  };
  const std::string kernel = R"k(// grid = ["ceil_div(n, 256)"]
// block = [256]
// [kernel.args]
// x = { count = "n" }
// y = { count = "n", role = "out" }
// n = "n"
__global__ void scale(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
)k";
  const auto reference = write("old.cu", "// kforecast:\n// sizes = [{ n = 1048576 }]\n// rtol = 1e-5\n" + kernel);
  const auto candidate = write("new.cu", "// kforecast:\n// sizes = [{ n = 32 }]\n// rtol = 0.5\n" + kernel);
  auto pair = prepare(candidate + ":scale", reference + ":scale");
  REQUIRE(pair.has_value());
  REQUIRE(pair->candidate_spec.sizes.size() == 1);
  CHECK(pair->candidate_spec.sizes == pair->reference_spec.sizes);
  CHECK(pair->candidate_spec.sizes.front().at("n") == 1048576);
  CHECK(pair->candidate_spec.rtol == pair->reference_spec.rtol);
  REQUIRE(pair->candidate_spec.rtol.has_value());
  CHECK(*pair->candidate_spec.rtol < 1e-4);
}

TEST_CASE("bench measure: a pair without any launch spec says so as its own kind of problem") {
  // copy_strided has no comment block and neither side is covered by another's.
  auto pair = prepare(copy_file + ":copy_strided", copy_file + ":copy_strided");
  REQUIRE_FALSE(pair.has_value());
  CHECK(pair.error().kind == PairProblem::Kind::no_launch_spec);
  CHECK(pair.error().error.exit_code == ExitCode::usage);
  CHECK_THAT(pair.error().error.message, Contains("no launch spec for kernel 'copy_strided'"));
}
