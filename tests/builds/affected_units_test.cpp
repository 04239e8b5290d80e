// SPDX-License-Identifier: Apache-2.0
// Which units are built for the changed kernels: through the reverse include graph, nearest first.
#include "builds/affected_units.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::builds;

namespace {

struct Tree {
  kernels::SourceFiles base_files, head_files;
  std::vector<AffectedUnit> units() {
    kernels::RevisionSources base(base_files), head(head_files);
    std::set<std::string, std::less<>> touched;
    for (const auto& [path, text] : head_files)
      if (!base_files.contains(path) || base_files.at(path) != text) touched.insert(path);
    changed = kernel_changes::find_changed_kernels(base, head, {}, touched).kernels;
    return affected_units(base, head, changed);
  }
  std::vector<kernel_changes::ChangedKernel> changed;
};

std::vector<std::string> paths(const std::vector<AffectedUnit>& units) {
  std::vector<std::string> out;
  for (const auto& unit : units) out.push_back(unit.path);
  return out;
}

}  // namespace

TEST_CASE("affected units: a header kernel is built by every unit that reaches it, nearest first") {
  Tree tree;
  const std::string kernel_v1 = "#pragma once\ntemplate <int N> __global__ void tiled(float* p) { p[N] = 1; }\n";
  const std::string kernel_v2 = "#pragma once\ntemplate <int N> __global__ void tiled(float* p) { p[N] = 2; }\n";
  const kernels::SourceFiles common = {
      {"src/kernels.cuh", "#pragma once\n#include \"tiled.cuh\"\n"},
      {"src/runner.cu", "#include \"kernels.cuh\"\nvoid run(float* p) { tiled<4><<<1, 1>>>(p); }\n"},
      {"src/direct.cu", "#include \"tiled.cuh\"\nvoid go(float* p) { tiled<8><<<1, 1>>>(p); }\n"},
      {"src/other.cu", "__global__ void unrelated(float* p) { p[0] = 0; }\n"},
  };
  tree.base_files = tree.head_files = common;
  tree.base_files["src/tiled.cuh"] = kernel_v1;
  tree.head_files["src/tiled.cuh"] = kernel_v2;
  const auto units = tree.units();
  REQUIRE(tree.changed.size() == 1);
  CHECK(paths(units) == std::vector<std::string>{"src/direct.cu", "src/runner.cu"});
  CHECK(units[0].distance == 1);
  CHECK(units[1].distance == 2);
  CHECK(units[0].kernels == std::vector<std::size_t>{0});
}

TEST_CASE("affected units: a kernel in a .cu is built by that unit, and a unit only one revision has is not paired") {
  Tree tree;
  tree.base_files = {{"a.cu", "__global__ void k(float* p) { p[0] = 1; }\n"}};
  tree.head_files = {{"a.cu", "__global__ void k(float* p) { p[0] = 2; }\n"},
                     {"new.cu", "#include \"a.cu\"\n"}};
  const auto units = tree.units();
  CHECK(paths(units) == std::vector<std::string>{"a.cu"});
  CHECK(units.front().distance == 0);
}

TEST_CASE("affected units: added and removed kernels need no unit") {
  Tree tree;
  tree.base_files = {{"a.cu", "__global__ void old_one(float* p) { p[0] = 1; }\n"}};
  tree.head_files = {{"a.cu", "__global__ void new_one(float* p, int n) { for (int i = 0; i < n; ++i) p[i] = 2; }\n"}};
  CHECK(tree.units().empty());
}

TEST_CASE("affected units: a changed .cu with no reported kernel is built for the scanner's gaps, after the others") {
  Tree tree;
  const std::string kernel = "#pragma once\ntemplate <int N> __global__ void tiled(float* p) { p[N] = 1; }\n";
  tree.base_files = {{"src/tiled.cuh", kernel},
                     {"src/runner.cu", "#include \"tiled.cuh\"\nconst int tile = 8;\nvoid run(float* p) { tiled<tile><<<1, 1>>>(p); }\n"},
                     {"src/other.cu", "__global__ void other(float* p) { p[0] = 0; }\n"}};
  tree.head_files = tree.base_files;
  // A host edit no scan ties to a kernel (what the compiled view is for: a lambda, a trait).
  tree.head_files["src/runner.cu"] = "#include \"tiled.cuh\"\nconst int tile = 8;\nint unused = 1;\nvoid run(float* p) { tiled<tile><<<1, 1>>>(p); }\n";
  tree.head_files["src/other.cu"] = "__global__ void other(float* p) { p[0] = 1; }\n";
  const auto units = tree.units();
  // other.cu for its changed kernel first; the runner for what the scan may not see.
  REQUIRE(paths(units) == std::vector<std::string>{"src/other.cu", "src/runner.cu"});
  CHECK_FALSE(units[0].kernels.empty());
  CHECK(units[1].kernels.empty());
}

TEST_CASE("affected units: a changed header no unit reaches is built by its nearest unit only") {
  Tree tree;
  const kernels::SourceFiles common = {
      {"src/a.cu", "#include \"wrap.cuh\"\n"},
      {"src/wrap.cuh", "#pragma once\n#include \"lambda.cuh\"\n"},
      {"src/b.cu", "#include \"lambda.cuh\"\n"},
      {"src/c.cu", "#include \"lambda.cuh\"\n"},
  };
  tree.base_files = tree.head_files = common;
  tree.base_files["src/lambda.cuh"] = "#pragma once\ninline auto f = [] __device__ (int i) { return i + 1; };\n";
  tree.head_files["src/lambda.cuh"] = "#pragma once\ninline auto f = [] __device__ (int i) { return i + 2; };\n";
  const auto units = tree.units();
  REQUIRE(paths(units) == std::vector<std::string>{"src/b.cu"});
  CHECK(units[0].distance == 1);
  CHECK(units[0].kernels.empty());
}

TEST_CASE("affected units: a header changed only in comments and whitespace makes no gap unit") {
  Tree tree;
  const kernels::SourceFiles common = {{"src/b.cu", "#include \"lambda.cuh\"\n"}};
  tree.base_files = tree.head_files = common;
  tree.base_files["src/lambda.cuh"] =
      "#pragma once\n// sin(a.x), cos(a.x) sin(2a.x)\ninline auto f = [] __device__ (int i) { return i + 1; };\n";
  tree.head_files["src/lambda.cuh"] =
      "#pragma once\n/* sin(a.x), cos(a.x), sin(2a.x) */\r\ninline auto f = [] __device__ (int i) {\n  return i + 1;\n};\n";
  CHECK(tree.units().empty());
  // The same header with one token changed is a gap again.
  tree.head_files["src/lambda.cuh"] = "#pragma once\ninline auto f = [] __device__ (int i) { return i + 3; };\n";
  CHECK(paths(tree.units()) == std::vector<std::string>{"src/b.cu"});
}
