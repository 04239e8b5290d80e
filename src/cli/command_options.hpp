// SPDX-License-Identifier: Apache-2.0
#pragma once

// Each subcommand's options, as `kforecast COMMAND --help` lists them; the command table
// (cli/command_table.cpp) is their one user.

#include <array>

#include "cli/command.hpp"

namespace kforecast::cli::options {

inline constexpr OptionSpec config_option{"--config", "FILE", "read this config instead of the repository's .kforecast.toml"};
inline constexpr OptionSpec repo_option{"--repo", "DIR", "the repository to work in (default: the current directory)"};

inline constexpr std::array pr_options{
    OptionSpec{"--base", "REV",
               "the revision to compare against (default: from the GitHub event or GitLab merge request in CI, "
               "else the merge-base with upstream)"},
    OptionSpec{"--head", "REV", "the revision under review (default: HEAD)"},
    OptionSpec{"--staged", "", "review the changes staged for commit (the index against HEAD)"},
    OptionSpec{"--diff", "FILE|-", "review a patch made by git: the work tree is the head (- reads standard input)"},
    repo_option,
    config_option,
    OptionSpec{"--format", "text|md|json|sarif",
               "report format (default: text on a terminal, else report.format, md; sarif for code-scanning annotations)"},
    OptionSpec{"--output", "FILE", "write the report here instead of standard output"},
    OptionSpec{"--forecaster", "embedded|llm",
               "which forecaster to use (default forecast.forecaster, which is embedded: offline, no network; llm "
               "needs endpoint.url and endpoint.model)"},
    OptionSpec{"--no-bench", "",
               "measure nothing, even with a GPU: kernels the policy sends to the GPU stay unverified "
               "(policy.on_unverified decides); to act as on a machine without a GPU"},
    OptionSpec{"--plan", "FILE",
               "stop after the policy and write a plan for GPU jobs ('kforecast bench --plan') and 'kforecast report "
               "--merge'; also the step outputs needs_gpu, shards, matrix, verdict_so_far and a step summary"},
    OptionSpec{"--progress", "",
               "print progress lines (stage, kernels done of the total, GPU time) to standard error from the start "
               "where it is not a terminal, as in a CI log (also KFORECAST_PROGRESS=1). Without it a CI log gets a "
               "line every 30 s once a run takes 30 s (KFORECAST_PROGRESS=0: none); a terminal shows one line, "
               "redrawn, once a run takes 2 s"},
    OptionSpec{"--post", "",
               "publish the report: one comment on the pull request (GitHub, GITHUB_TOKEN; on workflow_run, the "
               "pull request of the run it follows) or merge request (GitLab, GITLAB_TOKEN), updated in place; a "
               "token that may not comment (a fork's) is a warning, the exit code stays the gate's. The step "
               "summary and outputs are written with or without it, wherever $GITHUB_STEP_SUMMARY and "
               "$GITHUB_OUTPUT are set"},
};
inline constexpr std::array lint_options{
    OptionSpec{"--staged", "", "lint what `git commit` would record, reporting on the added lines only"},
    OptionSpec{"--format", "text|json|sarif", "output format (default text: file:line:col: warning: message [rule])"},
    OptionSpec{"--output", "FILE", "write the diagnostics here instead of standard output"},
    OptionSpec{"--color", "auto|always|never", "colour the text output (default auto: on a terminal, unless NO_COLOR)"},
    OptionSpec{"--no-forecast", "", "skip the offline forecast of the changed kernels"},
    OptionSpec{"--install-hook", "", "install a git pre-commit hook that runs 'kforecast lint --staged'"},
    OptionSpec{"--force", "", "with --install-hook: replace a pre-commit hook that is not kforecast's"},
    repo_option,
    config_option};
inline constexpr std::array rules_options{config_option, repo_option};
inline constexpr std::array check_options{
    OptionSpec{"--against", "REV", "compare with FILE at this git revision (default HEAD)"},
    OptionSpec{"--vs", "FILE[:KERNEL]", "compare with another file's kernel instead (same name unless given)"},
    OptionSpec{"--bench", "", "also measure on the local GPU, as 'kforecast bench' does (exit 3 without a GPU)"},
    OptionSpec{"--format", "text|json",
               "output format (default text; json: the report of 'kforecast pr --format json')"},
    OptionSpec{"--forecaster", "embedded|llm", "which forecaster to use (default forecast.forecaster)"},
    config_option};
inline constexpr std::array bench_options{
    OptionSpec{"--against", "REV", "the reference is this file's kernel at a git revision"},
    OptionSpec{"--vs", "FILE[:KERNEL]",
               "the reference is another file's kernel (same name unless given); with --against, that file's "
               "kernel at the revision (a kernel renamed or moved since)"},
    OptionSpec{"--format", "text|json", "output format (json: the report's measurement object)"},
    config_option,
    OptionSpec{"--in-process", "", "measure in this process instead of a child with a time limit (used by the child)"},
    OptionSpec{"--confirming", "",
               "this measurement confirms a regression another process measured: outputs compared on one seed "
               "(used by the child)"},
    OptionSpec{"--extended", "",
               "measure with four times the rounds and twice bench.max_gpu_seconds: the third process of a "
               "regression whose confirmation straddled the tolerance (used by the child)"},
    OptionSpec{"--batch", "FILE",
               "with --in-process and --results: measure every pair FILE lists in this one process, one result line "
               "each (used by pr's measuring child)"},
    OptionSpec{"--results", "FILE", "with --batch: append each pair's result here as it finishes"},
    OptionSpec{"--budget", "SECONDS", "with --batch: start no pair once this many GPU seconds are spent"},
    OptionSpec{"--builds", "DIR",
               "with --in-process: keep both sides' builds here, and load them where an earlier process of the same "
               "decision kept them (used by the child)"},
    OptionSpec{"--timings", "",
               "with --in-process: print where the measuring process's time went (driver, NVRTC, context, builds, "
               "measuring) to standard error"},
    OptionSpec{"--repeat", "N",
               "with --in-process --format json: measure the pair N times from one compile, one JSON line each (a "
               "measurement study, as scripts/gpu-decision-time.sh runs)"},
    OptionSpec{"--project-build", "FILE",
               "build both sides with the project's nvcc and context as FILE says (used by pr's measuring child)"},
    OptionSpec{"--capture", "PATH",
               "replay captured launches (a capture file, or a folder of them; 'kforecast capture' records them) "
               "instead of a launch spec; without a spec, the kernel's captures in capture.dir are replayed"},
    OptionSpec{"--plan", "FILE", "measure a share of the kernels of a plan written by 'kforecast pr --plan'"},
    OptionSpec{"--shard", "I/N",
               "with --plan: the share to measure, shard I of N (kernel k of the plan goes to k mod N)"},
    OptionSpec{"--output", "FILE", "with --plan: write the results here instead of standard output"}};
inline constexpr std::array spec_options{
    OptionSpec{"--format", "comment|toml",
               "comment (default): a '// kforecast:' block to paste above the kernel; toml: a [[kernel]] table for "
               ".kforecast.toml"}};
inline constexpr std::array capture_options{
    OptionSpec{"--dir", "DIR", "write the captures here (default .kforecast/captures in the repository's root)"},
    OptionSpec{"--launches-per-shape", "N",
               "keep the first N launches of each distinct shape of each kernel (default 1)"},
    OptionSpec{"--bytes", "B",
               "keep at most B bytes of buffer contents in all (default 256M; K, M and G suffixes); buffers past "
               "it are recorded as synthetic"},
    OptionSpec{"--kernels", "GLOB", "capture only kernels whose mangled or demangled name matches (default '*')"}};
inline constexpr std::array report_options{
    OptionSpec{"--merge", "PLAN", "the plan written by 'kforecast pr --plan'; the RESULTS files follow as arguments"},
    OptionSpec{"--format", "text|md|json|sarif", "report format (default: text on a terminal, else report.format, md)"},
    OptionSpec{"--output", "FILE", "write the report here instead of standard output"},
    OptionSpec{"--post", "",
               "post the report as 'kforecast pr --post' does, also from a workflow_run run (the step summary and "
               "outputs are written either way)"},
    OptionSpec{"--config", "FILE",
               "this job's own config (default: the current directory's .kforecast.toml): every setting the plan "
               "may not decide comes from here"}};
inline constexpr std::array eval_options{
    OptionSpec{"--forecaster", "embedded|llm",
               "which forecaster to score (default forecast.forecaster; llm needs endpoint.url and endpoint.model)"},
    OptionSpec{"--cv", "family|none",
               "family: leave one family out (each family forecast by a model trained on the others); none (default): "
               "the compiled-in model forecasts every pair"},
    OptionSpec{"--format", "text|json", "output format (default text: a table; json: the same figures)"},
    OptionSpec{"--predictions", "FILE",
               "write one JSON line per pair: id, family, probabilities, predicted_bin, confidence, p_regression, "
               "decision, true_bin, speedup, prior"},
    OptionSpec{"--plots", "DIR", "write reliability.svg and risk_coverage.svg into DIR"},
    OptionSpec{"--hardware", "GPU", "the GPU the measurements come from (default forecast.hardware, H100)"},
    OptionSpec{"--arch", "sm_XX", "architecture NVRTC compiles for (default cuda.arch, or the GPU's)"},
    OptionSpec{"--no-nvrtc", "", "forecast from source and launch features only"},
    config_option};
inline constexpr std::array train_options{
    OptionSpec{"--output", "FILE", "write the model's parameter file here (default: standard output)"},
    OptionSpec{"--hardware", "GPU", "the GPU the measurements come from: H100 (default), A100, L4, ..."},
    OptionSpec{"--arch", "sm_XX", "architecture NVRTC compiles for (default: the GPU's)"},
    OptionSpec{"--folds", "N", "folds for the out-of-fold temperature when pairs name no families (default 5)"},
    OptionSpec{"--no-nvrtc", "", "train on source and launch features only"},
    config_option};
inline constexpr std::array calibration_options{
    OptionSpec{"--target-risk", "RATE", "error rate to hold among trusted forecasts (default 0.02)"},
    OptionSpec{"--ledger", "FILE", "read this ledger instead of policy.ledger"},
    OptionSpec{"--format", "text|json", "output format (default text)"},
    OptionSpec{"--plots", "DIR", "also draw reliability.svg and risk_coverage.svg into DIR, as eval draws them"},
    config_option, repo_option};
inline constexpr std::array doctor_options{config_option, repo_option};
inline constexpr std::array config_options{
    config_option, repo_option,
    OptionSpec{"--reference", "", "print the reference of every key in Markdown (docs/config.md)"}};
inline constexpr std::array<OptionSpec, 0> no_options{};

}  // namespace kforecast::cli::options
