// SPDX-License-Identifier: Apache-2.0
#include "bench/spec_draft.hpp"

#include <fstream>
#include <iterator>
#include <regex>

#include <catch2/catch.hpp>

#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "kernels/scanner.hpp"

using namespace kforecast::bench;
using Catch::Matchers::Contains;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KF_SOURCE_DIR) + "/fixtures/spec_suggest/" + name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What a person does with a draft: every FILL value replaced (by 1, which every FILL accepts).
std::string filled(const std::string& draft) { return std::regex_replace(draft, std::regex("FILL:[^\"]*"), "1"); }

int count_of(const std::string& text, const std::string& what) {
  int count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

// The source with `block` pasted directly above the kernel whose first line starts with
// `first_line_text`, read back with kforecast's own reader.
LaunchSpec pasted_and_read(const std::string& source, const std::string& block, const std::string& first_line_text,
                           const std::string& kernel) {
  const auto at = source.find(first_line_text);
  REQUIRE(at != std::string::npos);
  const std::string pasted = source.substr(0, at) + block + source.substr(at);
  const auto line =
      static_cast<std::uint32_t>(std::count(pasted.begin(), pasted.begin() + at + block.size(), '\n') + 1);
  auto spec = read_comment_spec(pasted, line, kernel, "pasted.cu");
  INFO(block);
  REQUIRE(spec.has_value());
  REQUIRE(spec->has_value());
  return **spec;
}

const kforecast::kernels::Function& kernel_of(const kforecast::kernels::ScannedSource& scanned,
                                              const std::string& name) {
  const auto it = std::ranges::find(scanned.functions, name, &kforecast::kernels::Function::name);
  REQUIRE(it != scanned.functions.end());
  return *it;
}

}  // namespace

TEST_CASE("spec_draft: an element-wise kernel bounded by if (i < n)") {
  const std::string source = fixture("saxpy.cu");
  auto draft = draft_launch_spec(source, "src/saxpy.cu", "saxpy", {}, DraftFormat::comment_block);
  REQUIRE(draft.has_value());
  const std::string& text = draft->text;
  CHECK(text.starts_with("// kforecast:\n"));
  CHECK_THAT(text, Contains("// sizes = [{ n = 1048576 }]"));
  // The host launch: CEIL_DIV(elements, threads) with elements passed for n and threads a constant.
  CHECK_THAT(text, Contains("// grid = [\"ceil_div(n, 256)\"]  # guessed from src/saxpy.cu:13"));
  CHECK_THAT(text, Contains("// block = [\"256\"]"));
  CHECK_THAT(text, Contains("// x = { count = \"n\", init = \"uniform(-1, 1)\", role = \"in\" }"));
  CHECK_THAT(text, Contains("// y = { count = \"n\", init = \"uniform(-1, 1)\", role = \"inout\" }"));
  CHECK_THAT(text, Contains("// n = \"n\""));
  CHECK_THAT(text, Contains("// alpha = \"FILL: a number"));
  CHECK(draft->fill_count == 1);
  CHECK(count_of(text, "FILL:") == draft->fill_count);

  const auto spec = pasted_and_read(source, filled(text), "__global__ void saxpy", "saxpy");
  CHECK(spec.grid == std::vector<std::string>{"ceil_div(n, 256)"});
  const auto scanned = kforecast::kernels::scan_cuda_source(std::string_view(source));
  auto launch = resolve_launch(spec, spec.sizes.at(0), kernel_of(scanned, "saxpy").parameters);
  REQUIRE(launch.has_value());
}

TEST_CASE("spec_draft: a tiled GEMM template launched from a host runner with dim3 and CEIL_DIV") {
  const std::string header = fixture("gemm/gemm.cuh");
  const std::string runner = fixture("gemm/runner.cu");
  const std::array hosts{HostSource{"src/runner.cu", runner}};
  auto draft = draft_launch_spec(header, "src/gemm.cuh", "sgemm_tiled", hosts, DraftFormat::comment_block);
  REQUIRE(draft.has_value());
  const std::string& text = draft->text;
  CHECK_THAT(text, Contains("// name = \"sgemm_tiled<32, 32, 32, float>\"  # guessed from src/runner.cu:11"));
  CHECK_THAT(text, Contains("// sizes = [{ M = 4096, N = 4096, K = 4096 }]"));
  // dim3 grid(CEIL_DIV(n, TILE), CEIL_DIV(m, TILE)) with n and m passed for N and M.
  CHECK_THAT(text, Contains("// grid = [\"ceil_div(N, 32)\", \"ceil_div(M, 32)\"]"));
  CHECK_THAT(text, Contains("// block = [\"32\", \"32\"]"));
  CHECK_THAT(
      text,
      Contains("// A = { count = \"FILL: elements\", init = \"uniform(-1, 1)\", role = \"in\", type = \"float\" }"));
  CHECK_THAT(text, Contains("// C = { count = \"FILL: elements\", init = \"uniform(-1, 1)\", role = \"inout\""));
  CHECK_THAT(text, Contains("// alpha = \"FILL: a number"));  // T is float in the launch
  CHECK(draft->fill_count == 5);
  CHECK(count_of(text, "FILL:") == draft->fill_count);

  const auto spec = pasted_and_read(header, filled(text), "template <int BM", "sgemm_tiled");
  CHECK(spec.name == "sgemm_tiled<32, 32, 32, float>");
  CHECK(spec.block == std::vector<std::string>{"32", "32"});

  SECTION("as a [[kernel]] table for .kforecast.toml") {
    auto table = draft_launch_spec(header, "src/gemm.cuh", "sgemm_tiled", hosts, DraftFormat::config_table);
    REQUIRE(table.has_value());
    CHECK(table->text.starts_with("[[kernel]]\nfile = \"src/gemm.cuh\"\n"));
    auto specs = read_config_specs(filled(table->text), ".kforecast.toml");
    INFO(table->text);
    REQUIRE(specs.has_value());
    REQUIRE(specs->size() == 1);
    CHECK(specs->front().grid == std::vector<std::string>{"ceil_div(N, 32)", "ceil_div(M, 32)"});
    CHECK(find_spec(*specs, "sgemm_tiled", "src/gemm.cuh") != nullptr);
  }
  SECTION("without its runner, the geometry and instantiation are left to fill") {
    auto alone = draft_launch_spec(header, "src/gemm.cuh", "sgemm_tiled", {}, DraftFormat::comment_block);
    REQUIRE(alone.has_value());
    CHECK_THAT(alone->text, Contains("// name = \"sgemm_tiled<FILL: BM, BN, BK, T>\""));
    CHECK_THAT(alone->text, Contains("// grid = [\"FILL: blocks\"]"));
    CHECK_THAT(alone->text, Contains("type = \"FILL: element type\""));
    CHECK(count_of(alone->text, "FILL:") == alone->fill_count);
    (void)pasted_and_read(header, filled(alone->text), "template <int BM", "sgemm_tiled");
  }
}

TEST_CASE("spec_draft: a reduction with dynamic shared memory writing one element per block") {
  const std::string source = fixture("reduce.cu");
  auto draft = draft_launch_spec(source, "src/reduce.cu", "block_sum", {}, DraftFormat::comment_block);
  REQUIRE(draft.has_value());
  const std::string& text = draft->text;
  CHECK_THAT(text, Contains("// sizes = [{ count = 1048576 }]"));
  // `blocks` and `threads` are followed to their initialisers.
  CHECK_THAT(text, Contains("// grid = [\"(count + 512 - 1) / 512\"]"));
  CHECK_THAT(text, Contains("// shared_bytes = \"512 * 4\""));
  CHECK_THAT(text, Contains("// partial = { count = \"(count + 512 - 1) / 512\", role = \"out\" }"));
  CHECK_THAT(text, Contains("// in = { count = \"count\""));
  CHECK(draft->fill_count == 0);

  const auto spec = pasted_and_read(source, text, "__global__ void block_sum", "block_sum");
  CHECK(spec.shared_bytes == "512 * 4");
  const auto scanned = kforecast::kernels::scan_cuda_source(std::string_view(source));
  auto launch = resolve_launch(spec, spec.sizes.at(0), kernel_of(scanned, "block_sum").parameters);
  REQUIRE(launch.has_value());
  CHECK(launch->grid[0] == 2048);
}

TEST_CASE("spec_draft: errors name the file and the kernel") {
  const std::string_view source =
      "namespace a { __global__ void k(float* x) { x[0] = 1; } }\n"
      "namespace b { __global__ void k(float* x) { x[0] = 2; } }\n";
  auto several = draft_launch_spec(source, "src/two.cu", "k", {}, DraftFormat::comment_block);
  REQUIRE_FALSE(several.has_value());
  CHECK_THAT(several.error().message,
             Contains("src/two.cu: 2 kernels are named 'k': src/two.cu:1 (a::k), src/two.cu:2 (b::k)"));
  auto qualified = draft_launch_spec(source, "src/two.cu", "b::k", {}, DraftFormat::comment_block);
  REQUIRE(qualified.has_value());
  CHECK_THAT(qualified->text, Contains("// x = { count = \"FILL: elements\", role = \"out\" }"));

  auto missing = draft_launch_spec(source, "src/two.cu", "kk", {}, DraftFormat::comment_block);
  REQUIRE_FALSE(missing.has_value());
  CHECK_THAT(missing.error().message, Contains("src/two.cu: no kernel 'kk'"));
  CHECK_THAT(missing.error().message, Contains("kernels there: a::k, b::k"));
}

TEST_CASE("spec_draft: launches it cannot translate keep their text beside a FILL") {
  const std::string_view source =
      "__global__ void k(float* out, int n, unsigned seed) { if (threadIdx.x < n) *out = seed; }\n"
      "void run(float* out, int n) { k<<<grid_for(n), pick_block(), 0>>>(out, n, 7); }\n";
  auto draft = draft_launch_spec(source, "src/k.cu", "k", {}, DraftFormat::comment_block);
  REQUIRE(draft.has_value());
  CHECK_THAT(draft->text, Contains("// grid = [\"FILL: blocks\"]  # FILL from src/k.cu:2: grid_for ( n )"));
  CHECK_THAT(draft->text, Contains("// block = [\"FILL: threads\"]  # FILL from src/k.cu:2: pick_block ( )"));
  CHECK_THAT(draft->text, Contains("// out = { count = \"n\", role = \"out\" }"));  // *out = ...
  CHECK_THAT(draft->text, Contains("// seed = \"FILL: integer\""));
  CHECK(draft->fill_count == 3);
  CHECK(draft->guess_count == 2);  // the sizes and out's role; not the geometry it could not read
}
