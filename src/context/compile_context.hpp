// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compile context of one CUDA translation unit: the include folders, defines, language
// standard and code-generation flags the project builds it with, and where they came from, so
// that kforecast compiles a changed kernel as the project's own build would. The sources, in
// order: a compile database (compile_database.hpp), the config's compile.* keys
// (configured_context.hpp), and inference from the tree (inferred_context.hpp); context_for
// (context_for.hpp) picks among them.

#include <string>
#include <utility>
#include <vector>

namespace kforecast::context {

enum class ContextOrigin { compile_database, config, inferred };

struct CompileContext {
  // Repository-relative folders ("include", "." for the root), or existing absolute system
  // folders under /usr or /opt; nothing else outside the repository gets this far.
  std::vector<std::string> include_dirs;
  std::vector<std::pair<std::string, std::string>> defines;  // {"NAME", "VALUE"}; empty value: -DNAME
  std::vector<std::string> undefines;                        // -UNAME, after the defines
  std::string standard;                                      // "c++17", or "" for the compiler's default
  // nvcc code-generation flags that passed the allow-list (flag_filter.hpp), one argument each
  // in "-name=value" spelling.
  std::vector<std::string> flags;
  // Each flag the project gave that kforecast has no need of, with the reason: routine, not
  // worth a warning ("-arch=sm_86 (kforecast picks the architecture)", "-c (kforecast picks the
  // output)").
  std::vector<std::string> dropped;
  // Each flag or folder left out because it is unsafe, unknown or malformed, with the reason:
  // worth a warning, as the unit may not compile as the project's build does ("-ccbin g++ (runs
  // a program)", "-I/etc (outside the repository, ...)", "-fplugin=x (not on kforecast's
  // allow-list)").
  std::vector<std::string> refused;
  ContextOrigin origin = ContextOrigin::inferred;
  // Where it came from, for the report: "build/compile_commands.json (entry for src/runner.cu)",
  // ".kforecast.toml compile.*", "inferred from the tree".
  std::string origin_detail;
  // Why the unit cannot be compiled as the project builds it on this machine ("PyTorch's headers
  // were not found: ..."), or "": a compile would only fail on a missing header, so none is tried.
  std::string unavailable;
  // The translation unit whose context this is: the file asked about, or the unit that includes
  // it when the file (a header) has no context of its own.
  std::string unit;
};

std::string_view origin_name(ContextOrigin origin);

// The context as nvcc arguments: -I, -D, -U, -std=, then the flags. Repository-relative folders
// stay relative, so nvcc runs in the root of the checkout being compiled (base or head).
std::vector<std::string> nvcc_arguments(const CompileContext& context);

// The subset NVRTC accepts (cuda::allowed_compile_option decides, so every option given passes
// the NVRTC side's confinement): -D, -U, -std= and the flags NVRTC takes (-use_fast_math,
// --fmad=false, -lineinfo, ...); never --extended-lambda, --expt-relaxed-constexpr or -O3, which
// NVRTC rejects. Include folders are not options here: they travel in
// CompileRequest::include_dirs, where confine_includes checks them.
std::vector<std::string> nvrtc_options(const CompileContext& context);

}  // namespace kforecast::context
