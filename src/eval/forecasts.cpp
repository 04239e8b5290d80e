// SPDX-License-Identifier: Apache-2.0
#include "eval/forecasts.hpp"

#include <filesystem>
#include <ostream>
#include <tuple>

#include <fmt/format.h>

#include "cuda/library_search.hpp"
#include "embedded/ordinal_model.hpp"
#include "embedded/training.hpp"
#include "forecasters/compiler_facts.hpp"
#include "policy/identical_code.hpp"

namespace kforecast::eval {
namespace {

using forecast::BinDistribution;

std::string launch_text(const std::optional<embedded::LaunchGeometry>& launch) {
  if (!launch) return "not given";
  return fmt::format("grid [{}, {}, {}], block [{}, {}, {}], {} bytes dynamic shared memory", launch->grid[0],
                     launch->grid[1], launch->grid[2], launch->block[0], launch->block[1], launch->block[2],
                     launch->shared_bytes);
}

// One side's compiler facts for a prompt, compiled as `unit_name`.
std::string compiler_facts(const PromptCompiler& prompt_compiler, const std::string& unit_name,
                           const embedded::KernelText& side) {
  policy::CompileUnit unit{unit_name, side.source.str(), {}, {}, {}};
  unit.include_dirs = cuda::toolkit_header_dirs(prompt_compiler.cuda_include);
  return forecasters::compiler_facts(*prompt_compiler.compiler, unit, side.kernel, prompt_compiler.arch);
}

}  // namespace

Result<EmbeddedEvalSummary> forecast_embedded(std::span<const embedded::LabelledPair> pairs, std::vector<EvalRow>& rows,
                                              const embedded::FeatureContext& features, CrossValidation cv,
                                              Progress* progress) {
  EmbeddedEvalSummary summary;
  // Features do not depend on any label, so every fold shares one cache: each text is read and
  // compiled once.
  embedded::FeatureCache cache(features);
  std::vector<embedded::FeatureDelta> deltas;
  deltas.reserve(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::string reference_note, candidate_note;
    cache.prepare({&pairs[i].reference, &pairs[i].candidate});  // two new texts compile at once
    const auto& reference = cache.features(pairs[i].reference, &reference_note);
    const auto& candidate = cache.features(pairs[i].candidate, &candidate_note);
    deltas.push_back(embedded::feature_delta(reference, candidate));
    for (const auto& [side, vector, kernel] : {std::tuple{"reference", &reference, &pairs[i].reference},
                                               std::tuple{"candidate", &candidate, &pairs[i].candidate}})
      if (!vector->source)
        rows[i].notes.push_back(fmt::format("{} kernel '{}' not found in its source: forecast from what could be read",
                                            side, kernel->kernel));
    if (features.compiler != nullptr && !deltas.back().compiler)
      rows[i].notes.push_back(reference_note.empty() ? candidate_note : reference_note);
    summary.with_compiler_facts += deltas.back().compiler;
    summary.kernel_not_found += !reference.source || !candidate.source;
  }

  if (cv == CrossValidation::none) {
    const auto& model = embedded::default_model();
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].forecast = embedded::predict(model, deltas[i]);
    summary.model =
        model.status == embedded::ModelStatus::trained
            ? fmt::format("the compiled-in model (ordinal logistic, trained on {} pairs)", model.training_pairs)
            : "the compiled-in model (an untrained prior: every weight 0)";
    return summary;
  }

  const auto families = families_of(rows);
  if (families.size() < 2)
    return usage_error(fmt::format("--cv family needs pairs from at least two families; every pair here is in '{}'",
                                   family_label(families.empty() ? "" : families.front())));
  for (std::size_t fold = 0; fold < families.size(); ++fold) {
    const std::string& family = families[fold];
    std::vector<embedded::TrainingExample> training;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (rows[i].family != family) training.push_back({deltas[i], rows[i].true_bin, rows[i].family});
    if (progress)
      progress->stage(fmt::format("fold {}/{} ({}): training on {} pairs", fold + 1, families.size(),
                                  family_label(family), training.size()));
    auto trained = embedded::train_model(training);
    if (!trained)
      return fail(trained.error().exit_code,
                  fmt::format("fold '{}': {}", family_label(family), trained.error().message));
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (rows[i].family == family) rows[i].forecast = embedded::predict(trained->model, deltas[i]);
  }
  summary.model = fmt::format(
      "leave-one-family-out: each of the {} families forecast by a model trained on the other families' pairs",
      families.size());
  return summary;
}

Result<llm::PromptSet> work_tree_prompts(const config::Config& config) {
  const std::filesystem::path directory = config.string_value("forecast.prompts");
  if (directory.empty()) return llm::builtin_prompts();
  if (directory.is_absolute() || !config.file()) return llm::load_prompts(directory);
  return llm::load_prompts(config.file()->parent_path() / directory);
}

Result<std::string> forecast_with(const forecasters::Forecaster& forecaster, std::span<const embedded::LabelledPair> pairs,
                                  std::vector<EvalRow>& rows, const PromptCompiler& prompt_compiler) {
  std::vector<forecasters::ForecastRequest> requests;
  for (const auto& pair : pairs) {
    forecasters::ForecastRequest request{pair.reference, pair.candidate, {}};
    request.prompt_extras = [&pair, &prompt_compiler] {
      forecasters::PromptExtras extras;
      extras.candidate_raw = pair.candidate.source;
      if (pair.reference.launch || pair.candidate.launch)
        extras.launch_text = fmt::format("reference: {}; candidate: {}", launch_text(pair.reference.launch),
                                         launch_text(pair.candidate.launch));
      if (prompt_compiler.compiler != nullptr) {
        extras.reference_compiler_facts = compiler_facts(prompt_compiler, "reference.cu", pair.reference);
        extras.candidate_compiler_facts = compiler_facts(prompt_compiler, "candidate.cu", pair.candidate);
      }
      return extras;
    };
    requests.push_back(std::move(request));
  }
  auto run = forecaster.forecast(requests);
  if (!run) return std::unexpected(run.error());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& kernel = run->kernels[i];
    // The notes as pr's report would list them, the failure's last.
    std::vector<std::string> notes = std::move(kernel.notes);
    if (!kernel.failure_note.empty()) notes.push_back(std::move(kernel.failure_note));
    if (kernel.forecast) {
      // Already validated and renormalised by the client; from_raw only rebuilds the value.
      if (auto distribution = BinDistribution::from_raw(kernel.forecast->probabilities)) {
        rows[i].forecast = *distribution;
        for (auto& note : notes) rows[i].notes.push_back(std::move(note));
        continue;
      }
    }
    // The words are the LLM's: the embedded forecaster never fails a kernel.
    rows[i].forecast = BinDistribution::uniform();
    rows[i].notes.push_back(notes.empty() ? "no LLM forecast: scored as the uniform distribution"
                                          : notes.back() + "; scored as the uniform distribution");
  }
  return run->notes.empty() ? std::string("LLM endpoint") : run->notes.back();
}

}  // namespace kforecast::eval
