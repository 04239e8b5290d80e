// SPDX-License-Identifier: Apache-2.0
// prepare_pair: which spec each side of a pair launches with. The candidate's sizes and
// arguments hold for both (one problem, one set of buffers); grid and block are each side's own.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "cli/bench_measure.hpp"
#include "config/config.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;

namespace {

const std::string copy_file = std::string(KF_SOURCE_DIR) + "/fixtures/bench/copy.cu";

Result<PreparedPair> prepare(const std::string& candidate, const std::string& reference) {
  static std::ostringstream out, err;
  static Context context{out, err, fixed_environment({})};
  static const config::Config config;
  return prepare_pair({candidate, reference, ""}, config, context);
}

}  // namespace

TEST_CASE("bench measure: each side launches with its own spec's geometry and the candidate's data") {
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

TEST_CASE("bench measure: a reference geometry that needs a size the candidate's spec lacks is a usage error") {
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
  const auto reference = write("old.cu",
                               "// kforecast:\n// sizes = [{ n = 4096, rows = 16 }]\n"
                               "// grid = [\"rows\"]\n" +
                                   spec_tail);
  const auto candidate = write("new.cu",
                               "// kforecast:\n// sizes = [{ n = 4096 }]\n"
                               "// grid = [\"ceil_div(n, 256)\"]\n" +
                                   spec_tail);
  auto pair = prepare(candidate + ":scale", reference + ":scale");
  REQUIRE_FALSE(pair.has_value());
  CHECK(pair.error().exit_code == ExitCode::usage);
  CHECK_THAT(pair.error().message, Contains("rows"));
}
