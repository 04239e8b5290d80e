// SPDX-License-Identifier: Apache-2.0
// `kforecast calibration`: how good the forecasts were on this repository's measured kernels (the
// ledger), what the configured policy did with them, and which thresholds would have held a
// target error rate among trusted forecasts.

#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "gate/settings.hpp"
#include "eval/plots.hpp"
#include "eval/rows.hpp"
#include "policy/ledger_calibration.hpp"

namespace kforecast::cli {
namespace {

struct Options {
  std::filesystem::path ledger;
  double target_risk = 0.02;
  bool json = false;
};

Result<Options> read_options(const Invocation& invocation, const config::Config& config) {
  // --ledger, else policy.ledger relative to the config file's directory (the repository root),
  // or to --repo or the current directory when there is no config file.
  Options options{invocation.has("--ledger")
                      ? std::filesystem::path(invocation.value("--ledger"))
                      : gate::ledger_path(config, invocation.has("--repo") ? invocation.value("--repo") : "")};
  if (invocation.has("--target-risk")) {
    const std::string text = invocation.value("--target-risk");
    const auto rate = whole_number<double>(text);
    if (!rate || !(*rate >= 0 && *rate < 1))
      return usage_error(fmt::format("--target-risk {}: expected a rate in [0, 1), e.g. 0.02", text));
    options.target_risk = *rate;
  }
  const auto format = format_option(invocation, {"text", "json"});
  if (!format) return std::unexpected(format.error());
  options.json = *format == "json";
  return options;
}

}  // namespace

Result<ExitCode> calibration_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty()) return usage_error("'kforecast calibration' takes no arguments");
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  auto options = read_options(invocation, *config);
  if (!options) return std::unexpected(options.error());

  std::error_code missing;
  if (!std::filesystem::exists(options->ledger, missing))
    return fail(ExitCode::could_not_run,
                fmt::format("no ledger at {}: kforecast pr appends a line there for every kernel it measures "
                            "(policy.ledger); in CI, keep that file as an artifact or cache and restore it before "
                            "this command, or pass --ledger FILE",
                            options->ledger.string()));
  auto text = read_text_file(options->ledger, "ledger");
  if (!text) return std::unexpected(text.error());
  auto reading = policy::parse_ledger(*text, options->ledger.string());
  if (!reading) return std::unexpected(reading.error());
  for (const auto& note : reading->notes) context.err << fmt::format("kforecast: note: {}\n", note);

  const policy::TrustThresholds current{config->number_value("policy.max_p_regression"),
                                        config->number_value("policy.min_confidence")};
  auto calibration = policy::calibrate(*reading, options->ledger.string(), current,
                                       config->number_value("bench.tolerance"), options->target_risk);
  if (!calibration) return std::unexpected(calibration.error());
  if (options->json)
    policy::write_calibration_json(context.out, *calibration);
  else
    policy::write_calibration_text(context.out, *calibration);
  if (invocation.has("--plots")) {
    const auto rows = eval::ledger_rows(*reading);
    if (rows.empty())
      return fail(ExitCode::could_not_run,
                  fmt::format("--plots: {} holds no measured speedup to plot (every measurement failed)",
                              options->ledger.string()));
    const eval::PolicySettingsForEval policy{current, config->number_value("bench.tolerance")};
    auto written = eval::write_eval_plots(
        invocation.value("--plots"), rows, policy,
        fmt::format("{} measured kernel{} in {}", rows.size(), rows.size() == 1 ? "" : "s", options->ledger.string()));
    if (!written) return std::unexpected(written.error());
    for (const auto& path : *written) context.err << fmt::format("kforecast: wrote {}\n", path.string());
  }
  return ExitCode::pass;
}

}  // namespace kforecast::cli
