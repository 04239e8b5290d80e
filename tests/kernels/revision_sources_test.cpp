// SPDX-License-Identifier: Apache-2.0
// RevisionSources::resolve_include: a local header found the way a build with the project's
// include folders finds it, inferred from the tree alone, and nothing guessed where it is unsure.
#include "kernels/revision_sources.hpp"

#include <catch2/catch.hpp>

#include "support/scanned.hpp"

using namespace kforecast::kernels;

namespace {

Include angled(std::string path) { return {std::move(path), true, 1}; }
Include quoted(std::string path) { return {std::move(path), false, 1}; }

}  // namespace

TEST_CASE("revision sources: includes resolve against the includer's folder, then the root") {
  const SourceFiles files{{"src/k.cu", ""}, {"src/util.cuh", ""}, {"common/defs.h", ""}};
  const RevisionSources sources(files);
  CHECK(sources.resolve_include("src/k.cu", quoted("util.cuh")) == "src/util.cuh");
  CHECK(sources.resolve_include("src/k.cu", quoted("common/defs.h")) == "common/defs.h");
  CHECK(sources.resolve_include("src/k.cu", quoted("../common/defs.h")) == "common/defs.h");
}

TEST_CASE("revision sources: a project include folder is inferred from a name with a folder in it") {
  // The shape of a library whose headers live under include/NAME/ and whose sources include them
  // as <NAME/header.h>, as a build given -I include finds them.
  const SourceFiles files{{"src/reduce.cu", "#include <mylib/reduce.h>\n"},
                          {"include/mylib/reduce.h", "#include <mylib/common.h>\n"},
                          {"include/mylib/common.h", ""}};
  const RevisionSources sources(files);
  CHECK(sources.resolve_include("src/reduce.cu", angled("mylib/reduce.h")) == "include/mylib/reduce.h");
  CHECK(sources.closure("src/reduce.cu") ==
        std::vector<std::string>{"src/reduce.cu", "include/mylib/reduce.h", "include/mylib/common.h"});
}

TEST_CASE("revision sources: a quoted header from another folder is found where it is the only one") {
  const SourceFiles files{{"dev/cuda/k.cu", "#include \"common.h\"\n"}, {"dev/common.h", ""}};
  const RevisionSources sources(files);
  CHECK(sources.resolve_include("dev/cuda/k.cu", quoted("common.h")) == "dev/common.h");
}

TEST_CASE("revision sources: the nearest of several same-named headers, and none on a tie") {
  const SourceFiles files{{"a/x/k.cu", ""}, {"a/util.h", ""}, {"b/util.h", ""}, {"c/d/util.h", ""}};
  const RevisionSources sources(files);
  CHECK(sources.resolve_include("a/x/k.cu", quoted("util.h")) == "a/util.h");
  const SourceFiles tied{{"k.cu", ""}, {"a/util.h", ""}, {"b/util.h", ""}};
  CHECK_FALSE(RevisionSources(tied).resolve_include("k.cu", quoted("util.h")));
}

TEST_CASE("revision sources: a bare angled name stays the toolkit's, whatever the tree holds") {
  const SourceFiles files{{"src/k.cu", ""}, {"third_party/stubs/cuda_runtime.h", ""}};
  const RevisionSources sources(files);
  CHECK_FALSE(sources.resolve_include("src/k.cu", angled("cuda_runtime.h")));
  CHECK_FALSE(sources.resolve_include("src/k.cu", angled("missing/header.h")));
  CHECK_FALSE(sources.resolve_include("src/k.cu", quoted("../../outside.h")));
}

namespace {

// The kernels (by qualified name) whose dependencies differ between the fixture dispatch.cu and
// the fixture with one edit.
std::vector<std::string> kernels_changed_by(std::string_view from, std::string_view to) {
  const std::string base_text = kforecast::kernels::testing::read_fixture("dispatch.cu");
  std::string head_text = base_text;
  const auto at = head_text.find(from);
  REQUIRE(at != std::string::npos);
  head_text.replace(at, from.size(), to);
  const SourceFiles base_files{{"dispatch.cu", base_text}}, head_files{{"dispatch.cu", head_text}};
  const RevisionSources base(base_files), head(head_files);
  std::vector<std::string> changed;
  const auto& functions = head.scanned("dispatch.cu").functions;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (functions[i].kind == FunctionKind::global &&
        base.dependencies("dispatch.cu", i) != head.dependencies("dispatch.cu", i))
      changed.push_back(functions[i].qualified_name);
  return changed;
}

}  // namespace

TEST_CASE("revision sources: fixture dispatch.cu, device functions reached through dispatch") {
  // Before: no kernel reached a device function it did not call by name.
  SECTION("through a template parameter: every Run") {
    CHECK(kernels_changed_by("return a * b;", "return a * b + 0.0f;") == std::vector<std::string>{"binary_op"});
  }
  // A kernel that calls through a value may run any function whose address a file-scope
  // declaration takes (the table's entries, softsign_pointer's): conservative, a miss being worse.
  const std::vector<std::string> through_values{"apply_from_table", "apply_picked", "apply_held", "apply_functor",
                                                "apply_given"};
  SECTION("through a table, a function returning a function, a local holding one, a pointer") {
    CHECK(kernels_changed_by("x > 0.0f ? x : 0.0f", "fmaxf(x, 0.0f)") == through_values);
    CHECK(kernels_changed_by("0.01f * x", "0.02f * x") == through_values);
    CHECK(kernels_changed_by("1.0f + fabsf(x)", "2.0f + fabsf(x)") == through_values);
  }
  SECTION("through a functor parameter: every operator()") {
    CHECK(kernels_changed_by("v * v * v", "v * v") == std::vector<std::string>{"apply_functor", "apply_given"});
  }
  SECTION("a kernel that calls only by name is not widened") {
    CHECK(kernels_changed_by("x[threadIdx.x] *= 2.0f", "x[threadIdx.x] *= 3.0f") ==
          std::vector<std::string>{"plain_scale"});
  }
}

TEST_CASE("revision sources: a file is scanned knowing the kernel and specifier macros of its headers") {
  std::string header = "#pragma once\n#define STAMP(name) __global__ void name(float* p) { p[0] = 1; }\n";
  for (int i = 0; i < 20; ++i) header += "#define SPEC" + std::to_string(i) + " __device__ __forceinline__\n";
  for (const bool many : {false, true}) {
    CAPTURE(many);
    const SourceFiles files{{"defs.cuh", many ? header : header.substr(0, header.find("#define SPEC0"))},
                            {"k.cu", "#include \"defs.cuh\"\nSTAMP(stamped)\n" +
                                         std::string(many ? "SPEC7 float helper(float x) { return x; }\n" : "")},
                            {"other.cu", "__global__ void alone(float* p) { p[0] = 2; }\n"}};
    const RevisionSources sources(files);
    const auto& functions = sources.scanned("k.cu").functions;
    REQUIRE_FALSE(functions.empty());
    CHECK(functions[0].qualified_name == "stamped");
    CHECK(functions[0].from_macro);
    CHECK(functions.size() == (many ? 2u : 1u));
    if (many) CHECK(functions[1].kind == FunctionKind::device);
    CHECK(sources.scanned("other.cu").functions.size() == 1);
  }
}
