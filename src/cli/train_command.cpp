// SPDX-License-Identifier: Apache-2.0
// `kforecast train DATASET.jsonl`: fit the embedded forecaster's model to labelled pairs and
// write its parameter file (the format of src/embedded/default_model.txt, which it can replace).

#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "embedded/occupancy.hpp"
#include "embedded/ordinal_model.hpp"
#include "embedded/training_set.hpp"
#include "cli/compiler_loading.hpp"
#include "cli/real_world.hpp"

namespace kforecast::cli {
namespace {

Result<std::size_t> parse_folds(const Invocation& invocation) {
  if (!invocation.has("--folds")) return std::size_t{5};
  const std::string text = invocation.value("--folds");
  const auto folds = whole_number<std::size_t>(text);
  if (!folds || *folds < 2 || *folds > 1000)
    return usage_error(fmt::format("--folds: '{}' is not a whole number from 2 to 1000", text));
  return *folds;
}

}  // namespace

Result<ExitCode> train_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.size() != 1)
    return usage_error("'kforecast train' takes one DATASET.jsonl (see 'kforecast help train')");
  auto folds = parse_folds(invocation);
  if (!folds) return std::unexpected(folds.error());
  const std::string hardware = invocation.has("--hardware") ? invocation.value("--hardware") : "H100";
  const auto gpu = embedded::named_gpu(hardware, "--hardware");
  if (!gpu) return std::unexpected(gpu.error());
  const std::string arch =
      invocation.has("--arch") ? invocation.value("--arch") : fmt::format("sm_{}", gpu->compute_capability);

  const std::string path = invocation.positional[0];
  auto pairs = embedded::read_labelled_pairs(path);
  if (!pairs) return std::unexpected(pairs.error());

  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  std::unique_ptr<cuda::Compiler> compiler;
  std::string compiler_note;
  if (!invocation.has("--no-nvrtc")) {
    auto loaded = load_compiler(*config, context.env);
    if (loaded)
      compiler = std::move(*loaded);
    else
      compiler_note = loaded.error().message();
  }
  const auto facts_cache = default_facts_cache(context.env);
  auto set = embedded::training_set(
      *pairs, {.compiler = compiler.get(), .arch = arch, .gpu = *gpu, .facts_cache = facts_cache ? &*facts_cache : nullptr},
      path);
  if (!set) return std::unexpected(set.error());
  auto report = embedded::train_model(set->examples, {.folds = *folds});
  if (!report) return std::unexpected(report.error());

  std::ostream& summary = invocation.has("--output") ? context.out : context.err;
  std::optional<std::string> nvrtc_not_used;
  if (!compiler) nvrtc_not_used = compiler_note.empty() ? "--no-nvrtc" : compiler_note;
  embedded::write_training_summary(summary, {path, hardware, arch, nvrtc_not_used}, *set, *report);
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
