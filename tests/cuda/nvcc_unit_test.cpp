// SPDX-License-Identifier: Apache-2.0
// Reading nvcc's dependency files.
#include "cuda/nvcc_unit.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::cuda;
using Files = std::vector<std::string>;

TEST_CASE("nvcc depfile: the prerequisites of the first rule, continuations and escapes undone") {
  CHECK(parse_depfile("/tmp/x/unit.cubin : src/k.cu \\\n    include/lib/common.h \\\n    /usr/include/stdio.h\n") ==
        Files{"src/k.cu", "include/lib/common.h", "/usr/include/stdio.h"});
  CHECK(parse_depfile("out.cubin: a\\ b.h c$$d.h\n\na.h:\n") == Files{"a b.h", "c$d.h"});
  CHECK(parse_depfile("out.cubin: one.cu two.h\r\n") == Files{"one.cu", "two.h"});
}

TEST_CASE("nvcc depfile: text without a rule gives no files, and nothing is read past the text") {
  CHECK(parse_depfile("").empty());
  CHECK(parse_depfile("no rule here").empty());
  CHECK(parse_depfile("target:").empty());
  CHECK(parse_depfile("t: \\").empty());
  CHECK(parse_depfile("t: a\\") == Files{"a"});
  CHECK(parse_depfile(std::string_view("t: a\0b", 6)) == Files{std::string("a\0b", 3)});
}
