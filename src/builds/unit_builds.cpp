// SPDX-License-Identifier: Apache-2.0
#include "builds/unit_builds.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "builds/affected_units.hpp"
#include "builds/compile_failure.hpp"
#include "builds/revision_tree.hpp"
#include "cuda/include_confinement.hpp"

namespace kforecast::builds {
namespace {

using Clock = std::chrono::steady_clock;
using kernels::RevisionSources;

// A revision's files on disk, written the first time a compile needs them: a run answered from
// the cache writes nothing.
class LazyTree {
 public:
  LazyTree(const RevisionSources& sources, std::string label) : m_sources(sources), m_label(std::move(label)) {}

  const Result<RevisionTree>& get() {
    std::call_once(m_once, [&] { m_tree.emplace(RevisionTree::write(m_sources.files(), m_label)); });
    return *m_tree;
  }

 private:
  const RevisionSources& m_sources;
  std::string m_label;
  std::once_flag m_once;
  std::optional<Result<RevisionTree>> m_tree;
};

struct Side {
  const RevisionSources& sources;
  LazyTree tree;
  cuda::IncludeDirectiveMemo directives = {};  // each file read once for the refusals of every unit
};

// What a failed compile's answer depends on, for the cache: the headers kforecast resolves for the
// unit and, as absent, each place an include it could not resolve may yet appear (beside its
// includer, or at the root): a revision that adds it must compile again, not be answered with the
// failure. (llm.c's test_gpt2.cu includes train_gpt2.cu; a run that had not read it cached "No
// such file" for later revisions that have it.) Names without a '.' or '/' (<vector>) are the
// system's and left out.
std::vector<std::string> failure_dependencies(const RevisionSources& sources, const std::string& unit) {
  constexpr std::size_t most = 512;
  auto closure = sources.closure(unit);
  std::vector<std::string> dependencies(closure.begin() + 1, closure.end());
  const auto add = [&](std::string path) {
    if (dependencies.size() < most && std::ranges::find(dependencies, path) == dependencies.end())
      dependencies.push_back(std::move(path));
  };
  for (const auto& file : closure)
    for (const auto& include : sources.scanned(file).includes) {
      if (include.path.find_first_of("./") == std::string::npos || sources.resolve_include(file, include)) continue;
      const std::string folder = std::filesystem::path(file).parent_path().generic_string();
      add(std::filesystem::path(folder.empty() ? include.path : folder + "/" + include.path).lexically_normal().generic_string());
      add(include.path);
    }
  return dependencies;
}

// Whether a cached failure for want of a header outside the repository no longer holds: the header
// is now in one of the unit's absolute include folders or the system's (a package installed, a
// library pip put beside torch). The cache hashes the repository's headers only, so it cannot see
// that by itself.
bool header_since_installed(const CachedUnit& cached, const std::vector<std::string>& arguments) {
  if (cached.compiled) return false;
  const auto missing = missing_context(cached.log);
  if (!missing || !missing->starts_with("missing <") || !missing->ends_with(">")) return false;
  const std::filesystem::path header = missing->substr(9, missing->size() - 10);
  std::vector<std::filesystem::path> folders{"/usr/include", "/usr/local/include"};
  for (const std::string& argument : arguments)
    if (argument.starts_with("-I/")) folders.emplace_back(argument.substr(2));
  std::error_code error;
  return std::ranges::any_of(folders, [&](const auto& folder) { return std::filesystem::exists(folder / header, error); });
}

// One unit at one revision: from the cache, else compiled (and then kept in the cache) within what
// is left of the budget. Past the deadline only the cache answers: a run that stopped at its budget
// leaves the next one the units it finished.
SideBuild build_one(const std::string& unit, const UnitContext& context, Side& side, const UnitBuildSettings& settings,
                    Clock::time_point deadline, std::atomic<std::size_t>& compiles, std::atomic<std::size_t>& hits) {
  cuda::UnitBuildRequest request{{}, unit, context.arguments, settings.arch};
  const auto& files = side.sources.files();
  const std::string key = UnitCache::unit_key(settings.compiler.name(), request, files.at(unit));
  SideBuild built;
  // The refusals NVRTC's path makes, before nvcc runs: where Landlock confines nvcc they only
  // make the message clear; where it does not, they are what keeps it to the tree.
  std::vector<std::string> include_dirs;
  for (const auto& argument : context.arguments)
    if (argument.starts_with("-I") && argument.size() > 2) include_dirs.push_back(argument.substr(2));
  const auto text_of = [&files](const std::string& path) -> const std::string* {
    const auto found = files.find(path);
    return found == files.end() ? nullptr : &found->second;
  };
  if (auto confined = cuda::confine_tree_includes(unit, include_dirs, text_of, settings.reads_confined, &side.directives);
      !confined) {
    built.state = SideBuild::State::failed;
    built.log = confined.error().message;
    built.refused = true;
    return built;
  }
  if (settings.cache != nullptr)
    if (auto cached = settings.cache->find(key, files); cached && !header_since_installed(*cached, request.arguments)) {
      ++hits;
      built.state = cached->compiled ? SideBuild::State::compiled : SideBuild::State::failed;
      built.cubin = std::move(cached->cubin);
      built.log = std::move(cached->log);
      built.from_cache = true;
      return built;
    }
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  if (left.count() <= 0) return built;  // not_run
  const auto& tree = side.tree.get();
  if (!tree) {
    built.state = SideBuild::State::failed;
    built.log = tree.error().message;
    return built;
  }
  request.tree = tree->path();
  request.time_limit = left;
  ++compiles;
  auto output = settings.compiler.compile(request);
  // Stopped by the budget, not by the code: neither a failure nor an answer to keep.
  if (!output && output.error().exit_code == ExitCode::could_not_run && Clock::now() >= deadline) return built;
  CachedUnit answer;
  if (output) {
    built.state = SideBuild::State::compiled;
    built.cubin = std::move(output->cubin);
    built.log = std::move(output->log);
    answer = {true, built.cubin, built.log, std::move(output->project_headers)};
  } else {
    built.state = SideBuild::State::failed;
    built.log = output.error().message;
    // A compiler that could not run says nothing about the code: not kept.
    if (output.error().exit_code == ExitCode::could_not_run) return built;
    // A failed compile writes no dependency file: the headers kforecast resolves for the unit stand in.
    answer = {false, {}, built.log, failure_dependencies(side.sources, unit)};
  }
  if (settings.cache != nullptr) settings.cache->store(key, answer, files);
  return built;
}

}  // namespace

UnitBuilds build_affected_units(const RevisionSources& base, const RevisionSources& head,
                                const std::vector<kernel_changes::ChangedKernel>& changed, const UnitBuildSettings& settings) {
  UnitBuilds builds;
  builds.compiler = settings.compiler.name();
  auto affected = affected_units(base, head, changed);
  // Units past the cap are kept, not built, so that a kernel they may instantiate is not settled
  // as identical from the units that were built (builds/unit_code_compare.cpp).
  std::vector<UnitBuild> over_the_cap;
  if (affected.size() > settings.max_units) {
    builds.notes.push_back(fmt::format(
        "{} of the {} units the change reaches were not compiled (compile.max_units = {}, the units of the changed "
        "kernels first, nearest first): kernels only they build are forecast",
        affected.size() - settings.max_units, affected.size(), settings.max_units));
    for (std::size_t u = settings.max_units; u < affected.size(); ++u) {
      UnitBuild skipped;
      skipped.unit = affected[u].path;
      skipped.kernels = std::move(affected[u].kernels);
      // Its contexts all the same: a kernel only it builds is still measured in nvcc's build.
      skipped.base_context = settings.context(skipped.unit, base);
      skipped.head_context = settings.context(skipped.unit, head);
      skipped.not_run = fmt::format("compile.max_units ({}) reached", settings.max_units);
      over_the_cap.push_back(std::move(skipped));
    }
    affected.resize(settings.max_units);
  }
  for (auto& unit : affected) {
    UnitBuild build;
    build.unit = unit.path;
    build.kernels = std::move(unit.kernels);
    build.base_context = settings.context(unit.path, base);
    build.head_context = settings.context(unit.path, head);
    build.not_run = !build.head_context.unavailable.empty() ? build.head_context.unavailable
                                                            : build.base_context.unavailable;
    builds.units.push_back(std::move(build));
  }
  if (builds.units.empty()) {
    builds.units = std::move(over_the_cap);
    return builds;
  }

  Side sides[2] = {{base, LazyTree(base, "base")}, {head, LazyTree(head, "head")}};
  const std::size_t total = builds.units.size() * 2;
  // Said before the first compile, which may take minutes (a unit that includes PyTorch's headers).
  if (settings.progress) settings.progress(0, total);
  const auto deadline = Clock::now() + settings.budget;
  std::atomic<std::size_t> next{0}, done{0}, compiles{0}, hits{0};
  std::atomic<bool> budget_spent{false};
  std::mutex progress_mutex;
  auto work = [&] {
    for (std::size_t job = next++; job < total; job = next++) {
      UnitBuild& unit = builds.units[job / 2];
      const bool is_head = job % 2 == 1;
      // A unit whose context cannot be had here is not compiled: the compile would only fail.
      if (unit.not_run.empty()) {
        SideBuild& side = is_head ? unit.head : unit.base;
        side = build_one(unit.unit, is_head ? unit.head_context : unit.base_context, sides[is_head ? 1 : 0], settings,
                         deadline, compiles, hits);
        if (side.state == SideBuild::State::not_run) budget_spent = true;
      }
      const std::size_t finished = ++done;
      if (settings.progress) {
        const std::lock_guard lock(progress_mutex);
        settings.progress(finished, total);
      }
    }
  };
  const std::size_t workers = std::max<std::size_t>(1, std::min(settings.jobs, total));
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 1; i < workers; ++i) threads.emplace_back(work);
    work();
  }
  builds.compiles = compiles;
  builds.cache_hits = hits;
  std::size_t skipped = 0;
  for (auto& unit : builds.units)
    if (unit.not_run.empty() &&
        (unit.base.state == SideBuild::State::not_run || unit.head.state == SideBuild::State::not_run)) {
      unit.not_run = settings.budget_reason;
      ++skipped;
    }
  if (budget_spent)
    builds.notes.push_back(
        fmt::format("{} of {} units were not compiled: {}; kernels only they build are forecast (a "
                    "re-run goes on where this one stopped, its finished units answered by the "
                    "unit cache)",
                    skipped, builds.units.size(), settings.budget_reason));
  std::ranges::move(over_the_cap, std::back_inserter(builds.units));
  return builds;
}

}  // namespace kforecast::builds
