// SPDX-License-Identifier: Apache-2.0
// The configuration keys. Keep rows grouped by section, sections in pipeline order.

#include <algorithm>
#include <array>

#include "config/key_spec.hpp"

namespace kforecast::config {
namespace {

constexpr std::array<std::string_view, 2> forecasters{"embedded", "llm"};
constexpr std::array<std::string_view, 2> fallbacks{"none", "embedded"};
constexpr std::array<std::string_view, 3> auth_styles{"bearer", "api-key", "none"};
constexpr std::array<std::string_view, 2> unverified_actions{"warn", "fail"};
constexpr std::array<std::string_view, 2> submodule_sources{"checkout", "fetch"};
constexpr std::array<std::string_view, 4> report_formats{"md", "json", "sarif", "text"};

using enum ValueType;

const std::array keys{
    KeySpec{"kernels.max_file_kib", integer, "4096", "",
            "Source files larger than this (KiB, at either revision) are skipped by `kforecast pr`, with a note "
            "naming each: their kernels are not reviewed. It bounds the time and memory one generated file can "
            "take.",
            1, 1048576},

    KeySpec{"forecast.forecaster",
            choice,
            "\"embedded\"",
            "KFORECAST_FORECASTER",
            "Which forecaster predicts each changed kernel's speedup: the offline embedded model or an LLM endpoint.",
            {},
            {},
            forecasters},
    KeySpec{"forecast.fallback",
            choice,
            "\"none\"",
            "KFORECAST_FALLBACK",
            "When the LLM endpoint fails for a kernel after its retries: \"none\" leaves the forecast null and the "
            "kernel unsure (measured, or warned/failed per policy.on_unverified); \"embedded\" forecasts it with the "
            "embedded forecaster instead, labelled in the report as a fallback with the endpoint's error.",
            {},
            {},
            fallbacks},
    KeySpec{
        "forecast.hardware",
        string,
        "\"H100\"",
        "",
        "The GPU the forecast is for, as named in the labelled data (H100, A100, L4, ...); the LLM prompt "
        "describes it from kforecast's built-in table of datasheet figures (a name it does not know is an error that "
        "lists the table), or \"local\" for the first GPU the CUDA driver reports on this machine.",
        {},
        {},
        {}},
    KeySpec{"forecast.strip_comments", boolean, "true", "",
            "Remove comments from kernel source before it is sent to an LLM (they carry no performance facts and are "
            "where text addressed to a model hides)."},
    KeySpec{"forecast.prompts", string, "\"\"", "",
            "Directory (relative to the repository root, read at the base revision in PR mode) whose system.txt, "
            "user.txt, repair.txt or answer_schema.json replace the built-in LLM prompts; \"\" for the built-in ones."},

    KeySpec{"endpoint.url",
            string,
            "\"\"",
            "KFORECAST_ENDPOINT",
            "Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1.",
            {},
            {},
            {}},
    KeySpec{"endpoint.model", string, "\"\"", "KFORECAST_MODEL", "Model name sent with each request.", {}, {}, {}},
    KeySpec{"endpoint.api_key_env",
            string,
            "\"KFORECAST_API_KEY\"",
            "",
            "Name of the environment variable holding the API key (the key itself never goes in this file).",
            {},
            {},
            {}},
    KeySpec{"endpoint.auth",
            choice,
            "\"bearer\"",
            "",
            "How the key is sent: 'Authorization: Bearer', Azure's 'api-key' header, or none.",
            {},
            {},
            auth_styles},
    KeySpec{"endpoint.api_version", string, "\"\"", "",
            "Azure OpenAI's dated API version (e.g. 2024-10-21). When set, requests go to "
            "{url}/deployments/{model}/chat/completions?api-version=..., with url ending in /openai and model naming "
            "the deployment."},
    KeySpec{"endpoint.timeout_seconds", number, "120", "", "Limit for one request.", 1, 3600},
    KeySpec{"endpoint.stall_seconds", number, "30", "",
            "A response that sends no bytes for this long fails (and is retried), rather than hanging the CI job.", 1,
            3600},
    KeySpec{"endpoint.deadline_seconds", number, "900", "",
            "One deadline for all LLM forecasts of a run; kernels not forecast by then are reported as unsure.", 1,
            86400},
    KeySpec{"endpoint.max_retries", integer, "4", "", "Retries of a failed request (connection errors, 408, 429, 5xx).",
            0, 20},
    KeySpec{"endpoint.temperature", number, "0.0", "", "Sampling temperature, sent explicitly.", 0, 2},
    KeySpec{"endpoint.max_tokens", integer, "4096", "",
            "Output budget per answer (reasoning tokens count against it); doubled once for an answer cut off.", 64,
            262144},
    KeySpec{
        "endpoint.samples", integer, "1", "",
        "Self-consistency: answers requested per kernel and averaged into one distribution (use with temperature > 0).",
        1, 16},
    KeySpec{"endpoint.concurrency", integer, "4", "", "Kernels forecast at once.", 1, 64},
    KeySpec{"endpoint.ca_bundle", string, "\"\"", "",
            "PEM file of CAs to trust for an https endpoint, instead of the system's (TLS is always verified)."},
    KeySpec{"endpoint.cache", boolean, "true", "",
            "Keep LLM forecasts in $XDG_CACHE_HOME/kforecast/llm, so a re-run of the same change sends no request."},

    KeySpec{"policy.max_p_regression",
            number,
            "0.2",
            "",
            "A forecast is trusted only when its probability of a regression is below this.",
            0,
            1,
            {},
            {}},
    KeySpec{"policy.min_confidence",
            number,
            "0.5",
            "",
            "A forecast is trusted only when its confidence (probability of its predicted bin) is at least this.",
            0,
            1,
            {},
            {}},
    KeySpec{"policy.on_unverified",
            choice,
            "\"warn\"",
            "",
            "What a kernel that could not be judged (it needed a GPU measurement and got none: no GPU, no launch "
            "spec, --no-bench, the budget spent, a forecaster that failed) does to the gate: \"warn\" passes it, and "
            "the report's first line says \"pass, but N kernels could not be judged\"; \"fail\" fails it.",
            {},
            {},
            unverified_actions,
            {}},
    KeySpec{"policy.gpu_budget_seconds",
            number,
            "0",
            "",
            "GPU seconds `pr` may spend measuring per run, riskiest kernels first; kernels left over are unverified "
            "(0: no limit).",
            0,
            86400,
            {},
            {}},
    KeySpec{"policy.fail_on_inconclusive", boolean, "false", "",
            "Whether a measurement that decides nothing (the GPU time cap reached, a fresh process that failed) "
            "fails the gate; otherwise it warns. A borderline slowdown is policy.on_borderline's."},
    KeySpec{"policy.on_borderline",
            choice,
            "\"warn\"",
            "",
            "A regression the first process measured that fresh processes did not confirm, after a third one with "
            "four times the rounds where the second straddled bench.tolerance (the slowdown sits at the tolerance): "
            "\"warn\" passes the gate with a warning; \"fail\" fails it.",
            {},
            {},
            unverified_actions},
    KeySpec{"policy.ledger",
            string,
            "\".kforecast/ledger.jsonl\"",
            "",
            "Where measured kernels are recorded, for `kforecast calibration`.",
            {},
            {},
            {},
            {}},

    KeySpec{"bench.tolerance",
            number,
            "0.02",
            "",
            "Relative slowdown the gate tolerates: a regression must lie beyond it.",
            0,
            1,
            {}},
    KeySpec{"bench.confidence", number, "0.99", "", "Confidence level of the speedup interval.", 0.5, 0.9999, {}},
    KeySpec{"bench.max_gpu_seconds", number, "30", "", "GPU time cap per kernel pair.", 0.1, 3600},
    KeySpec{"bench.timeout_seconds",
            number,
            "300",
            "",
            "Wall-clock limit of one measurement's child process.",
            1,
            86400,
            {}},
    KeySpec{"capture.dir", string, "\".kforecast/captures\"", "",
            "Where recorded kernel launches (`kforecast capture`) are kept, relative to the repository root: a kernel "
            "that needs measuring and has no launch spec is measured by replaying its captures from here "
            "(docs/design/capture.md)."},
    KeySpec{"capture.command", string, "\"\"", "",
            "A shell command that runs a program of the project (a test, a benchmark) to record its kernel launches, "
            "for `pr` on a machine with a GPU when a kernel it must measure has neither a launch spec nor a capture: "
            "run at the base revision, in a worktree of it in kforecast's cache, after capture.build, confined as the "
            "[[harness]] commands are (docs/security.md), with the capture library loaded through "
            "CUDA_INJECTION64_PATH and KFORECAST_CAPTURE_DIR naming the folder it writes to; its captures are kept "
            "in the cache by the base's tree hash and replayed for both sides. In `pr` it is the base revision's "
            "config's, never the head's. \"\": not run."},
    KeySpec{"capture.build", string, "\"\"", "",
            "A shell command that builds what capture.command runs, in the base revision's worktree, once per tree "
            "(\"\": nothing to build)."},
    KeySpec{"capture.timeout_seconds", number, "600", "",
            "Wall-clock limit of capture.build and of capture.command, each; past it the kernels that needed the "
            "capture are unverified with the reason, the run goes on.",
            1, 86400},

    KeySpec{"report.format",
            choice,
            "\"md\"",
            "",
            "Report format of `pr` and `report --merge` when --format is not given: md (a PR comment), json, sarif, or "
            "text (for a person). Left at its default, a report printed to a terminal is text.",
            {},
            {},
            report_formats},

    KeySpec{"lint.rules_path", string, "\"\"", "",
            "A rule file or a directory of *.toml rule files, relative to the repository root, read over the built-in "
            "rules: new ids add rules, known ids override the fields they give, enabled = false removes one."},
    KeySpec{"lint.disable", string_list, "[]", "", "Rule ids that `kforecast lint` does not run."},
    KeySpec{"lint.ignore_paths", string_list, "[]", "",
            "Paths the lint leaves alone: \"GLOB\" for every rule or \"GLOB:rule-id,rule-id\"; '*' also matches '/'."},
    KeySpec{"lint.compiler_facts", boolean, "true", "",
            "Compile changed files with NVRTC (where installed) for the register, spill and stack rules."},
    KeySpec{"lint.forecast_fail_confidence",
            number,
            "0.8",
            "",
            "`kforecast lint` exits 1 when a changed kernel's offline forecast gives a regression (a slowdown beyond "
            "bench.tolerance) a probability above this; 1 never fails on the forecast.",
            0,
            1,
            {},
            {}},

    KeySpec{"compile.database", string, "\"\"", "",
            "Path of a compile_commands.json (relative to the repository root) that gives each CUDA file's include "
            "folders, defines and flags; \"\" searches the root and build*/ folders two levels deep "
            "(docs/compile-context.md says how a workflow writes one without a GPU)."},
    KeySpec{"compile.include_dirs", string_list, "[]", "",
            "Include folders (relative to the repository root) for files the compile database does not list."},
    KeySpec{"compile.defines", string_list, "[]", "",
            "Macros defined for files the compile database does not list: \"NAME\" or \"NAME=VALUE\"."},
    KeySpec{"compile.flags", string_list, "[]", "",
            "nvcc flags for files the compile database does not list (language and code generation only: "
            "-std=c++17, --use_fast_math, --extended-lambda, ...; others are left out with a note)."},
    KeySpec{"compile.python", string, "\"python3\"", "KFORECAST_PYTHON",
            "The Python whose installed torch gives a PyTorch extension's units torch's headers (found without "
            "importing torch, so a wheel installed with pip install --no-deps torch serves), and Python.h; \"off\": "
            "ask no Python."},
    KeySpec{"compile.torch_include", string, "\"\"", "KFORECAST_TORCH_INCLUDE",
            "A torch/include folder to compile a PyTorch extension's units with, instead of the one compile.python's "
            "torch has."},
    KeySpec{"compile.submodules",
            choice,
            "\"checkout\"",
            "KFORECAST_SUBMODULES",
            "Where a unit's headers from submodules (CUTLASS, glm, ...) come from: \"checkout\", the clones the "
            "checkout has (actions/checkout with submodules: recursive); \"fetch\", also the commit each revision "
            "pins where the checkout lacks it, fetched into kforecast's cache, one commit deep, over https only and "
            "only from the URLs of the base revision's .gitmodules (never from a URL the pull request chose).",
            {},
            {},
            submodule_sources},
    KeySpec{"compile.budget_seconds", number, "600", "",
            "Wall-clock budget for all compiles of one run; the kernels left when it is spent are forecast from "
            "source, with a note, and the next run goes on from the unit cache. A unit that includes PyTorch's "
            "headers costs 30 to 170 s of CPU.",
            1, 86400},
    KeySpec{"compile.jobs", integer, "0", "", "Compiles run at once (0: one per processor core).", 0, 256},
    KeySpec{"compile.max_units", integer, "32", "",
            "Most translation units built per revision for one run, nearest to the changed kernels first (a shared "
            "header can reach a hundred); kernels only the others build are forecast from source, with a note.",
            1, 100000},

    KeySpec{"run.budget_seconds", number, "900", "KFORECAST_RUN_BUDGET_SECONDS",
            "Wall-clock budget of one run, across compiles, the forecasters' compiler facts and measurements (0: "
            "none). Past it the kernels left are unverified with the reason and the report is written on time; a "
            "re-run goes on from the unit cache.",
            0, 86400},

    KeySpec{"cuda.nvrtc_library", string, "\"\"", "KFORECAST_NVRTC_LIBRARY",
            "Path of libnvrtc to load instead of searching CUDA_HOME, CUDA_PATH, /usr/local/cuda/lib64 and the loader "
            "path."},
    KeySpec{"cuda.nvcc", string, "\"\"", "KFORECAST_NVCC",
            "Path of nvcc (or of the toolkit folder holding bin/nvcc) to build whole translation units with, as the "
            "project does; \"\" searches CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda and the toolkit scripts/setup.sh "
            "installs; \"off\" compares machine code with NVRTC alone (device code, kforecast's own context)."},
    KeySpec{"cuda.arch", string, "\"auto\"", "KFORECAST_ARCH",
            "GPU architecture kernels are compiled for when comparing machine code: sm_80, sm_90, ..., or auto "
            "(the local GPU's, else sm_90)."},
    KeySpec{"cuda.driver_library", string, "\"\"", "KFORECAST_CUDA_DRIVER_LIBRARY",
            "Path of the CUDA driver library (libcuda.so.1) to load instead of the loader's default."},
    KeySpec{"cuda.compile_timeout_seconds", number, "600", "",
            "Wall-clock limit of one compile. Every compile of code under review runs in a child process; one that "
            "runs past this fails that kernel, not the run.",
            1, 86400},
    KeySpec{"cuda.compile_memory_mib", integer, "16384", "",
            "Address-space limit of one compile's child process, in MiB (NVRTC reserves more than it uses); a compile "
            "that needs more fails that kernel, not the run.",
            256, 1048576},

    KeySpec{"security.secret_env", string_list, "[]", "",
            "Names of further environment variables whose values are secrets: removed from everything kforecast "
            "writes, as the GitHub and GitLab tokens, the endpoint's API key and variables named like *TOKEN*, "
            "*SECRET*, *PASSWORD* or *API_KEY* already are."},
    KeySpec{"security.max_plan_mib", integer, "32", "KFORECAST_MAX_PLAN_MIB",
            "Largest plan file, in MiB, that `bench --plan` and `report --merge` read (a plan comes from a job a pull "
            "request may control): a larger one is refused, naming the limit. Set it in the reading job's own "
            "config or environment; a plan cannot raise it.",
            1, 4096},
};

const std::array table_arrays{
    TableArraySpec{"compile.paths",
                   "Compile context for the files one glob matches (fnmatch, '*' also matches '/'), over the "
                   "compile.* keys: `glob = \"src/legacy/*\"` and any of `include_dirs`, `defines`, `flags`, with "
                   "the meaning of the compile.* keys of the same name. The first table whose glob matches a file "
                   "applies: its include folders and flags come after the compile.* ones, and a define of the same "
                   "name replaces the compile.* one. Like compile.*, used for files the compile database does not "
                   "list (docs/compile-context.md).",
                   {}},
    TableArraySpec{"kernel",
                   "Launch specs: how to run a kernel for benchmarking (`kforecast help bench` shows the format; "
                   "`kforecast config` checks every spec); read by "
                   "`kforecast bench`. `kforecast spec suggest FILE:KERNEL --format toml` drafts one from the kernel's "
                   "signature and launch sites.",
                   {}},
    TableArraySpec{"harness",
                   "The project's own benchmark harness (docs/harness.md): `name`; `build`, a shell command that "
                   "builds the benchmarks in a worktree of each revision; `run`, a shell command holding {filter} "
                   "(and {out}, a file it writes; else its standard output is read); `format` = \"gbench\", "
                   "\"nvbench\", \"pytest-benchmark\" or \"simple\"; `rounds` (most A B B A rounds of processes "
                   "per kernel, 2-64, default 8); `timeout_seconds` (one build or run, default 600); and "
                   "[[harness.map]] tables, `kernels` = globs over kernel files or names and `benchmarks` = the "
                   "filter for them, or, with no map, `list` (a command printing the benchmarks' names: each is run once "
                   "under the capture library to learn which kernels it launches). A changed kernel to be measured "
                   "that has no launch spec and that a map names "
                   "is measured by running its benchmarks at both revisions, without a GPU of kforecast's. In "
                   "`pr` the tables are the base revision's, never the head's.",
                   {}},
};

const std::array<std::string_view, 12> sections{"kernels", "forecast", "endpoint", "policy", "bench", "capture",
                                                "report",  "lint",     "compile",  "run",    "cuda",  "security"};

}  // namespace

std::span<const KeySpec> all_keys() { return keys; }
std::span<const TableArraySpec> all_table_arrays() { return table_arrays; }
std::span<const std::string_view> all_sections() { return sections; }

const KeySpec* find_key(std::string_view name) {
  auto it = std::ranges::find(keys, name, &KeySpec::name);
  return it == keys.end() ? nullptr : &*it;
}

const TableArraySpec* find_table_array(std::string_view name) {
  auto it = std::ranges::find(table_arrays, name, &TableArraySpec::name);
  return it == table_arrays.end() ? nullptr : &*it;
}

std::string_view type_name(ValueType type) {
  switch (type) {
    case boolean:
      return "boolean";
    case integer:
      return "integer";
    case number:
      return "number";
    case string:
      return "string";
    case string_list:
      return "list of strings";
    case choice:
      return "string";
  }
  return "value";
}

}  // namespace kforecast::config
