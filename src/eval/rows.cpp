// SPDX-License-Identifier: Apache-2.0
#include "cli/eval_forecasts.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "gate/compiler_facts.hpp"
#include "gate/llm_settings.hpp"
#include "embedded/ordinal_model.hpp"
#include "embedded/training.hpp"
#include "gate/forecaster.hpp"
#include "llm/prompt_set.hpp"
#include "policy/identical_code.hpp"

namespace kforecast::cli {
namespace {

using forecast::BinDistribution;
using forecast::SpeedupBin;

std::string launch_text(const std::optional<embedded::LaunchGeometry>& launch) {
  if (!launch) return "not given";
  return fmt::format("grid [{}, {}, {}], block [{}, {}, {}], {} bytes dynamic shared memory", launch->grid[0],
                     launch->grid[1], launch->grid[2], launch->block[0], launch->block[1], launch->block[2],
                     launch->shared_bytes);
}

// The prompts: built in, or forecast.prompts read from the work tree (relative to the config
// file's directory, the repository root). eval reads no revision, so there is no base to pin.
Result<llm::PromptSet> eval_prompts(const config::Config& config) {
  const std::filesystem::path directory = config.string_value("forecast.prompts");
  if (directory.empty()) return llm::builtin_prompts();
  if (directory.is_absolute() || !config.file()) return llm::load_prompts(directory);
  return llm::load_prompts(config.file()->parent_path() / directory);
}

}  // namespace

std::vector<EvalRow> eval_rows(std::span<const embedded::LabelledPair> pairs) {
  std::vector<EvalRow> rows;
  rows.reserve(pairs.size());
  for (const auto& pair : pairs) {
    EvalRow row;
    row.id = pair.id;
    row.family = pair.family;
    row.line = pair.line;
    row.speedup = pair.speedup;
    // The reader accepts only finite positive speedups, and every one of those has a bin.
    row.true_bin = forecast::bin_from_speedup(pair.speedup).value();
    row.reference_key = pair.family + '\0' + pair.reference.kernel + '\0' + pair.reference.source.str();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string family_label(const std::string& family) { return family.empty() ? "(no family)" : family; }

BinDistribution training_prior(std::span<const SpeedupBin> bins) {
  std::array<double, forecast::bin_count> counts{};
  counts.fill(1.0);
  for (const SpeedupBin bin : bins) counts[forecast::bin_offset(bin)] += 1.0;
  const double total = static_cast<double>(bins.size() + forecast::bin_count);
  for (double& c : counts) c /= total;
  return BinDistribution::from_raw(counts).value();
}

void set_training_priors(std::vector<EvalRow>& rows, CrossValidation cv) {
  if (cv == CrossValidation::none) {
    std::vector<SpeedupBin> bins;
    for (const auto& row : rows) bins.push_back(row.true_bin);
    const auto prior = training_prior(bins);
    for (auto& row : rows) row.prior = prior;
    return;
  }
  for (const std::string& family : families_of(rows)) {
    std::vector<SpeedupBin> bins;
    for (const auto& row : rows)
      if (row.family != family) bins.push_back(row.true_bin);
    const auto prior = training_prior(bins);
    for (auto& row : rows)
      if (row.family == family) row.prior = prior;
  }
}

std::vector<std::string> families_of(std::span<const EvalRow> rows) {
  std::set<std::string> families;
  for (const auto& row : rows) families.insert(row.family);
  return {families.begin(), families.end()};
}

Result<EmbeddedEvalSummary> forecast_embedded(std::span<const embedded::LabelledPair> pairs, std::vector<EvalRow>& rows,
                                              const embedded::FeatureContext& features, CrossValidation cv,
                                              std::ostream* progress) {
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
      *progress << fmt::format("kforecast eval: fold {}/{} ({}): training on {} pairs\n", fold + 1, families.size(),
                               family_label(family), training.size());
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

Result<std::string> forecast_llm(std::span<const embedded::LabelledPair> pairs, std::vector<EvalRow>& rows,
                                 const LlmEvalSettings& settings) {
  auto prompts = eval_prompts(settings.config);
  if (!prompts) return std::unexpected(prompts.error());
  auto forecaster = gate::make_llm_forecaster(settings.config, settings.env, std::move(*prompts), settings.progress);
  if (!forecaster) return std::unexpected(forecaster.error());
  std::vector<gate::ForecastRequest> requests;
  for (const auto& pair : pairs) {
    gate::ForecastRequest request{pair.reference, pair.candidate, {}};
    request.prompt_extras = [&pair, &settings] {
      gate::PromptExtras extras;
      extras.candidate_raw = pair.candidate.source;
      if (pair.reference.launch || pair.candidate.launch)
        extras.launch_text = fmt::format("reference: {}; candidate: {}", launch_text(pair.reference.launch),
                                         launch_text(pair.candidate.launch));
      if (settings.compiler != nullptr) {
        auto unit = [&](const std::string& name, const std::string& source) {
          policy::CompileUnit u{name, source, {}, {}, {}};
          if (!settings.cuda_include.empty()) u.include_dirs.push_back(settings.cuda_include);
          return u;
        };
        extras.reference_compiler_facts = gate::compiler_facts(
            *settings.compiler, unit("reference.cu", pair.reference.source), pair.reference.kernel, settings.arch);
        extras.candidate_compiler_facts = gate::compiler_facts(
            *settings.compiler, unit("candidate.cu", pair.candidate.source), pair.candidate.kernel, settings.arch);
      }
      return extras;
    };
    requests.push_back(std::move(request));
  }
  auto run = (*forecaster)->forecast(requests);
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
    rows[i].forecast = BinDistribution::uniform();
    rows[i].notes.push_back(notes.empty() ? "no LLM forecast: scored as the uniform distribution"
                                          : notes.back() + "; scored as the uniform distribution");
  }
  return run->notes.empty() ? std::string("LLM endpoint") : run->notes.back();
}

}  // namespace kforecast::cli
