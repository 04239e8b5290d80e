// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compiler child: kforecast re-executed as `kforecast __compile-child ...` to compile one
// request that may hold hostile code. It confines itself first (base/process_confinement.hpp: only
// NVRTC, the system's libraries and the toolkit's headers readable, its scratch folder writable,
// memory and CPU time limited), then reads the request from standard input, compiles it with
// NVRTC and writes the answer (compile_wire.hpp) to standard output. A crash or a runaway
// compile ends this process, never kforecast's run. isolated_compiler.hpp is the parent's side.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::cuda {

inline constexpr std::string_view compile_child_command = "__compile-child";

struct CompileChildSettings {
  std::string nvrtc_library;                    // the exact file the parent loaded
  std::vector<std::filesystem::path> readable;  // besides NVRTC's folder and the system's libraries
  std::uint64_t max_memory_bytes = 0;
  std::uint64_t max_cpu_seconds = 0;
};

// The child's command-line arguments (after the command name), and back.
std::vector<std::string> compile_child_arguments(const CompileChildSettings& settings);
Result<CompileChildSettings> parse_compile_child_arguments(std::span<const std::string> arguments);

// The child's whole life; returns its exit status (0 whenever an answer was written).
int run_compile_child(std::span<const std::string> arguments, std::istream& in, std::ostream& out, std::ostream& err);

// The compile log with the source lines it quotes kept only for the files of the request
// (`project_files`: the source and its in-memory headers): a diagnostic in any other file keeps
// its one-line message, never that file's text.
std::string quote_only_project_files(std::string_view log, std::span<const std::string> project_files);

}  // namespace kforecast::cuda
