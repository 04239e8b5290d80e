// SPDX-License-Identifier: Apache-2.0
#include "forecasters/llm_launch_text.hpp"

#include <catch2/catch.hpp>

#include "llm/forecast_cache.hpp"
#include "llm/kernel_prompt.hpp"

using namespace kforecast;
using Catch::Matchers::Contains;

namespace {

kernel_changes::KernelSite site_of(const kernels::RevisionSources& sources, const std::string& file, const std::string& name) {
  const auto& functions = sources.scanned(file).functions;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (functions[i].qualified_name == name && functions[i].kind == kernels::FunctionKind::global)
      return {file, name, functions[i].whole.first_line, i};
  FAIL("no kernel " << name << " in " << file);
  return {};
}

constexpr std::string_view scale_spec = R"spec(// kforecast:
// sizes = [{ n = 1048576 }, { n = 65536 }]
// grid = ["ceil_div(n, 256)"]
// block = [256]
// [kernel.args]
// x = { count = "n", init = "uniform(-1, 1)" }
// y = { count = "n", role = "out" }
// n = "n"
)spec";

constexpr std::string_view scale_kernel =
    "__global__ void scale(const float* x, float* y, int n) { int i = blockIdx.x * 256 + threadIdx.x; if (i < n) "
    "y[i] = 2 * x[i]; }\n";

// The launch text for kernel `scale` of k.cu between two revisions, with the config's specs.
forecasters::KernelLaunchText launch_text(const std::string& base_text, const std::string& head_text,
                                  const std::vector<bench::LaunchSpec>& config_specs = {}) {
  const kernels::SourceFiles base_files{{"k.cu", base_text}}, head_files{{"k.cu", head_text}};
  const kernels::RevisionSources base(base_files), head(head_files);
  return forecasters::kernel_launch_text(base, site_of(base, "k.cu", "scale"), head, site_of(head, "k.cu", "scale"),
                                 config_specs);
}

std::string user_prompt(const std::string& launch_configuration) {
  llm::KernelPair pair{"scale", std::string(scale_kernel), std::string(scale_kernel), "", "", launch_configuration};
  auto prompt = llm::build_prompt(llm::builtin_prompts(), pair, *llm::find_gpu("H100"), llm::Comments::strip);
  REQUIRE(prompt);
  return prompt->user;
}

}  // namespace

TEST_CASE("llm launch: the prompt of a kernel with a spec carries its sizes, grid, block and arguments evaluated") {
  const auto launch = launch_text(std::string(scale_kernel), std::string(scale_spec) + std::string(scale_kernel));
  CHECK(launch.notes.empty());
  const std::string user = user_prompt(launch.text);
  CHECK_THAT(user, Contains("BEGIN LAUNCH CONFIGURATION\nFrom the launch spec at k.cu:1 (the candidate's comment "
                            "block) for scale."));
  CHECK_THAT(user, Contains("grid = [ceil_div(n, 256)]") && Contains("block = [256]"));
  CHECK_THAT(user, Contains("size n=1048576: grid (4096, 1, 1), block (256, 1, 1), dynamic shared memory 0 bytes") &&
                       Contains("x: buffer of 1048576 float elements (4194304 bytes), input") &&
                       Contains("y: buffer of 1048576 float elements (4194304 bytes), output") &&
                       Contains("n: int = 1048576"));
  CHECK_THAT(user, Contains("size n=65536: grid (256, 1, 1), block (256, 1, 1)") && Contains("n: int = 65536"));
  CHECK_THAT(user, !Contains(std::string(llm::no_launch_spec_text)));
  // The launch configuration is part of what a cached forecast is keyed by.
  const llm::EndpointSettings settings;
  const auto version = llm::builtin_prompts().version;
  CHECK(llm::ForecastCache::key({"s", user}, settings, version) !=
        llm::ForecastCache::key({"s", user_prompt("")}, settings, version));
}

TEST_CASE("llm launch: without a spec the prompt says the sizes are unknown") {
  const auto launch = launch_text(std::string(scale_kernel), "// a plain comment\n" + std::string(scale_kernel));
  CHECK(launch.text.empty());
  CHECK(launch.notes.empty());
  CHECK_THAT(user_prompt(launch.text),
             Contains("BEGIN LAUNCH CONFIGURATION\nno launch spec: sizes unknown\nEND LAUNCH CONFIGURATION"));
}

TEST_CASE("llm launch: the reference's spec, then the config's, stand in for a candidate without one") {
  const auto from_reference =
      launch_text(std::string(scale_spec) + std::string(scale_kernel), "\n" + std::string(scale_kernel));
  CHECK_THAT(from_reference.text, Contains("(the reference's comment block)") && Contains("grid (4096, 1, 1)"));

  auto config = config::parse_config(
      "[[kernel]]\nname = \"scale\"\nsizes = [{ n = 512 }]\ngrid = [\"ceil_div(n, 128)\"]\nblock = [128]\n"
      "[kernel.args]\nx = { count = \"n\" }\ny = { count = \"n\", role = \"out\" }\nn = \"n\"\n",
      ".kforecast.toml");
  REQUIRE(config);
  const auto specs = forecasters::config_launch_specs(*config);
  CHECK(specs.notes.empty());
  REQUIRE(specs.specs.size() == 1);
  const auto from_config = launch_text(std::string(scale_kernel), "\n" + std::string(scale_kernel), specs.specs);
  CHECK_THAT(from_config.text, Contains("at .kforecast.toml:1 (a [[kernel]] table of the config)") &&
                                   Contains("size n=512: grid (4, 1, 1), block (128, 1, 1)"));
  // The candidate's own block wins over the config's.
  const auto own =
      launch_text(std::string(scale_kernel), std::string(scale_spec) + std::string(scale_kernel), specs.specs);
  CHECK_THAT(own.text, Contains("(the candidate's comment block)"));
}

TEST_CASE("llm launch: a broken spec is left out of the prompt and named in a note") {
  SECTION("a comment block that is not TOML") {
    const auto launch = launch_text(std::string(scale_kernel),
                                    "// kforecast:\n// grid = [\"ceil_div(n, 256)\"\n" + std::string(scale_kernel));
    CHECK(launch.text.empty());
    REQUIRE(launch.notes.size() == 1);
    CHECK_THAT(launch.notes[0], Contains("the candidate's launch spec was left out of the LLM prompt") &&
                                    Contains("k.cu:") && Contains("invalid TOML"));
    CHECK_THAT(user_prompt(launch.text), Contains("no launch spec: sizes unknown"));
  }
  SECTION("an unknown key, with the reference's good spec used instead") {
    const auto launch = launch_text(std::string(scale_spec) + std::string(scale_kernel),
                                    "// kforecast:\n// grdi = [1]\n// block = [32]\n" + std::string(scale_kernel));
    REQUIRE(launch.notes.size() == 1);
    CHECK_THAT(launch.notes[0], Contains("k.cu:2") && Contains("unknown key 'grdi'"));
    CHECK_THAT(launch.text, Contains("(the reference's comment block)"));
  }
  SECTION("a size that does not bind to the candidate's parameters") {
    std::string spec(scale_spec);
    spec.replace(spec.find("// n = \"n\""), 10, "// count = \"n\"");
    const auto launch = launch_text(std::string(scale_kernel), spec + std::string(scale_kernel));
    CHECK_THAT(launch.text, Contains("size n=1048576: not evaluated"));
    REQUIRE(launch.notes.size() == 2);
    CHECK_THAT(launch.notes[0], Contains("LLM prompt: the launch spec does not resolve for size n=1048576") &&
                                    Contains("k.cu:1") && Contains("no parameter 'count'"));
  }
  SECTION("a config whose [[kernel]] tables cannot be read") {
    auto config = config::parse_config("[[kernel]]\nname = \"scale\"\ngrid = [1]\n", ".kforecast.toml");
    REQUIRE(config);
    const auto specs = forecasters::config_launch_specs(*config);
    CHECK(specs.specs.empty());
    REQUIRE(specs.notes.size() == 1);
    CHECK_THAT(specs.notes[0],
               Contains("left out of the LLM prompts") && Contains(".kforecast.toml:1") && Contains("needs 'block'"));
  }
}

TEST_CASE("llm launch: a template kernel's buffers are typed by its instantiation") {
  const std::string text =
      "// kforecast:\n// sizes = [{ n = 4096 }]\n// grid = [\"ceil_div(n, 128)\"]\n// block = [128]\n"
      "// [kernel.args]\n// x = { count = \"n\" }\n// n = \"n\"\n"
      "template <typename T> __global__ void scale(T* x, int n) { x[threadIdx.x] *= 2; }\n"
      "template __global__ void scale<double>(double*, int);\n";
  const auto launch = launch_text(text, text + "\n");
  CHECK(launch.notes.empty());
  CHECK_THAT(launch.text, Contains("x: buffer of 4096 double elements (32768 bytes)"));
}

TEST_CASE("llm launch: both sides are shown launching the reference's sizes, each its own way") {
  std::string reference_spec(scale_spec);
  reference_spec.replace(reference_spec.find("ceil_div(n, 256)"), 16, "ceil_div(n, 128)");
  reference_spec.replace(reference_spec.find("block = [256]"), 13, "block = [128]");
  std::string candidate_spec(scale_spec);
  candidate_spec.replace(candidate_spec.find("{ n = 65536 }"), 13, "{ n = 2048 }");
  const auto launch =
      launch_text(reference_spec + std::string(scale_kernel), candidate_spec + std::string(scale_kernel));
  CHECK(launch.notes.empty());
  const auto reference_part = launch.text.find("The reference launches the same sizes and arguments with its own");
  REQUIRE(reference_part != std::string::npos);
  const std::string candidate_text = launch.text.substr(0, reference_part);
  const std::string reference_text = launch.text.substr(reference_part);
  // The reference's sizes (65536, not the candidate's 2048) for both; each side's own grid and block.
  CHECK_THAT(candidate_text, Contains("(the candidate's comment block)") &&
                                 Contains("size n=1048576: grid (4096, 1, 1), block (256, 1, 1)") &&
                                 Contains("size n=65536: grid (256, 1, 1), block (256, 1, 1)") && !Contains("2048:"));
  CHECK_THAT(reference_text, Contains("(the reference's comment block)") && Contains("grid = [ceil_div(n, 128)]") &&
                                 Contains("size n=1048576: grid (8192, 1, 1), block (128, 1, 1)") &&
                                 Contains("size n=65536: grid (512, 1, 1), block (128, 1, 1)") && !Contains("2048:"));
  // The same geometry on both sides is shown once.
  const auto same = launch_text(std::string(scale_spec) + std::string(scale_kernel),
                                std::string(scale_spec) + std::string(scale_kernel));
  CHECK_THAT(same.text, !Contains("The reference launches"));
}
