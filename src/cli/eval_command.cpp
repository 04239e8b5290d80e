// SPDX-License-Identifier: Apache-2.0
// `kforecast eval DATASET.jsonl`: score a forecaster on labelled pairs (embedded/labelled_pairs.hpp), per family
// and overall, against two baselines on the same rows, and under the configured policy; with
// --cv family, leave-one-family-out for the embedded model. The stage logic is src/eval's; this
// file parses the options and builds what eval takes from the outside world (the compiler, the
// facts cache, the configured LLM forecaster).

#include <ostream>

#include <fmt/format.h>

#include "embedded/labelled_pairs.hpp"
#include "cli/command_progress.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "embedded/occupancy.hpp"
#include "eval/evaluation.hpp"
#include "eval/output.hpp"
#include "cli/compiler_loading.hpp"
#include "cli/real_world.hpp"
#include "forecasters/llm_settings.hpp"

namespace kforecast::cli {
namespace {

using eval::CrossValidation;

struct EvalOptions {
  std::string forecaster;
  CrossValidation cv = CrossValidation::none;
  bool json = false;
};

Result<EvalOptions> read_options(const Invocation& invocation, const config::Config& config) {
  EvalOptions options;
  options.forecaster =
      invocation.has("--forecaster") ? invocation.value("--forecaster") : config.string_value("forecast.forecaster");
  if (options.forecaster != "embedded" && options.forecaster != "llm")
    return usage_error(fmt::format("--forecaster {}: expected embedded or llm", options.forecaster));
  const std::string cv = invocation.has("--cv") ? invocation.value("--cv") : "none";
  if (cv != "family" && cv != "none")
    return usage_error(fmt::format("--cv {}: expected family (leave one family out) or none", cv));
  options.cv = cv == "family" ? CrossValidation::family : CrossValidation::none;
  const auto format = format_option(invocation, {"text", "json"});
  if (!format) return std::unexpected(format.error());
  options.json = *format == "json";
  return options;
}

}  // namespace

Result<ExitCode> eval_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.size() != 1)
    return usage_error("'kforecast eval' takes one DATASET.jsonl (see 'kforecast help eval')");
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  auto options = read_options(invocation, *config);
  if (!options) return std::unexpected(options.error());
  const std::string hardware =
      invocation.has("--hardware") ? invocation.value("--hardware") : config->string_value("forecast.hardware");
  const auto gpu = embedded::named_gpu(hardware, "--hardware (or forecast.hardware)");
  if (!gpu) return std::unexpected(gpu.error());
  std::string arch = invocation.has("--arch") ? invocation.value("--arch") : config->string_value("cuda.arch");
  if (arch == "auto") arch = fmt::format("sm_{}", gpu->compute_capability);

  const std::string path = invocation.positional[0];
  auto pairs = embedded::read_labelled_pairs(path);
  if (!pairs) return std::unexpected(pairs.error());
  if (pairs->empty())
    return fail(ExitCode::could_not_run, fmt::format("{}: no labelled pairs (one JSON object per line)", path));

  eval::EvalRun run{path,
                    options->forecaster,
                    "",
                    options->cv,
                    {{config->number_value("policy.max_p_regression"), config->number_value("policy.min_confidence")},
                     config->number_value("bench.tolerance")},
                    pairs->size(),
                    {}};
  std::unique_ptr<cuda::Compiler> compiler;
  if (!invocation.has("--no-nvrtc")) {
    auto loaded = load_compiler(*config, context.env);
    if (loaded)
      compiler = std::move(*loaded);
    else
      run.notes.push_back("no NVRTC facts: " + loaded.error().message());
  }
  CommandProgress progress(invocation, context);

  auto evaluation = [&]() -> Result<eval::Evaluation> {
    if (options->forecaster == "embedded") {
      const auto facts_cache = default_facts_cache(context.env);
      return eval::evaluate_embedded(*pairs, std::move(run),
                                     {compiler.get(), arch, *gpu, facts_cache ? &*facts_cache : nullptr}, hardware,
                                     &*progress);
    }
    auto prompts = eval::work_tree_prompts(*config);
    if (!prompts) return std::unexpected(prompts.error());
    auto forecaster = forecasters::make_llm_forecaster(*config, context.env, real_llm_world(*config, context.env),
                                                       std::move(*prompts), &*progress);
    if (!forecaster) return std::unexpected(forecaster.error());
    return eval::evaluate_with(**forecaster, *pairs, std::move(run), {compiler.get(), arch, ""});
  }();
  progress->finish();
  if (!evaluation) return std::unexpected(evaluation.error());

  if (invocation.has("--predictions")) {
    if (auto saved = eval::save_predictions(invocation.value("--predictions"), *evaluation); !saved)
      return std::unexpected(saved.error());
  }
  if (invocation.has("--plots")) {
    if (auto saved = eval::save_plots(invocation.value("--plots"), *evaluation); !saved)
      return std::unexpected(saved.error());
  }
  if (options->json)
    eval::write_eval_json(context.out, evaluation->run, evaluation->groups);
  else
    eval::write_eval_text(context.out, evaluation->run, evaluation->groups);
  return ExitCode::pass;
}

}  // namespace kforecast::cli
