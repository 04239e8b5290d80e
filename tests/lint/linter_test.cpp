// SPDX-License-Identifier: Apache-2.0
// lint_source: changed-line mode, inline suppressions, and the rules over supplied facts.

#include <catch2/catch.hpp>

#include "lint/linter.hpp"
#include "lint/rule_set.hpp"

using namespace kforecast::lint;

namespace {

const RuleSet& rules() {
  static const RuleSet set = builtin_rules();
  return set;
}

std::vector<std::string> fired(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const auto& d : diagnostics) out.push_back(std::to_string(d.line) + ":" + d.rule->id);
  return out;
}

constexpr std::string_view kernel = R"(__global__ void k(float* __restrict__ x, int n) {
  x[0] = x[0] * 0.1;
  x[1] = x[1] * 0.3;
  x[2] = 1.0f;  // kforecast: ignore double-literal
  x[3] = 2.0;  // kforecast: ignore double-literal
}
)";

}  // namespace

TEST_CASE("lint: whole-file mode reports every finding, and a comment on the line silences one") {
  const auto diagnostics = lint_source("k.cu", kernel, rules().rules());
  CHECK(fired(diagnostics) == std::vector<std::string>{"2:double-literal", "3:double-literal"});
  REQUIRE(!diagnostics.empty());
  CHECK(diagnostics[0].column == 17);
  CHECK(diagnostics[0].function == "k");
  CHECK(diagnostics[0].message.starts_with("'0.1' is a double"));
}

TEST_CASE("lint: changed-line mode reports only on added lines") {
  const std::vector<std::uint32_t> added{3};
  const auto diagnostics = lint_source("k.cu", kernel, rules().rules(), {nullptr, &added});
  CHECK(fired(diagnostics) == std::vector<std::string>{"3:double-literal"});
  const std::vector<std::uint32_t> outside{9};
  CHECK(lint_source("k.cu", kernel, rules().rules(), {nullptr, &outside}).empty());
}

TEST_CASE("lint: findings about a whole kernel count when any of its lines was added") {
  const std::string source = "__global__ void k(float* a, float* b) {\n  a[0] = b[0];\n  a[1] = b[1];\n}\n";
  const std::vector<std::uint32_t> body_line{2};
  CHECK(fired(lint_source("k.cu", source, rules().rules(), {nullptr, &body_line})) ==
        std::vector<std::string>{"1:missing-restrict"});
}

TEST_CASE("lint: compiler-fact rules fire on supplied facts only") {
  const std::string source = "__global__ void k(float* x) {\n  x[0] = 0.0f;\n}\n";
  CHECK(lint_source("k.cu", source, rules().rules()).empty());
  FactsByKernel facts;
  facts["k"].compiler = CompilerFacts{"sm_90", 168, 64, 96, 0, 0};
  const auto diagnostics = lint_source("k.cu", source, rules().rules(), {&facts, nullptr});
  CHECK(fired(diagnostics) ==
        std::vector<std::string>{"1:high-register-count", "1:local-memory-stack", "1:register-spills"});
  for (const auto& d : diagnostics)
    if (d.rule->id == "register-spills") CHECK(d.message.find("64 bytes (sm_90)") != std::string::npos);
  facts["k"].compiler = CompilerFacts{"sm_90", 40, 0, 0, 0, 0};
  CHECK(lint_source("k.cu", source, rules().rules(), {&facts, nullptr}).empty());
}

TEST_CASE("lint: launch-fact matchers take a supplied launch spec") {
  // The gate reads the spec and computes the occupancy (lint_run/lint_launch_facts.cpp); the
  // matchers compare. `below` is in percent; `above` is its older spelling.
  RuleSet set;
  REQUIRE(set.read(R"(
[[rule]]
id = "low-occupancy"
severity = "warning"
summary = "s"
message = "occupancy {match}"
note = "from {fix}"
guide = "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#occupancy"
[rule.match]
kind = "launch_fact"
fact = "occupancy"
below = 50
[[rule]]
id = "launch-bounds-contradicted"
severity = "error"
summary = "s"
message = "{match}"
guide = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#launch-bounds"
[rule.match]
kind = "launch_fact"
fact = "launch_bounds"
)",
                   "test.toml")
              .has_value());
  const std::string source = "__global__ void __launch_bounds__(256) k(float* x) { x[0] = 0.0f; }\n";
  FactsByKernel facts;
  facts["k"].launch = LaunchFacts{512, 1024, "k.cu:3", 0.25, "H100 (sm_90), 100 registers"};
  const auto diagnostics = lint_source("k.cu", source, set.rules(), {&facts, nullptr});
  REQUIRE(fired(diagnostics) == std::vector<std::string>{"1:launch-bounds-contradicted", "1:low-occupancy"});
  CHECK(diagnostics[0].message == "512 threads per block (k.cu:3) against __launch_bounds__(256)");
  CHECK(diagnostics[1].message == "occupancy 25% for blocks of 512 threads and 1024 B of dynamic shared memory");
  CHECK(diagnostics[1].notes == std::vector<std::string>{"from H100 (sm_90), 100 registers; spec k.cu:3"});
  facts["k"].launch = LaunchFacts{256, 0, "k.cu:3", 0.5, "b"};  // at the threshold: not below it
  CHECK(lint_source("k.cu", source, set.rules(), {&facts, nullptr}).empty());
  facts["k"].launch = LaunchFacts{128, 0, "k.cu:3", std::nullopt, ""};  // no occupancy computed: silent
  CHECK(lint_source("k.cu", source, set.rules(), {&facts, nullptr}).empty());
}

TEST_CASE("lint: any bytes are safe input") {
  for (std::string_view text : {"", "__global__", "__global__ void k(", "__global__ void k() { if (", "}}}}{{{",
                                "__global__ void k() { x<<<1, 3; }", "k<<<", "\xff\xfe\x00\x01"})
    CHECK_NOTHROW(lint_source("x.cu", text, rules().rules()));
}

TEST_CASE("lint: strided-global-access names a write as a write and a read as a read") {
  constexpr std::string_view transpose = R"(__global__ void t(const float* __restrict__ in, float* __restrict__ out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x * n] = in[x * n];
  reinterpret_cast<float4*>(&out[x * 8])[0] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}
)";
  std::vector<std::string> messages;
  for (const auto& d : lint_source("t.cu", transpose, rules().rules()))
    if (d.rule->id == "strided-global-access") messages.push_back(d.message.substr(0, d.message.find(':')));
  CHECK(messages == std::vector<std::string>{"write 'out[x * n]'", "read 'in[x * n]'", "write 'out[x * 8]'"});
}

TEST_CASE("lint: a finding can take its rule's softer wording, and a note in the code's own words") {
  const std::string source =
      "__global__ void pairs(const float* radii, float* out) {\n"
      "  int g = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[g] = radii[g * 2] * radii[g * 2 + 1];\n"
      "  out[g + 1] = radii[g * 3];\n"
      "}\n";
  std::vector<Diagnostic> strided;
  for (auto& d : lint_source("k.cu", source, rules().rules()))
    if (d.rule->id == "strided-global-access") strided.push_back(d);
  REQUIRE(strided.size() == 3);  // both fields, and the stride of 3
  CHECK(strided[0].message.starts_with("read 'radii[g * 2]': a small record per lane, accessed field by field"));
  REQUIRE(strided[0].notes.size() == 1);
  CHECK(strided[0].notes[0] ==
        "where the record is aligned, move each lane's 2 fields as one 8-byte vector (a float2 or float4 through "
        "reinterpret_cast)");
  CHECK(strided[2].message.starts_with("read 'radii[g * 3]': neighbouring lanes touch addresses a stride apart"));
}
