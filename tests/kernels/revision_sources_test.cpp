// SPDX-License-Identifier: Apache-2.0
// RevisionSources::resolve_include: a local header found the way a build with the project's
// include folders finds it, inferred from the tree alone, and nothing guessed where it is unsure.
#include "kernels/revision_sources.hpp"

#include <catch2/catch.hpp>

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
