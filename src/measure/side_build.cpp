// SPDX-License-Identifier: Apache-2.0
#include "measure/side_build.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/text_file.hpp"
#include "cuda/library_search.hpp"

namespace kforecast::measure {
namespace fs = std::filesystem;

std::optional<KeptBuild> read_kept_build(const fs::path& folder, const std::string& key) {
  if (folder.empty()) return std::nullopt;
  auto description = read_text_file(folder / (key + ".build"), "a kept build", 1 << 20);
  if (!description) return std::nullopt;
  std::ifstream in(folder / (key + ".cubin"), std::ios::binary);
  if (!in) return std::nullopt;
  KeptBuild kept;
  std::transform(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), std::back_inserter(kept.cubin),
                 [](char c) { return static_cast<std::byte>(c); });
  std::size_t start = 0;
  for (std::size_t end = description->find('\n'); end != std::string::npos; end = description->find('\n', start)) {
    (kept.lowered_name.empty() ? kept.lowered_name : kept.notes.emplace_back()) = description->substr(start, end - start);
    start = end + 1;
  }
  if (kept.cubin.empty() || kept.lowered_name.empty()) return std::nullopt;
  return kept;
}

void keep_build(const fs::path& folder, const std::string& key, const KeptBuild& build) {
  if (folder.empty()) return;
  std::error_code ec;
  fs::create_directories(folder, ec);
  const auto write = [&](const std::string& name, std::string_view bytes) {
    // A name of this process's own: two processes keeping the same support kernels at once must
    // not write into one temporary file.
    const fs::path temporary = folder / fmt::format("{}.{}.partial", name, ::getpid());
    std::ofstream(temporary, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    fs::rename(temporary, folder / name, ec);
  };
  std::string description = build.lowered_name + "\n";
  for (const auto& note : build.notes) description += note + "\n";
  // The cubin first: a .build file names a cubin that is already whole.
  write(key + ".cubin", {reinterpret_cast<const char*>(build.cubin.data()), build.cubin.size()});
  write(key + ".build", description);
}

std::string side_build_key(const BenchPair& pair, std::string_view role) {
  ContentHasher hasher;
  for (std::string_view field : {std::string_view(role), std::string_view(pair.candidate), std::string_view(pair.versus),
                                 std::string_view(pair.against), std::string_view(pair.project_build),
                                 std::string_view(pair.capture)})
    hasher.add(field);
  return std::string(role) + "-" + hasher.hex();
}

SideBuild build_side(const SideBuildRequest& request) {
  const bool is_reference = request.reference;
  const cuda::Compiler* nvrtc = request.nvrtc;
  const cuda::UnitCompiler* nvcc = request.nvcc;
  const PreparedPair* kept = request.prepared;
  const std::optional<ProjectBuild>& project_build = request.project_build;
  const std::string& arch = request.arch;
  const fs::path& folder = request.builds_folder;
  const BenchPair& key_pair = request.pair;
  const std::string role = is_reference ? "reference" : "candidate";
  const bench::PreparedKernel& kernel = is_reference ? kept->reference : kept->candidate;
  const bench::LaunchSpec& spec = is_reference ? kept->reference_spec : kept->candidate_spec;
  const std::string key = side_build_key(key_pair, role);
  const std::string label = fmt::format("{} {}", role, kernel.label);
  SideBuild side{bench::CompiledKernel{}, {}};
  if (auto found = read_kept_build(folder, key)) {
    side.kernel = bench::CompiledKernel{label, std::move(found->cubin), found->lowered_name, kernel.function.parameters};
    side.notes = std::move(found->notes);
    return side;
  }
  const auto done = [&](bench::CompiledKernel compiled) {
    keep_build(folder, key, {compiled.cubin, compiled.lowered_name, side.notes});
    side.kernel = std::move(compiled);
    return std::move(side);
  };
  if (nvcc != nullptr) {
    const std::string& tree = is_reference ? project_build->reference_tree : project_build->candidate_tree;
    std::vector<std::string> arguments =
        is_reference ? project_build->reference_arguments : project_build->candidate_arguments;
    // The launch spec's own folders and defines, as NVRTC gets them below.
    for (const auto& directory : spec.include_dirs) arguments.push_back("-I" + directory);
    for (const auto& [name, value] : spec.defines)
      arguments.push_back(value.empty() ? "-D" + name : "-D" + name + "=" + value);
    std::error_code path_error;
    const std::string file = fs::relative(fs::absolute(kernel.request.file_name, path_error),
                                          fs::absolute(tree, path_error), path_error)
                                 .generic_string();
    auto built = build_shipped_kernel(*nvcc, tree, file, kernel, arguments, arch);
    if (built) {
      side.notes.push_back(fmt::format("the {} was built by {}", role, built->build));
      built->kernel.label = label;
      return done(std::move(built->kernel));
    }
    std::string reason = built.error().message;
    if (const auto end = reason.find('\n'); end != std::string::npos) reason.resize(end);
    side.notes.push_back(fmt::format("the {} was built by NVRTC: {} could not build it as the project does: {}", role,
                                     nvcc->name(), reason));
  }
  cuda::CompileRequest compile = kernel.request;
  compile.arch = arch;
  for (const auto& directory : spec.include_dirs) compile.include_dirs.push_back(directory);
  for (auto& directory : cuda::toolkit_header_dirs(kept->include_dir)) compile.include_dirs.push_back(std::move(directory));
  compile.defines = spec.defines;
  auto output = nvrtc->compile(compile);
  if (!output) {
    side.kernel = fail(ExitCode::gate_failed, fmt::format("the {} {} does not compile for {}: {}", role, kernel.label,
                                                          arch, output.error().message));
    return side;
  }
  if (output->cubin.empty() || output->lowered_names.empty()) {
    side.kernel = fail(ExitCode::could_not_run, fmt::format("NVRTC gave no machine code for the {} {}", role, kernel.label));
    return side;
  }
  // Every measurement says which build it timed; the project's, where nvcc built it, said so
  // above. Without a project build (bench --vs with files as given, a plan without one) nvcc is
  // not even looked for: that would cost each measuring process a toolkit search.
  if (!project_build)
    side.notes.push_back(fmt::format("the {} was built by NVRTC {} for {}, device code only, kforecast's own "
                                     "context (no project build was given)",
                                     role, nvrtc->version().text(), arch));
  return done(bench::CompiledKernel{label, std::move(output->cubin), output->lowered_names.front().lowered,
                                    kernel.function.parameters});
}

}  // namespace kforecast::measure
