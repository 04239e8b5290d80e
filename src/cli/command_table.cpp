// SPDX-License-Identifier: Apache-2.0
// The subcommands, in the order `kforecast --help` lists them. To add one: a row here and a
// handler in its own file.

#include <algorithm>
#include <array>

#include "cli/command_options.hpp"
#include "cli/handlers.hpp"

namespace kforecast::cli {
namespace {

using namespace options;  // NOLINT(google-build-using-namespace): the table reads as a table

const std::array commands{
    Command{
        "pr", "gate a revision range: find changed kernels, forecast them, measure where unsure",
        "kforecast pr [--base REV] [--head REV] [--repo DIR] [--format text|md|json|sarif] [--output FILE] "
        "[--forecaster embedded|llm] [--no-bench] [--post | --plan FILE]",
        "The CI gate. Finds the CUDA kernels that changed between two revisions, forecasts each one's speedup,\n"
        "benchmarks on the GPU only where the forecast predicts a regression or is unsure, and reports.\n"
        "A kernel changes when its body does, or the device functions it reaches, the macros, constants, types or\n"
        "headers it uses. The identical-machine-code tier (nvcc or NVRTC, cuda.arch): a kernel whose code did not\n"
        "change passes for free. Every other changed kernel is forecast: by the offline embedded model (the default),\n"
        "or with --forecaster llm (KFORECAST_FORECASTER=llm) by an OpenAI-compatible endpoint (KFORECAST_ENDPOINT,\n"
        "KFORECAST_MODEL, the key in $KFORECAST_API_KEY) whose prompt carries each kernel's launch spec; a failed\n"
        "LLM forecast is unsure, never a pass (forecast.fallback = \"embedded\": the embedded model's, labelled).\n"
        "A forecast with P(regression) below policy.max_p_regression and confidence at least policy.min_confidence\n"
        "passes (trusted_forecast); any other kernel is measured on the local GPU as 'kforecast bench' measures it (one\n"
        "child process for all of them, each pair under bench.timeout_seconds), riskiest first, within\n"
        "policy.gpu_budget_seconds (0: no limit). A measured regression beyond bench.tolerance, or a failed\n"
        "candidate (wrong results, a fault, a hang, a write outside its buffers, no compile) fails; inconclusive\n"
        "warns (fails with policy.fail_on_inconclusive = true; a borderline one with policy.on_borderline =\n"
        "\"fail\"); faster and same pass. A broken base (it faults, writes outside its buffers or does not\n"
        "compile) is not the change's failure: the kernel is unverified, with the reason.\n"
        "Each measurement appends a line to the ledger (policy.ledger) that\n"
        "'kforecast calibration' reads. A kernel needs a launch spec or a captured launch in capture.dir to be\n"
        "measured (see 'kforecast help bench'; committed captures are read at the base revision, and the head's\n"
        "only for a kernel the base has none of), or capture.command, which pr runs on a GPU at the base revision\n"
        "to record the launches itself (docs/design/capture.md), or a [[harness]] table whose [[harness.map]]\n"
        "names it: then the project's own benchmarks (Google Benchmark, nvbench, pytest-benchmark) are built and\n"
        "run at both revisions, no GPU of kforecast's needed (docs/harness.md).\n"
        "Without a GPU (or with --no-bench, or past the budget, or without any of these) a kernel is unverified, and\n"
        "policy.on_unverified (warn or fail) decides; the report's first line then says 'pass, but N kernels could\n"
        "not be judged', and so does standard error. A forecaster that failed is a warning there too. An LLM\n"
        "forecast alone passes no kernel of an untrusted author (a fork, or an author_association other than\n"
        "OWNER, MEMBER, COLLABORATOR; CI without author information counts as untrusted, a local run as\n"
        "trusted). New kernels have nothing to compare with. A progress line shows on a terminal while measuring.\n"
        "Exit 1 when a changed kernel no longer compiles, is measured slower or failed, or is unverified under\n"
        "on_unverified = \"fail\".\n"
        "In GitHub Actions without --base it reads $GITHUB_EVENT_PATH: a pull request is its head against the\n"
        "merge-base with the base branch (use fetch-depth: 0 on actions/checkout), a push is before..after.\n"
        "Across CI jobs (docs/ci/plan.md): 'kforecast pr --plan plan.json' on a CPU runner stops after the policy\n"
        "and writes the plan (the report so far, each kernel that needs a GPU with both texts, riskiest first, and a\n"
        "suggested shard count; exit 0 once written, the verdict comes from the merge); 'kforecast bench --plan\n"
        "plan.json --shard I/N --output results-I.json' measures a share on a GPU runner; 'kforecast report --merge\n"
        "plan.json results-*.json [--post]' writes the same report and exit code a single 'pr' run would.",
        pr_options, pr_command},
    Command{"lint", "pre-commit performance lint of staged changes or named files",
            "kforecast lint [--staged | FILE...] [--format text|json|sarif] [--no-forecast] [--install-hook [--force]]",
            "Runs the performance lint rules ('kforecast rules' lists them) over CUDA sources and prints\n"
            "compiler-style diagnostics. With --staged it lints what 'git commit' would record and reports only on\n"
            "the added lines (and on kernels whose lines were added, for rules about a whole kernel); with FILEs it\n"
            "lints them whole. Where NVRTC is installed, .cu files are compiled for cuda.arch so the register,\n"
            "spill and stack rules can fire (cached; lint.compiler_facts = false turns it off). No network.\n"
            "Silence a rule on one line with '// kforecast: ignore RULE', for paths with lint.ignore_paths; add or\n"
            "override rules with lint.rules_path. Kernels with a launch spec (a '// kforecast:' block or a\n"
            "[[kernel]] table, as for 'kforecast bench') also get the occupancy and __launch_bounds__ rules.\n"
            "Each changed kernel is forecast offline against HEAD by the embedded model (source features, no\n"
            "network): a note on the kernel's line gives the speedup bin, P(regression) and confidence, then the\n"
            "rationale; --no-forecast skips it.\n"
            "Exit 1 when a rule of severity error fires or a forecast gives a regression a probability above\n"
            "lint.forecast_fail_confidence (default 0.8), else 0.\n"
            "As a hook: 'kforecast lint --install-hook', or the 'kforecast-lint' hook of the pre-commit framework\n"
            "(.pre-commit-hooks.yaml).",
            lint_options, lint_command},
    Command{"rules", "list the lint rules, or explain one with an example", "kforecast rules [RULE]",
            "Lists every lint rule in force (built-in, and the repository's lint.rules_path) with its severity and\n"
            "summary. With a rule id, prints what it costs, how to fix it, the CUDA guide section, and an example\n"
            "that fires with its corrected form.",
            rules_options, rules_command},
    Command{
        "check", "spot-check one kernel against an earlier revision or another file",
        "kforecast check FILE[:KERNEL] [--against REV | --vs FILE[:KERNEL]] [--bench] [--format text|json] "
        "[--forecaster embedded|llm]",
        "Checks KERNEL of FILE as it is in the work tree (or every kernel of FILE, without :KERNEL) against the\n"
        "same file at REV (default HEAD), or against another file with --vs, through the stages of 'kforecast pr':\n"
        "both are built for cuda.arch as the project builds them (nvcc where found, else NVRTC) and identical\n"
        "machine code settles the kernel (speedup exactly 1); otherwise the forecaster (embedded by default, offline; or --forecaster llm) gives\n"
        "the speedup bin with its distribution over the eight bins, P(regression), confidence and a rationale,\n"
        "and the policy says whether the forecast can be trusted or the kernel needs a GPU measurement. With\n"
        "--bench the kernel is measured on the local GPU as 'kforecast bench' measures it (it needs a launch spec\n"
        "or a captured launch in capture.dir: see 'kforecast help bench'); a measurement is appended to the\n"
        "ledger. Examples:\n"
        "  kforecast check src/gemm.cu:sgemm                  # the edit you are making, against HEAD\n"
        "  kforecast check src/gemm.cu --against main         # every kernel of the file, against main\n"
        "  kforecast check new.cu:sgemm --vs old.cu:sgemm_v1 --bench\n"
        "Exit 1 for a measured regression, a failed candidate or a candidate that does not compile (or an\n"
        "unverified kernel under policy.on_unverified = \"fail\"); 2 for a missing file, kernel or revision; 3 for\n"
        "--bench without a GPU.",
        check_options, check_command},
    Command{
        "bench", "measure a kernel pair on the GPU", "kforecast bench FILE:KERNEL [--vs FILE:KERNEL] [--against REV]",
        "Measures the speedup of FILE's KERNEL (the candidate) over a reference on the local GPU. With --against,\n"
        "through the stages of 'kforecast pr', so it times the build pr times: both sides built for the GPU as the\n"
        "project builds them (the unit's compile context: compile database, build files or config; by nvcc where\n"
        "it is found, else NVRTC); a kernel whose machine code is identical at both sides is not measured\n"
        "('nothing to measure'). With --vs alone, the two files as given, built by NVRTC (an A/A study, an\n"
        "instantiation named by hand: FILE:KERNEL<64>). The output says which build each side is. Outputs are\n"
        "compared on poisoned buffers over two seeds (on the GPU), then timed in A B B A blocks\n"
        "(L2 flushed between samples, fewer samples a block for longer kernels) until the speedup's interval\n"
        "decides. The interval is looked at from the third round on and stays 99% valid over all its looks (each\n"
        "look spends a share of the 1%), so clear cases stop early. Verdicts: faster, same, regression (beyond\n"
        "bench.tolerance, default 2%; re-measured in a fresh process unless the whole interval lies more than\n"
        "2.5% past the tolerance; where the fresh process straddles the tolerance, a third measures with four\n"
        "times the rounds), inconclusive (no decision within bench.max_gpu_seconds or 64 rounds; its reason\n"
        "starts 'borderline:' when fresh processes did not confirm the regression: the gate warns, and fails\n"
        "under policy.on_borderline = \"fail\"; other inconclusive measurements fail only under\n"
        "policy.fail_on_inconclusive) or failed (a fault, a hang past bench.timeout_seconds, wrong results, no\n"
        "compile, or a store outside a buffer: each lies between guard zones checked after every correctness\n"
        "launch, 'wrote 4 bytes past 'y''). The reference runs and is checked first: one that faults, writes\n"
        "outside a buffer or does not compile is reported as 'the reference (base) is broken', exit 3, not as\n"
        "the candidate's failure.\n"
        "The launch spec comes from a '// kforecast:' comment block above the kernel or a [[kernel]] table in\n"
        ".kforecast.toml, e.g.\n"
        "  // kforecast:\n"
        "  // sizes = [{ n = 16777216 }]\n"
        "  // grid = [\"ceil_div(n, 256)\"]\n"
        "  // block = [256]\n"
        "  // [kernel.args]\n"
        "  // x = { count = \"n\", init = \"uniform(-1, 1)\" }\n"
        "  // y = { count = \"n\", role = \"out\" }\n"
        "  // n = \"n\"\n"
        "A kernel without a launch spec is measured by replaying its captured launches ('kforecast capture --\n"
        "COMMAND' records them from a program of the project) from capture.dir, or from --capture PATH: both\n"
        "kernels get the captured grid, block, arguments and buffer contents, restored before every sample.\n"
        "Exit 1 for a regression or a failed candidate, 0 otherwise; 3 without a GPU or with a broken reference.\n"
        "With --plan PLAN --shard I/N (a GPU job of a plan; see 'kforecast help pr'): measures shard I of N of the\n"
        "plan's kernels (its riskiest-first list, positions I, I+N, ...) as 'kforecast pr' would, appends ledger\n"
        "lines (policy.ledger, relative to the current directory), and writes the results JSON; without a GPU\n"
        "each kernel is recorded unmeasured with the reason. The plan decides only judgement (policy thresholds,\n"
        "bench.tolerance and confidence, launch specs) and may lower limits; every other setting (the CUDA\n"
        "libraries, nvcc, [[harness]], capture.*, the ledger, endpoint.*) is this job's own config's (--config,\n"
        "else the current directory's): a plan is data. Exit 0 once the results are written: 'kforecast report\n"
        "--merge' decides the verdict. Example (a GitHub Actions matrix job):\n"
        "  kforecast bench --plan plan.json --shard ${{ matrix.shard }} --output results.json",
        bench_options, bench_command},
    Command{
        "spec", "draft a kernel's launch spec from its signature and launch sites",
        "kforecast spec suggest FILE:KERNEL [--format comment|toml]",
        "Drafts the launch spec that 'kforecast bench' (and pr's and check's measurements) need for KERNEL of\n"
        "FILE: its pointer parameters become buffers (role from const-ness and the writes through them in the\n"
        "body; the count from the one size parameter), integer parameters named like a size (n, N, size, count,\n"
        "numel, M, K, ...) or bounding an index (if (i < n)) become size variables, and grid, block, shared\n"
        "memory and a template's arguments come from its first launch (k<<<grid, block, shared>>>) in FILE or\n"
        "a file beside it that includes it: dim3 variables are followed, constants replaced by their values,\n"
        "CEIL_DIV-like macros become ceil_div. What it cannot know is a \"FILL: ...\" value; every guess has a\n"
        "'# guessed ...' comment. The draft goes to standard output, the count of values to fill to standard\n"
        "error. Fill it in, paste it directly above the kernel, and 'kforecast bench FILE:KERNEL' runs it.\n"
        "Example, for __global__ void scale(const float* x, float* y, int n) { ... if (i < n) y[i] = 2 * x[i]; }\n"
        "launched as scale<<<CEIL_DIV(n, 256), 256>>>(x, y, n):\n"
        "  $ kforecast spec suggest src/scale.cu:scale\n"
        "  // kforecast:\n"
        "  // sizes = [{ n = 1048576 }]  # guessed: the problem sizes to measure\n"
        "  // grid = [\"ceil_div(n, 256)\"]  # guessed from src/scale.cu:12: CEIL_DIV ( n , 256 )\n"
        "  // block = [\"256\"]  # guessed from src/scale.cu:12: 256\n"
        "  // [kernel.args]\n"
        "  // x = { count = \"n\", init = \"uniform(-1, 1)\", role = \"in\" }  # guessed role: const; count: the size "
        "n\n"
        "  // y = { count = \"n\", role = \"out\" }  # guessed role: written in the body; count: the size n\n"
        "  // n = \"n\"\n"
        "Exit 2 for a missing file, no kernel of that name (the kernels there are listed) or several.",
        spec_options, spec_command},
    Command{"capture", "record a program's kernel launches (shapes, arguments, inputs) for replay",
            "kforecast capture [--dir DIR] [--launches-per-shape N] [--bytes B] [--kernels GLOB] -- COMMAND...",
            "Runs COMMAND (your test, benchmark or example program) with kforecast's injection library loaded by\n"
            "the CUDA driver (CUDA_INJECTION64_PATH; CUPTI's callbacks, as NVIDIA's own tools use) and records its\n"
            "kernel launches, so a changed kernel can be measured on the project's real shapes and data without a\n"
            "launch spec. For the first N launches of each distinct shape of each kernel (shape: grid, block,\n"
            "dynamic shared memory and the scalar arguments) it writes a capture file: the kernel's mangled and\n"
            "demangled name and module, the launch, every parameter (scalars by value, pointers as an allocation\n"
            "and an offset), and the contents of each allocation a pointer reaches, read just before the launch,\n"
            "within the --bytes budget. A pool allocation (PyTorch's caching allocator) is kept from the lowest\n"
            "pointer into it on; what does not fit is marked synthetic (a replay fills random data). A pointer\n"
            "inside a by-value struct or a CUtensorMap cannot be rewritten: such a launch is marked 'cannot replay:\n"
            "pointer inside argument N'. The format is in docs/design/capture.md.\n"
            "The program runs as it would without kforecast (its output is its own; the library only reads), with\n"
            "CUDA_MODULE_LOADING=EAGER unless you set it: a lazily loaded module is loaded inside its first launch,\n"
            "too late for that launch's parameter layout. It needs a GPU, the NVIDIA driver and CUPTI (part of the\n"
            "CUDA toolkit; found under CUDA_HOME, CUDA_PATH, /usr/local/cuda or the loader's path, or named by\n"
            "KFORECAST_CAPTURE_CUPTI). Afterwards it prints, on standard error, the kernels and shapes kept, the\n"
            "bytes of contents, the synthetic regions and the launches that cannot be replayed, with why.\n"
            "Examples:\n"
            "  kforecast capture -- ./build/kernel_test\n"
            "  kforecast capture --kernels '*gemm*' --launches-per-shape 3 -- ./build/bench --filter=gemm\n"
            "  kforecast capture --bytes 1G -- python -m pytest tests/test_ops.py\n"
            "Exit: the program's exit code; 2 for a bad option; 3 when the injection library or the program\n"
            "cannot be found.",
            capture_options, capture_command},
    Command{"report", "merge a plan and its GPU jobs' results into the final report and verdict",
            "kforecast report --merge PLAN RESULTS... [--format text|md|json|sarif] [--output FILE] [--post]",
            "Completes the report of 'kforecast pr --plan PLAN' with the results of 'kforecast bench --plan PLAN\n"
            "--shard I/N' (any number of files, any order) by the same step 'kforecast pr' measures with: each\n"
            "measurement's verdict, policy.gpu_budget_seconds riskiest first, policy.on_unverified for a kernel that\n"
            "was not measured, the GPU time in the footer. A kernel no results file covers is unverified (named);\n"
            "results of another plan are refused. Runs anywhere: no git, no GPU, no forecaster. The same report,\n"
            "byte for byte, and the same exit code as one 'kforecast pr' run. The plan decides judgement only;\n"
            "everything else is this job's config's (--config). Example:\n"
            "  kforecast pr --plan plan.json                                  # CPU runner\n"
            "  kforecast bench --plan plan.json --shard 1/2 --output r1.json   # GPU runner 1\n"
            "  kforecast bench --plan plan.json --shard 2/2 --output r2.json   # GPU runner 2\n"
            "  kforecast report --merge plan.json r1.json r2.json --post       # any runner\n"
            "Exit codes as 'kforecast pr': 1 when the gate fails.",
            report_options, report_command},
    Command{
        "eval", "score a forecaster on labelled kernel pairs",
        "kforecast eval DATASET.jsonl [--forecaster embedded|llm] [--cv family] [--format text|json] "
        "[--predictions FILE] [--plots DIR]",
        "Reads one labelled pair per line (JSONL: id, family, reference and candidate {source, kernel, launch},\n"
        "speedup = t_reference / t_candidate), forecasts every pair and scores the forecasts per family and overall,\n"
        "beside two baselines on the same pairs: the training prior (bin frequencies of the training pairs, add-one\n"
        "smoothed; with --cv family those of the other families) and always bin 5 (all mass on 1.0 < S <= 1.41).\n"
        "No pair is dropped: a kernel that cannot be found or compiled is forecast from what could be read, a failed\n"
        "LLM forecast is scored as the uniform distribution; a malformed line is an error naming FILE:LINE.\n"
        "The metrics (confidence = probability of the predicted bin):\n"
        "  accuracy           share whose predicted bin is the measured bin\n"
        "  within_one         share whose predicted bin is at most one bin away\n"
        "  ece                expected calibration error: |accuracy - confidence| over 10 confidence buckets\n"
        "  brier              half-Brier score, 0.5 * sum of squared probability errors, in [0, 1]\n"
        "  crps               ranked probability score over the ordered bins, in bins [0, 7]: far misses cost more\n"
        "  nll                negative log-likelihood of the measured bin (probability floored at 1e-6)\n"
        "  aurc               area under the risk-coverage curve: low when confidence ranks wrong bins last\n"
        "  topk_recovery      per reference with 2+ candidates: best speedup among the top-ranked candidate / best\n"
        "  gpu_fraction       pairs the configured policy measures (P(regression) >= policy.max_p_regression or\n"
        "                     confidence < policy.min_confidence)\n"
        "  regression_recall  pairs measured slower than 1 / (1 + bench.tolerance) that the policy sends to the GPU\n"
        "Lower is better for ece, brier, crps, nll, aurc, gpu_fraction. --plots writes a reliability diagram and a\n"
        "risk-coverage curve (SVG). Example:\n"
        "  kforecast eval fixtures/corpus/dataset.jsonl --cv family --plots eval-plots --predictions preds.jsonl",
        eval_options, eval_command},
    Command{"train", "fit the embedded forecaster to labelled kernel pairs",
            "kforecast train DATASET.jsonl [--output FILE] [--hardware GPU] [--arch sm_XX] [--folds N]",
            "Reads one labelled pair per line (the dataset format of 'kforecast eval'), extracts each kernel's\n"
            "features (source; NVRTC registers, spills, PTX instruction mix where NVRTC loads; launch and\n"
            "occupancy where a pair gives a launch), fits the ordinal model, fits its temperature on out-of-fold\n"
            "forecasts (one fold per family when the pairs name families), and writes the parameter file.\n"
            "Put it in src/embedded/default_model.txt to compile it into kforecast. Example:\n"
            "  kforecast train fixtures/corpus/pairs.jsonl --output src/embedded/default_model.txt",
            train_options, train_command},
    Command{"calibration", "forecast quality in this repository's ledger, and suggested thresholds",
            "kforecast calibration [--target-risk RATE] [--ledger FILE] [--format text|json] [--plots DIR]",
            "Reads the ledger (policy.ledger: one line per kernel kforecast measured, with its forecast) and prints\n"
            "how good the forecasts were, what the configured policy did with them (kernels trusted, regressions\n"
            "sent to the GPU, regressions trusted), and the thresholds that would have trusted the most kernels\n"
            "while holding --target-risk among them, with a 95% upper bound on that risk. Paste the suggested\n"
            "policy.max_p_regression and policy.min_confidence into .kforecast.toml once the bound holds.\n"
            "With --plots DIR, also draws the reliability diagram (confidence against the accuracy observed) and the\n"
            "risk-coverage curve (the share trusted against the error rate among it, the configured thresholds\n"
            "marked) of the measured kernels, as SVG files that a browser or a PR comment shows.",
            calibration_options, calibration_command},
    Command{"doctor", "show what is available: config, git, NVRTC, nvcc, GPU and driver, endpoint",
            "kforecast doctor [--config FILE] [--repo DIR]",
            "Checks everything kforecast can use on this machine and says what is missing and how to fix it.\n"
            "Exits 0 unless the configuration is invalid (2).",
            doctor_options, doctor_command},
    Command{"config", "print the effective configuration and where each value came from",
            "kforecast config [--config FILE] [--repo DIR] [--reference]",
            "Prints every key with its value and its origin: default, the file (with its line), or an environment\n"
            "variable. Then reads every launch spec as `bench` would (the config's [[kernel]] tables, and each\n"
            "'// kforecast:' block above a kernel in the repository's tracked sources) and binds it to its kernel's\n"
            "parameters: each problem is printed as FILE:LINE:COL with the key, and the exit code is 2, so a spec\n"
            "that would not read fails here, not in a CI benchmark job.\n"
            "With --reference, prints the Markdown reference of every key (docs/config.md).",
            config_options, config_command},
    Command{"help", "show help for a command", "kforecast help [COMMAND]",
            "Prints the list of commands, or one command's usage, options and description.", no_options, help_command},
};

}  // namespace

std::span<const Command> all_commands() { return commands; }

const Command* find_command(std::string_view name) {
  auto it = std::ranges::find(commands, name, &Command::name);
  return it == commands.end() ? nullptr : &*it;
}

}  // namespace kforecast::cli
