// SPDX-License-Identifier: Apache-2.0
#include "plan/plan_arguments.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/plain_text.hpp"
#include "context/compile_context.hpp"
#include "context/flag_filter.hpp"

namespace kforecast::plan {
namespace {

// Where the GPU job writes a side's files is its own choice; the folders are checked as relative
// to a tree, as the CPU job checked them against the repository.
const context::FolderPlace plan_tree{"/plan-tree", "/plan-tree"};

// A system folder that does not exist on this machine reads nothing: it stands as written, and
// one that does is checked where its symbolic links lead, as in the CPU job.
context::FolderLookup folders_here() {
  const context::FolderLookup real = context::real_folder_lookup();
  return {[real](const std::filesystem::path& folder) -> std::optional<std::filesystem::path> {
    if (auto found = real.real_folder(folder)) return found;
    std::error_code error;
    if (std::filesystem::exists(folder, error)) return std::nullopt;
    return folder;
  }};
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : "; ") + item;
  return text;
}

}  // namespace

Result<void> check_build_arguments(std::span<const std::string> arguments) {
  context::CompileContext checked;
  context::add_arguments(arguments, plan_tree, folders_here(), checked);
  if (!checked.refused.empty()) return usage_error(fmt::format("refused: {}", joined(checked.refused)));
  if (!checked.dropped.empty()) return usage_error(fmt::format("not kforecast's to pass: {}", joined(checked.dropped)));
  // What passed, written as kforecast writes it, must be all there is: an input file, a repeated
  // or reordered argument would otherwise go to nvcc unchecked.
  const std::vector<std::string> expected = context::nvcc_arguments(checked);
  if (!std::ranges::equal(arguments, expected)) {
    const auto odd = std::ranges::find_if(arguments, [&](const std::string& argument) {
      return std::ranges::find(expected, argument) == expected.end();
    });
    return usage_error(odd != arguments.end()
                           ? fmt::format("{} is not an option kforecast passes", *odd)
                           : std::string("the arguments are not in the order and form kforecast writes them"));
  }
  return {};
}

Result<void> check_plan_arguments(const Plan& plan, std::string_view name) {
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    const gate::MeasureJob& job = plan.jobs[i];
    for (const auto& [side, which] : {std::pair{&job.base, "base"}, std::pair{&job.head, "head"}}) {
      if (!side->build_arguments) continue;
      if (auto checked = check_build_arguments(*side->build_arguments); !checked)
        return usage_error(fmt::format(
            "{}: plan refused: measure[{}].{}.build_arguments, the compile arguments of kernel `{}`, fail the "
            "project's flag allow-list ({}); a plan written by `kforecast pr --plan` holds only arguments that "
            "pass it, so this plan was altered: make it again",
            name, i, which, printable_line(plan.report.kernels[job.entry].name), checked.error().message));
    }
  }
  return {};
}

}  // namespace kforecast::plan
