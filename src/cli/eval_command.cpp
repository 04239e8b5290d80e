// SPDX-License-Identifier: Apache-2.0
// `kforecast eval DATASET.jsonl`: score a forecaster on labelled pairs (DESIGN.md), per family
// and overall, against two baselines on the same rows, and under the configured policy; with
// --cv family, leave-one-family-out for the embedded model.

#include <unistd.h>

#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "gate/compiler_loading.hpp"
#include "cli/eval_forecasts.hpp"
#include "cli/eval_output.hpp"
#include "cli/eval_plots.hpp"
#include "cli/eval_scoring.hpp"
#include "gate/facts_cache.hpp"
#include "cli/handlers.hpp"
#include "cuda/nvrtc.hpp"
#include "embedded/occupancy.hpp"

namespace kforecast::cli {
namespace {

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
  const std::string format = invocation.has("--format") ? invocation.value("--format") : "text";
  if (format != "text" && format != "json")
    return usage_error(fmt::format("--format {}: expected text or json", format));
  options.json = format == "json";
  return options;
}

std::string plural(std::size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

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
  const auto gpu = embedded::find_gpu(hardware);
  if (!gpu)
    return usage_error(fmt::format(
        "--hardware (or forecast.hardware): unknown GPU '{}'; known: H100, H200, A100, A10, L4, L40S, V100, T4, B200",
        hardware));
  std::string arch = invocation.has("--arch") ? invocation.value("--arch") : config->string_value("cuda.arch");
  if (arch == "auto") arch = fmt::format("sm_{}", gpu->compute_capability);

  const std::string path = invocation.positional[0];
  auto text = read_text_file(path, "the dataset");
  if (!text) return std::unexpected(text.error());
  auto pairs = embedded::parse_labelled_pairs(*text, path);
  if (!pairs) return std::unexpected(pairs.error());
  if (pairs->empty())
    return fail(ExitCode::could_not_run, fmt::format("{}: no labelled pairs (one JSON object per line)", path));

  EvalRun run{path,
              options->forecaster,
              "",
              options->cv,
              {{config->number_value("policy.max_p_regression"), config->number_value("policy.min_confidence")},
               config->number_value("bench.tolerance")},
              pairs->size(),
              {}};
  std::unique_ptr<cuda::Compiler> compiler;
  if (!invocation.has("--no-nvrtc")) {
    auto loaded = gate::load_compiler(*config, context.env);
    if (loaded)
      compiler = std::move(*loaded);
    else
      run.notes.push_back("no NVRTC facts: " + loaded.error().message());
  }
  const bool terminal = context.err_is_terminal;

  auto rows = eval_rows(*pairs);
  set_training_priors(rows, options->cv);
  if (options->forecaster == "embedded") {
    const auto facts_cache = gate::default_facts_cache(context.env);
    auto summary = forecast_embedded(*pairs, rows, {compiler.get(), arch, *gpu, facts_cache ? &*facts_cache : nullptr},
                                     options->cv, terminal ? &context.err : nullptr);
    if (!summary) return std::unexpected(summary.error());
    run.model = summary->model;
    run.notes.push_back(fmt::format("features for {} ({}): NVRTC facts for {} of {}", hardware, arch,
                                    summary->with_compiler_facts, plural(rows.size(), "pair")));
    if (summary->kernel_not_found > 0)
      run.notes.push_back(
          fmt::format("{} with a kernel not found in its source: forecast from what could be read (wider), and counted",
                      plural(summary->kernel_not_found, "pair")));
  } else {
    auto summary =
        forecast_llm(*pairs, rows, {*config, context.env, compiler.get(), arch, "", terminal ? &context.err : nullptr});
    if (!summary) return std::unexpected(summary.error());
    run.model = *summary;
    std::size_t failed = 0;
    for (const auto& row : rows)
      failed += !row.notes.empty() && row.notes.back().ends_with("scored as the uniform distribution");
    if (failed > 0)
      run.notes.push_back(fmt::format("{} without an LLM forecast: scored as the uniform distribution, and counted",
                                      plural(failed, "pair")));
  }

  const auto groups = score_by_family(rows, run.policy);
  if (invocation.has("--predictions")) {
    const std::string file = invocation.value("--predictions");
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    write_predictions(out, rows, run.policy);
    if (!out.flush()) return fail(ExitCode::could_not_run, fmt::format("--predictions: cannot write '{}'", file));
    run.notes.push_back(fmt::format("predictions ({}) written to {}", plural(rows.size(), "line"), file));
  }
  if (invocation.has("--plots")) {
    auto written = write_eval_plots(invocation.value("--plots"), rows, run.policy,
                                    fmt::format("{} on {} ({})", run.forecaster, path, plural(rows.size(), "pair")));
    if (!written) return std::unexpected(written.error());
    for (const auto& plot : *written) run.notes.push_back("plot written to " + plot.string());
  }
  if (options->json)
    write_eval_json(context.out, run, groups);
  else
    write_eval_text(context.out, run, groups);
  return ExitCode::pass;
}

}  // namespace kforecast::cli
