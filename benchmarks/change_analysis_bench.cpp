// SPDX-License-Identifier: Apache-2.0
// What finding the changed kernels costs, beyond the scan: a synthetic repository of many copies
// of fixtures/reformat's project (each copy in its own folder, names varied), base and head
// both scanned, and find_changed_kernels run over every file as touched. Two heads: the same
// project reformatted by clang-format (every kernel's text moved, none changed: each reached
// piece is fingerprinted in canonical form) and one with a token edited in each copy. Prints
// the median of several runs. Usage: change_analysis_bench [COPIES] [RUNS]   (defaults: 200, 7)

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernel_changes/changed_kernels.hpp"

namespace fs = std::filesystem;
using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;

namespace {

SourceFiles read_project(const fs::path& root) {
  SourceFiles files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), root).generic_string()] = {std::istreambuf_iterator<char>(in), {}};
  }
  return files;
}

// Real repositories do not repeat one project: each copy's kernels get their own names.
std::string renamed(std::string text, std::size_t copy) {
  const std::string suffix = fmt::format("_{}", copy);
  for (std::size_t at = text.find("_kernel"); at != std::string::npos;
       at = text.find("_kernel", at + 7 + suffix.size()))
    text.insert(at + 7, suffix);
  return text;
}

SourceFiles copies(const SourceFiles& project, std::size_t count, bool edit) {
  SourceFiles files;
  for (std::size_t copy = 0; copy < count; ++copy)
    for (const auto& [path, text] : project) {
      std::string varied = renamed(text, copy);
      if (edit && path.ends_with("filter.cu"))
        if (const auto at = varied.find("2 * RADIUS + 1"); at != std::string::npos)
          varied.replace(at, 14, "2 * RADIUS + 2");
      files[fmt::format("copy{}/{}", copy, path)] = std::move(varied);
    }
  return files;
}

struct Timing {
  double median_ms = 0;
  double cpu_median_ms = 0;  // of the process: the analysis runs the base on a second thread
  std::size_t changed = 0;
};

double process_cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

Timing measure(const SourceFiles& base_files, const SourceFiles& head_files, int runs) {
  std::set<std::string, std::less<>> touched;
  for (const auto& [path, text] : head_files) touched.insert(path);
  std::vector<double> seconds, cpu_seconds;
  std::size_t changed = 0;
  for (int run = 0; run < runs; ++run) {
    const double cpu_start = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    const RevisionSources base(base_files), head(head_files);
    changed = find_changed_kernels(base, head, {}, touched).kernels.size();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    cpu_seconds.push_back(process_cpu_seconds() - cpu_start);
  }
  std::ranges::sort(seconds);
  std::ranges::sort(cpu_seconds);
  return {seconds[seconds.size() / 2] * 1e3, cpu_seconds[cpu_seconds.size() / 2] * 1e3, changed};
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t count = argc > 1 ? static_cast<std::size_t>(std::atoi(argv[1])) : 200;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 7;
  const fs::path fixtures = fs::path(KF_SOURCE_DIR) / "fixtures" / "reformat";
  const SourceFiles original = read_project(fixtures / "original");
  const SourceFiles reformatted = read_project(fixtures / "webkit_no_braces");
  const SourceFiles base = copies(original, count, false);
  std::size_t bytes = 0;
  for (const auto& [path, text] : base) bytes += text.size();
  fmt::print("repository: {} files, {:.2f} MB per revision, {} runs each\n", base.size(),
             static_cast<double>(bytes) / 1e6, runs);
  const Timing reformat = measure(base, copies(reformatted, count, false), runs);
  fmt::print("reformatted head: median {:.1f} ms wall, {:.1f} ms CPU; {} kernels reported changed\n",
             reformat.median_ms, reformat.cpu_median_ms, reformat.changed);
  const Timing edited = measure(base, copies(original, count, true), runs);
  fmt::print("edited head:      median {:.1f} ms wall, {:.1f} ms CPU; {} kernels reported changed\n", edited.median_ms,
             edited.cpu_median_ms, edited.changed);
  return 0;
}
