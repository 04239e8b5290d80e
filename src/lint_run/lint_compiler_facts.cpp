// SPDX-License-Identifier: Apache-2.0
#include "lint_run/lint_compiler_facts.hpp"

#include <algorithm>
#include <charconv>
#include <future>
#include <sstream>

#include <fmt/format.h>

#include "cuda/library_search.hpp"
#include "kernels/device_source.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::lint_run {
namespace {

// Cached facts: one line per kernel, "name registers spill stack shared local".
std::string serialise(const lint::FactsByKernel& facts) {
  std::string text;
  for (const auto& [name, kernel] : facts)
    if (kernel.compiler)
      text +=
          fmt::format("{} {} {} {} {} {}\n", name, kernel.compiler->registers, kernel.compiler->spill_bytes,
                      kernel.compiler->stack_frame_bytes, kernel.compiler->shared_bytes, kernel.compiler->local_bytes);
  return text;
}

lint::FactsByKernel deserialise(const std::string& text, const std::string& arch) {
  lint::FactsByKernel facts;
  std::istringstream lines(text);
  std::string name;
  lint::CompilerFacts compiler{arch};
  while (lines >> name >> compiler.registers >> compiler.spill_bytes >> compiler.stack_frame_bytes >>
         compiler.shared_bytes >> compiler.local_bytes)
    facts[name].compiler = compiler;
  return facts;
}

// The first line of a compile failure that names an error (NVRTC's message opens with a header
// line, "k.cu does not compile for sm_90:", then the log), else its first line.
std::string first_error(const std::string& text) {
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    const std::string_view line(text.data() + begin, end - begin);
    if (line.find("error") != std::string_view::npos) return std::string(line);
    begin = end + 1;
  }
  return text.substr(0, text.find('\n'));
}

struct Compiled {
  lint::FactsByKernel facts;
  std::string note;
};

// `text` with the bodies of the kernels no added line touches emptied (newlines kept, so lines
// do not move), and the names of the kernels kept; nullopt when no kernel is touched.
struct ChangedKernels {
  std::string text;
  std::vector<std::string> kept;
};

std::optional<ChangedKernels> changed_kernels_only(const std::string& text, const std::vector<std::uint32_t>& added) {
  ChangedKernels result{text, {}};
  for (const auto& function : kernels::scan_cuda_source(text).functions) {
    if (function.kind != kernels::FunctionKind::global || !function.has_body || function.from_macro) continue;
    auto it = std::ranges::lower_bound(added, function.whole.first_line);
    if (it != added.end() && *it <= function.whole.last_line) {
      result.kept.push_back(function.qualified_name);
      continue;
    }
    for (std::size_t at = function.body.begin + 1; at + 1 < function.body.end && at < result.text.size(); ++at)
      if (result.text[at] != '\n') result.text[at] = ' ';
  }
  if (result.kept.empty()) return std::nullopt;
  return result;
}

Compiled compile_one(const cuda::Compiler& compiler, const FactsRequest& file, const std::string& arch,
                     const std::optional<policy::PtxCache>& cache, const std::string& cuda_include_dir) {
  std::string source = file.text;
  std::optional<std::vector<std::string>> kept;  // nullopt: every kernel
  if (file.added != nullptr) {
    auto changed = changed_kernels_only(file.text, *file.added);
    if (!changed) return {};
    source = std::move(changed->text);
    kept = std::move(changed->kept);
  }
  const auto available = [&](std::string_view header) { return cuda::toolkit_has_header(cuda_include_dir, header); };
  const auto device_text = [&](const std::string& text) {
    return kernels::device_source(text, kernels::scan_cuda_source(text), available).text;
  };
  cuda::CompileRequest request{device_text(source), file.path, arch};
  request.include_dirs = file.include_dirs;
  for (auto& dir : cuda::toolkit_header_dirs(cuda_include_dir)) request.include_dirs.push_back(std::move(dir));
  request.options = {"-default-device"};
  request.options.insert(request.options.end(), file.options.begin(), file.options.end());
  for (const auto& header : file.headers) request.headers.push_back({header.include_name, device_text(header.text)});

  const std::string key = "lint-" + policy::PtxCache::key(request, compiler.version());
  if (cache)
    if (auto hit = cache->find(key)) return {deserialise(*hit, arch), {}};
  // The cache key is the full request's, whichever way it compiled.
  auto output = [&] {
    if (cuda::supports_minimal_header(compiler.version())) {  // -minimal first: see cuda/compiler.hpp
      auto minimal = request;
      minimal.options.push_back("-minimal");
      if (auto compiled = compiler.compile(minimal)) return compiled;
    }
    return compiler.compile(request);
  }();
  if (!output)
    return {{},
            fmt::format("compiler facts unavailable for {}: {} (register, spill and stack rules not run)", file.path,
                        first_error(output.error().message))};
  lint::FactsByKernel facts;
  for (const auto& function : output->functions) {
    if (function.kind != cuda::FunctionKind::kernel) continue;
    lint::CompilerFacts compiler_facts{arch,
                                       function.registers,
                                       function.spill_store_bytes + function.spill_load_bytes,
                                       function.stack_frame_bytes,
                                       function.shared_bytes,
                                       function.local_bytes};
    // Several instantiations of one template: the worst of them speaks for the kernel.
    auto& slot = facts[demangled_qualified_name(function.name)].compiler;
    if (!slot || slot->registers < compiler_facts.registers) slot = compiler_facts;
  }
  // Emptied kernels compiled too: their facts are not theirs.
  if (kept)
    std::erase_if(facts, [&](const auto& entry) { return std::ranges::find(*kept, entry.first) == kept->end(); });
  if (cache) cache->store(key, serialise(facts));
  return {std::move(facts), {}};
}

}  // namespace

std::string demangled_qualified_name(std::string_view mangled) {
  if (!mangled.starts_with("_Z")) return std::string(mangled);
  std::string_view rest = mangled.substr(2);
  const bool nested = rest.starts_with('N');
  if (nested) rest.remove_prefix(1);
  std::string name;
  while (!rest.empty() && rest.front() >= '1' && rest.front() <= '9') {
    std::size_t length = 0;
    auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), length);
    if (error != std::errc()) break;
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    if (length > rest.size()) break;
    const std::string_view component = rest.substr(0, length);
    if (!component.starts_with("_GLOBAL__N"))  // an anonymous namespace: the scanner leaves it out too
      name += (name.empty() ? "" : "::") + std::string(component);
    rest.remove_prefix(length);
    if (!nested) break;
    if (rest.starts_with('I')) break;  // template arguments follow
  }
  return name.empty() ? std::string(mangled) : name;
}

FactsResult gather_compiler_facts(const cuda::Compiler& compiler, const std::vector<FactsRequest>& files,
                                  const std::string& arch, const std::optional<std::filesystem::path>& cache_directory,
                                  const std::string& cuda_include_dir) {
  std::optional<policy::PtxCache> cache;
  if (cache_directory) cache.emplace(*cache_directory);
  std::vector<std::future<Compiled>> running;
  for (const auto& file : files)
    running.push_back(std::async(std::launch::async, [&, file_ptr = &file] {
      return compile_one(compiler, *file_ptr, arch, cache, cuda_include_dir);
    }));
  FactsResult result;
  for (std::size_t i = 0; i < files.size(); ++i) {
    Compiled compiled = running[i].get();
    if (!compiled.note.empty()) result.not_compiled.push_back(std::move(compiled.note));
    result.by_path[files[i].path] = std::move(compiled.facts);
  }
  return result;
}

}  // namespace kforecast::lint_run
