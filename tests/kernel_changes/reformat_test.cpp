// SPDX-License-Identifier: Apache-2.0
// fixtures/reformat: a small CUDA project (original/) and copies of it reformatted by
// clang-format 14 in several styles, and one with braces inserted by hand (make-variants.sh).
// Every copy compiles to the same PTX as the original; none may change a kernel.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

#include "kernel_changes/changed_kernels.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;
namespace fs = std::filesystem;

namespace {

const fs::path fixtures = fs::path(KF_SOURCE_DIR) / "fixtures" / "reformat";

SourceFiles read_project(const std::string& variant) {
  SourceFiles files;
  for (const auto& entry : fs::recursive_directory_iterator(fixtures / variant)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), fixtures / variant).generic_string()] = {std::istreambuf_iterator<char>(in), {}};
  }
  REQUIRE(files.size() == 5);
  return files;
}

ChangeAnalysis analyse(const SourceFiles& base_files, const SourceFiles& head_files) {
  std::set<std::string, std::less<>> touched;
  for (const auto& [path, text] : head_files)
    if (!base_files.contains(path) || base_files.at(path) != text) touched.insert(path);
  const RevisionSources base(base_files), head(head_files);
  return find_changed_kernels(base, head, {}, touched);
}

std::vector<std::string> changed_names(const ChangeAnalysis& analysis) {
  std::vector<std::string> names;
  for (const auto& kernel : analysis.kernels) {
    std::string line = kernel.head ? kernel.head->qualified_name : kernel.base->qualified_name;
    for (const auto& reason : kernel.reasons) line += " | " + reason;
    names.push_back(line);
  }
  return names;
}

}  // namespace

TEST_CASE("kernel_changes: a project reformatted by clang-format, in any style, changes no kernel") {
  const SourceFiles original = read_project("original");
  for (const std::string variant :
       {"google", "llvm_narrow", "mozilla_east_const", "webkit_no_braces", "braces_by_hand"}) {
    INFO(variant);
    const SourceFiles reformatted = read_project(variant);
    REQUIRE(reformatted != original);
    const ChangeAnalysis analysis = analyse(original, reformatted);
    CHECK(changed_names(analysis).empty());
    // Each kernel whose text moved is named, as comments or whitespace only or as formatting.
    CHECK(analysis.comment_only.size() + analysis.formatting_only.size() >= 5);
  }
}

TEST_CASE("kernel_changes: braces, specifier order and literal case read as formatting only, not as comments") {
  const ChangeAnalysis analysis = analyse(read_project("original"), read_project("braces_by_hand"));
  CHECK(analysis.kernels.empty());
  CHECK(analysis.comment_only.empty());
  CHECK_THAT(analysis.formatting_only,
             Catch::Matchers::VectorContains(std::string("src/scale.cu: imgstat::transpose_kernel")));
  CHECK_THAT(analysis.formatting_only,
             Catch::Matchers::VectorContains(std::string("src/reduce.cu: imgstat::normalise_kernel")));
}

TEST_CASE("kernel_changes: a real edit inside a reformatted project is still found") {
  const SourceFiles original = read_project("original");
  SourceFiles edited = read_project("webkit_no_braces");
  std::string& filter = edited.at("src/filter.cu");
  const auto at = filter.find("acc / (2 * RADIUS + 1)");
  REQUIRE(at != std::string::npos);
  filter.replace(at, 22, "acc / (2 * RADIUS)");
  std::string& reduce = edited.at("src/reduce.cu");
  const auto launch = reduce.find("channel_sum_kernel<256, float>");
  REQUIRE(launch != std::string::npos);
  reduce.replace(launch, 30, "channel_sum_kernel<128, float>");
  const auto names = changed_names(analyse(original, edited));
  REQUIRE(names.size() == 2);
  CHECK(std::ranges::count_if(names, [](const std::string& n) { return n.starts_with("imgstat::box_blur_rows |"); }) ==
        1);
  CHECK(std::ranges::count_if(names, [](const std::string& n) {
          return n.starts_with("imgstat::channel_sum_kernel | launch configuration at src/reduce.cu:");
        }) == 1);
}
