// SPDX-License-Identifier: Apache-2.0
// read_makefile_flags: relocatable device code from a Makefile, read as text.
#include "context/makefile_flags.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;

TEST_CASE("makefile flags: -dc in a rule or a variable gives -rdc=true, with where") {
  // The shapes of Makefile-built CUDA projects with device code across files, written for this test.
  const auto found = read_makefile_flags(R"(NVCC ?= nvcc
NVCCFLAGS = -O3 -arch=sm_90   # -dc here is a comment
%.o: %.cu
	$(NVCC) $(NVCCFLAGS) -dc $< -o $@
)",
                                         "Makefile");
  REQUIRE(found.size() == 1);
  CHECK(found[0].text == "-rdc=true");
  CHECK(found[0].where == "Makefile:4");
  CHECK(read_makefile_flags("FLAGS += --relocatable-device-code=true\n", "makefile").size() == 1);
  CHECK(read_makefile_flags("FLAGS += -rdc=true\n", "Makefile").size() == 1);
}

TEST_CASE("makefile flags: nothing where no word asks for relocatable code") {
  CHECK(read_makefile_flags("", "Makefile").empty());
  CHECK(read_makefile_flags("CFLAGS = -O3 -dce -rdc=false -DX\n# -dc\n", "Makefile").empty());
  CHECK(read_makefile_flags(std::string(100000, '-'), "Makefile").empty());
}
