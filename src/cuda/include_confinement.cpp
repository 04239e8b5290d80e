// SPDX-License-Identifier: Apache-2.0
#include "cuda/include_confinement.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>

#include <fmt/format.h>

#include "base/repository_file.hpp"
#include "cuda/include_directives.hpp"

namespace kforecast::cuda {
namespace {

namespace fs = std::filesystem;

std::unexpected<Error> refuse(const std::string& file, std::size_t line, const std::string& why) {
  return fail(ExitCode::gate_failed,
              fmt::format("{}:{}: {} (kforecast resolves every #include itself and lets the compiler read only the "
                          "repository's files and the CUDA toolkit's headers)",
                          file, line, why));
}

bool inside(const fs::path& path, const fs::path& root) {
  auto [root_end, path_at] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return root_end == root.end();
}

bool climbs(const fs::path& path) {
  return std::ranges::any_of(path, [](const fs::path& part) { return part == ".."; });
}

// A file to scan: its name as the compiler knows it and its folder inside the repository.
struct PendingText {
  std::string name;
  fs::path folder;
  std::string text;
};

class Confiner {
 public:
  Confiner(CompileRequest& request, const IncludeRoots& roots) : m_request(request), m_roots(roots) {}

  Result<void> run() {
    if (auto folders = sort_include_dirs(); !folders) return folders;
    for (const auto& header : m_request.headers) m_in_memory.emplace(header.include_name, true);
    m_pending.push_back({m_request.file_name, fs::path(m_request.file_name).parent_path(), m_request.source});
    for (const auto& header : m_request.headers)
      m_pending.push_back({header.include_name, fs::path(m_request.file_name).parent_path(), header.text});
    while (!m_pending.empty()) {
      const PendingText next = std::move(m_pending.front());
      m_pending.pop_front();
      for (const auto& directive : find_include_directives(next.text))
        if (auto ok = admit(next, directive); !ok) return ok;
    }
    return {};
  }

 private:
  // Toolkit folders stay with the compiler; folders inside the repository are searched here;
  // any other folder is refused, since the compiler would read whatever it holds.
  Result<void> sort_include_dirs() {
    std::vector<std::string> kept;
    for (const auto& directory : m_request.include_dirs) {
      std::error_code ec;
      const fs::path path(directory);
      const auto real =
          fs::weakly_canonical(path.is_absolute() || !m_roots.work_tree ? path : *m_roots.work_tree / path, ec);
      const bool toolkit = std::ranges::any_of(m_roots.toolkit, [&](const fs::path& root) {
        std::error_code ignored;
        return inside(real, fs::weakly_canonical(root, ignored));
      });
      if (toolkit) {
        kept.push_back(real.string());
        continue;
      }
      if (m_roots.work_tree && !path.is_absolute() && !climbs(path.lexically_normal())) {
        m_project_dirs.push_back(path.lexically_normal());
        continue;
      }
      return refuse(m_request.file_name, 0,
                    fmt::format("include folder '{}' is outside the repository and the CUDA toolkit", directory));
    }
    m_request.include_dirs = std::move(kept);
    return {};
  }

  Result<void> admit(const PendingText& includer, const IncludeDirective& directive) {
    const auto refuse_here = [&](const std::string& why) { return refuse(includer.name, directive.line, why); };
    if (directive.directive == "embed" || directive.directive == "__has_embed")
      return refuse_here(
          fmt::format("#{} reads a file's bytes into the program and is not allowed in code under review",
                      directive.directive == "embed" ? "embed" : "__has_embed"));
    if (directive.form == IncludeForm::computed)
      return refuse_here(fmt::format("computed {} '{}' cannot be checked; spell the header name in quotes or <>",
                                     directive.directive, directive.name));
    const std::string& name = directive.name;
    if (name.find('\0') != std::string::npos || name.find('\\') != std::string::npos)
      return refuse_here(fmt::format("{} names a path with a backslash or NUL byte", directive.directive));
    if (m_in_memory.contains(name)) return {};
    const fs::path path(name);
    // The repository's .git holds the checkout's token (actions/checkout writes it to .git/config):
    // never a header, whether kforecast or the compiler would look for it.
    if (std::ranges::any_of(path, [](const fs::path& part) { return part == ".git"; }))
      return refuse_here(fmt::format("{} names a file inside .git, which is never handed to the compiler",
                                     directive.directive));
    if (path.is_absolute())
      return refuse_here(
          fmt::format("{} of the absolute path '{}'; include project headers by their path inside the "
                      "repository",
                      directive.directive, name));
    if (auto loaded = load_from_work_tree(includer, directive); !loaded) return loaded;
    if (m_in_memory.contains(name)) return {};
    // Not a project header. The compiler may look for it among the toolkit's headers only; a
    // name that climbs with '..' would climb out of those.
    if (climbs(path))
      return refuse_here(fmt::format("'{}' climbs with '..' to a file that is not among the repository's files", name));
    return {};
  }

  // A project header found on disk (the includer's folder first for "name", then the project's
  // include folders) is read here and handed to the compiler in memory under the name written.
  Result<void> load_from_work_tree(const PendingText& includer, const IncludeDirective& directive) {
    if (!m_roots.work_tree) return {};
    std::vector<fs::path> candidates;
    if (directive.form == IncludeForm::quoted) candidates.push_back(includer.folder / directive.name);
    for (const auto& folder : m_project_dirs) candidates.push_back(folder / directive.name);
    for (const auto& candidate : candidates) {
      auto bytes = read_repository_file(*m_roots.work_tree, candidate.lexically_normal(), m_roots.max_header_bytes);
      if (!bytes) {
        if (bytes.error().problem == RepositoryFileProblem::missing) continue;
        return refuse(includer.name, directive.line, bytes.error().message);
      }
      m_total_bytes += bytes->size();
      if (m_total_bytes > m_roots.max_total_bytes)
        return refuse(includer.name, directive.line,
                      fmt::format("the headers reached exceed {} bytes in all", m_roots.max_total_bytes));
      m_in_memory.emplace(directive.name, true);
      m_request.headers.push_back({directive.name, *bytes});
      m_pending.push_back({directive.name, candidate.lexically_normal().parent_path(), std::move(*bytes)});
      return {};
    }
    return {};
  }

  CompileRequest& m_request;
  const IncludeRoots& m_roots;
  std::vector<fs::path> m_project_dirs;
  std::map<std::string, bool, std::less<>> m_in_memory;
  std::deque<PendingText> m_pending;
  std::size_t m_total_bytes = 0;
};

}  // namespace

bool allowed_compile_option(std::string_view option) {
  // Options that change what the code means or how it is optimised, and nothing that reads a
  // file (--pre-include, --include-path: include folders travel as include_dirs and are checked),
  // runs a program or names a response file.
  static constexpr std::array<std::string_view, 8> exact = {
      "-default-device", "-minimal",        "-rdc=true",      "-rdc=false",
      "-lineinfo",       "--use_fast_math", "-use_fast_math", "--extra-device-vectorization"};
  static constexpr std::array<std::string_view, 20> prefixes = {"-std=",
                                                                "--std=",
                                                                "-D",
                                                                "--define-macro=",
                                                                "-U",
                                                                "--undefine-macro=",
                                                                "--ftz=",
                                                                "-ftz=",
                                                                "--prec-div=",
                                                                "-prec-div=",
                                                                "--prec-sqrt=",
                                                                "-prec-sqrt=",
                                                                "--fmad=",
                                                                "-fmad=",
                                                                "-maxrregcount=",
                                                                "--maxrregcount=",
                                                                "--relocatable-device-code=",
                                                                "--dopt=",
                                                                "-dopt=",
                                                                "--device-int128"};
  if (std::ranges::find(exact, option) != exact.end()) return true;
  return std::ranges::any_of(prefixes, [&](std::string_view prefix) { return option.starts_with(prefix); });
}

Result<void> confine_tree_includes(const std::string& unit, const std::vector<std::string>& include_dirs,
                                   const std::function<const std::string*(const std::string&)>& file_text,
                                   bool computed_allowed, IncludeDirectiveMemo* memo) {
  std::deque<std::string> pending{unit};
  std::map<std::string, bool, std::less<>> seen{{unit, true}};
  while (!pending.empty()) {
    const std::string file = std::move(pending.front());
    pending.pop_front();
    const std::string* text = file_text(file);
    if (text == nullptr) continue;
    const std::vector<IncludeDirective> own = memo != nullptr ? std::vector<IncludeDirective>{} : find_include_directives(*text);
    for (const auto& directive : memo != nullptr ? memo->of(*text) : own) {
      const auto refuse_here = [&](const std::string& why) { return refuse(file, directive.line, why); };
      if (directive.directive == "embed" || directive.directive == "__has_embed")
        return refuse_here(fmt::format("#{} reads a file's bytes into the program and is not allowed in code under review",
                                       directive.directive == "embed" ? "embed" : "__has_embed"));
      if (directive.form == IncludeForm::computed) {
        if (computed_allowed) continue;
        return refuse_here(fmt::format("computed {} '{}' cannot be checked, and this system cannot confine the "
                                       "compiler's reads (no Landlock); spell the header name in quotes or <>",
                                       directive.directive, directive.name));
      }
      const fs::path path(directive.name);
      if (directive.name.find('\0') != std::string::npos || directive.name.find('\\') != std::string::npos)
        return refuse_here(fmt::format("{} names a path with a backslash or NUL byte", directive.directive));
      if (std::ranges::any_of(path, [](const fs::path& part) { return part == ".git"; }))
        return refuse_here(fmt::format("{} names a file inside .git, which is never handed to the compiler",
                                       directive.directive));
      if (path.is_absolute())
        return refuse_here(fmt::format("{} of the absolute path '{}'; include project headers by their path inside "
                                       "the repository",
                                       directive.directive, directive.name));
      std::vector<fs::path> candidates;
      if (directive.form == IncludeForm::quoted) candidates.push_back(fs::path(file).parent_path() / path);
      for (const auto& folder : include_dirs) candidates.push_back(fs::path(folder) / path);
      bool found = false;
      for (const auto& candidate : candidates) {
        const fs::path normal = candidate.lexically_normal();
        if (normal.empty() || *normal.begin() == "..") continue;  // out of the tree: not a tree file
        const std::string name = normal.generic_string();
        if (file_text(name) == nullptr) continue;
        found = true;
        if (seen.emplace(name, true).second) pending.push_back(name);
        break;
      }
      if (!found && climbs(path))
        return refuse_here(
            fmt::format("'{}' climbs with '..' to a file that is not among the repository's files", directive.name));
    }
  }
  return {};
}

Result<CompileRequest> confine_includes(CompileRequest request, const IncludeRoots& roots) {
  for (const auto& option : request.options)
    if (!allowed_compile_option(option))
      return refuse(request.file_name, 0,
                    fmt::format("compiler option '{}' is not allowed for code under review (only language, "
                                "definition and code-generation options are)",
                                option));
  if (auto ok = Confiner(request, roots).run(); !ok) return std::unexpected(ok.error());
  return request;
}

}  // namespace kforecast::cuda
