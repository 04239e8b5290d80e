// SPDX-License-Identifier: Apache-2.0
// The confined runner's command line, both ways, and its refusals.
#include "base/confined_exec.hpp"

#include <sstream>

#include <catch2/catch.hpp>

using namespace kforecast;

TEST_CASE("confined exec: the arguments carry the confinement and the program, and read back the same") {
  Confinement confinement;
  confinement.readable = {"/usr", "/tmp/tree with space"};
  confinement.writable = {"/tmp/scratch"};
  confinement.max_memory_bytes = 1234;
  confinement.max_cpu_seconds = 56;
  const std::vector<std::string> program = {"/usr/bin/nvcc", "--", "-o", "x"};
  const auto arguments = confined_exec_arguments(confinement, program);
  const auto parsed = parse_confined_exec_arguments(arguments);
  REQUIRE(parsed);
  CHECK(parsed->confinement.readable == confinement.readable);
  CHECK(parsed->confinement.writable == confinement.writable);
  CHECK(parsed->confinement.max_memory_bytes == 1234);
  CHECK(parsed->confinement.max_cpu_seconds == 56);
  CHECK(parsed->program == program);  // a "--" among the program's own arguments is its own
}

TEST_CASE("confined exec: a command line without a program, with a relative program or unknown options is refused") {
  using Args = std::vector<std::string>;
  for (const auto& arguments : {Args{}, Args{"--read", "/usr"}, Args{"--read", "/usr", "--"},
                                Args{"--memory", "lots", "--", "/bin/true"}, Args{"--shell", "x", "--", "/bin/true"},
                                Args{"--read"}, Args{"--", "nvcc"}}) {
    const auto parsed = parse_confined_exec_arguments(arguments);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().exit_code == ExitCode::usage);
    CHECK(parsed.error().message.starts_with("__confined-exec: "));
  }
  std::ostringstream err;
  CHECK(run_confined_exec(std::vector<std::string>{"--", "relative"}, err) == static_cast<int>(ExitCode::usage));
  CHECK(err.str().find("must be an absolute path") != std::string::npos);
}
