// SPDX-License-Identifier: Apache-2.0
// `kforecast train DATASET.jsonl`: fit the embedded forecaster's model to labelled pairs and
// write its parameter file (the format of src/embedded/default_model.txt, which it can replace).

#include <charconv>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "gate/compiler_loading.hpp"
#include "gate/facts_cache.hpp"
#include "cli/handlers.hpp"
#include "cuda/nvrtc.hpp"
#include "embedded/pair_features.hpp"
#include "embedded/training.hpp"
#include "forecast/speedup_bin.hpp"

namespace kforecast::cli {
namespace {

Result<std::size_t> parse_folds(const Invocation& invocation) {
  if (!invocation.has("--folds")) return std::size_t{5};
  const std::string text = invocation.value("--folds");
  std::size_t folds = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), folds);
  if (error != std::errc() || end != text.data() + text.size() || folds < 2 || folds > 1000)
    return usage_error(fmt::format("--folds: '{}' is not a whole number from 2 to 1000", text));
  return folds;
}

}  // namespace

Result<ExitCode> train_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.size() != 1)
    return usage_error("'kforecast train' takes one DATASET.jsonl (see 'kforecast help train')");
  auto folds = parse_folds(invocation);
  if (!folds) return std::unexpected(folds.error());
  const std::string hardware = invocation.has("--hardware") ? invocation.value("--hardware") : "H100";
  const auto gpu = embedded::find_gpu(hardware);
  if (!gpu)
    return usage_error(
        fmt::format("--hardware: unknown GPU '{}'; known: H100, H200, A100, A10, L4, L40S, V100, T4, B200", hardware));
  const std::string arch =
      invocation.has("--arch") ? invocation.value("--arch") : fmt::format("sm_{}", gpu->compute_capability);

  const std::string path = invocation.positional[0];
  auto text = read_text_file(path, "the dataset");
  if (!text) return std::unexpected(text.error());
  auto pairs = embedded::parse_labelled_pairs(*text, path);
  if (!pairs) return std::unexpected(pairs.error());

  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  std::unique_ptr<cuda::Compiler> compiler;
  std::string compiler_note;
  if (!invocation.has("--no-nvrtc")) {
    auto loaded = gate::load_compiler(*config, context.env);
    if (loaded)
      compiler = std::move(*loaded);
    else
      compiler_note = loaded.error().message();
  }
  const auto facts_cache = gate::default_facts_cache(context.env);
  embedded::FeatureCache cache(
      {.compiler = compiler.get(), .arch = arch, .gpu = *gpu, .facts_cache = facts_cache ? &*facts_cache : nullptr});

  std::vector<embedded::TrainingExample> examples;
  std::set<std::string> families;
  std::size_t with_compiler = 0, with_launch = 0, without_source = 0;
  for (const auto& pair : *pairs) {
    auto bin = forecast::bin_from_speedup(pair.speedup);
    if (!bin) return usage_error(fmt::format("{}:{}: {}", path, pair.line, bin.error().message));
    cache.prepare({&pair.reference, &pair.candidate});  // two new texts compile at once
    const auto& reference = cache.features(pair.reference);
    const auto& candidate = cache.features(pair.candidate);
    embedded::TrainingExample example{embedded::feature_delta(reference, candidate), *bin, pair.family};
    with_compiler += example.delta.compiler;
    with_launch += example.delta.launch;
    without_source += !example.delta.source;
    if (!pair.family.empty()) families.insert(pair.family);
    examples.push_back(std::move(example));
  }
  auto report = embedded::train_model(examples, {.folds = *folds});
  if (!report) return std::unexpected(report.error());

  std::ostream& summary = invocation.has("--output") ? context.out : context.err;
  summary << fmt::format("kforecast train: {} pairs from {} ({} families), {} for {}\n", examples.size(), path,
                         families.size(), hardware, arch);
  summary << fmt::format(
      "  features: NVRTC facts for {} pairs{}, launch for {}, kernel not found in {}\n", with_compiler,
      compiler ? "" : fmt::format(" (NVRTC not used: {})", compiler_note.empty() ? "--no-nvrtc" : compiler_note),
      with_launch, without_source);
  summary << fmt::format(
      "  out of fold ({} folds, {}): NLL {:.4f} at T = 1, {:.4f} at T = {:.3f}; training prior {:.4f}; "
      "accuracy {:.3f}\n",
      report->folds, report->by_family ? "one per family" : "by position", report->out_of_fold_nll_uncalibrated,
      report->out_of_fold_nll, report->model.temperature, report->prior_nll, report->out_of_fold_accuracy);
  const std::string model_text = embedded::render_model(report->model);
  if (invocation.has("--output")) {
    const std::string output = invocation.value("--output");
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    if (!out || !(out << model_text) || !out.flush())
      return fail(ExitCode::could_not_run, fmt::format("cannot write the model to '{}'", output));
    summary << fmt::format("  model written to {}\n", output);
  } else {
    context.out << model_text;
  }
  return ExitCode::pass;
}

}  // namespace kforecast::cli
