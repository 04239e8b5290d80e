// SPDX-License-Identifier: Apache-2.0
// parse_compile_database: compile_commands.json read as untrusted input.
#include "context/compile_database.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using Strings = std::vector<std::string>;

namespace {

const DatabasePlace place{"/work/repo", "/work/repo/build"};

kforecast::Result<CompileDatabase> parse(std::string_view text) {
  return parse_compile_database(text, "build/compile_commands.json", place);
}

}  // namespace

TEST_CASE("compile database: 'arguments' and 'command' entries, keyed by repository-relative file") {
  auto database = parse(R"([
    {"directory": "/work/repo/build", "file": "/work/repo/src/runner.cu",
     "arguments": ["/usr/local/cuda/bin/nvcc", "-I/work/repo/src", "-c", "/work/repo/src/runner.cu"],
     "output": "runner.o"},
    {"directory": "/work/repo", "file": "train_gpt2.cu",
     "command": "nvcc -c --use_fast_math \"-DNAME=a b\" -DQ='x y' train_gpt2.cu"}
  ])");
  REQUIRE(database);
  CHECK(database->name == "build/compile_commands.json");
  REQUIRE(database->entries.size() == 2);
  const auto& runner = database->entries.at("src/runner.cu");
  CHECK(runner.directory == "/work/repo/build");
  CHECK(runner.arguments == Strings{"/usr/local/cuda/bin/nvcc", "-I/work/repo/src", "-c", "/work/repo/src/runner.cu"});
  CHECK(database->entries.at("train_gpt2.cu").arguments ==
        Strings{"nvcc", "-c", "--use_fast_math", "-DNAME=a b", "-DQ=x y", "train_gpt2.cu"});
  CHECK(database->notes.empty());
}

TEST_CASE("compile database: relative files join the directory, and a relative directory the database's folder") {
  auto database = parse(R"([
    {"directory": "/work/repo/build", "file": "../src/a.cu", "arguments": ["nvcc"]},
    {"directory": "sub", "file": "../../lib/b.cu", "arguments": ["nvcc"]},
    {"directory": "/work/repo/x/../y", "file": "./c.cu", "arguments": ["nvcc"]}
  ])");
  REQUIRE(database);
  CHECK(database->entries.contains("src/a.cu"));
  REQUIRE(database->entries.contains("lib/b.cu"));
  CHECK(database->entries.at("lib/b.cu").directory == "/work/repo/build/sub");
  REQUIRE(database->entries.contains("y/c.cu"));
  CHECK(database->entries.at("y/c.cu").directory == "/work/repo/y");
}

TEST_CASE("compile database: entries for files outside the repository are skipped, with a note") {
  auto database = parse(R"([
    {"directory": "/work/repo", "file": "/usr/local/cuda/samples/x.cu", "arguments": ["nvcc"]},
    {"directory": "/work/repo", "file": "../other/y.cu", "arguments": ["nvcc"]},
    {"directory": "/work/repo", "file": "/work/repository-two/z.cu", "arguments": ["nvcc"]},
    {"directory": "/work/repo", "file": "k.cu", "arguments": ["nvcc"]}
  ])");
  REQUIRE(database);
  CHECK(database->entries.size() == 1);
  CHECK(database->entries.contains("k.cu"));
  CHECK(database->notes == Strings{"build/compile_commands.json: 3 entries for files outside the repository skipped"});
}

TEST_CASE("compile database: the first entry for a file wins, and a note counts the others") {
  auto database = parse(R"([
    {"directory": "/work/repo", "file": "k.cu", "arguments": ["nvcc", "-DFIRST"]},
    {"directory": "/work/repo/build", "file": "../k.cu", "arguments": ["nvcc", "-DSECOND"]},
    {"directory": "/work/repo", "file": "/work/repo/k.cu", "command": "nvcc -DTHIRD"}
  ])");
  REQUIRE(database);
  CHECK(database->entries.at("k.cu").arguments == Strings{"nvcc", "-DFIRST"});
  CHECK(database->notes == Strings{"build/compile_commands.json: 2 further entries for files already listed passed "
                                   "over (the first entry for a file is used)"});
}

TEST_CASE("compile database: an empty array is an empty database") {
  auto database = parse("[]");
  REQUIRE(database);
  CHECK(database->entries.empty());
}

TEST_CASE("compile database: bad JSON and wrong shapes are errors naming the file, the entry and the problem") {
  const auto error_of = [](std::string_view text) {
    auto database = parse(text);
    REQUIRE_FALSE(database);
    CHECK(database.error().exit_code == kforecast::ExitCode::usage);
    return database.error().message;
  };
  CHECK_THAT(error_of("[{"), Catch::StartsWith("build/compile_commands.json: not valid JSON ("));
  CHECK(error_of(R"({"file": "k.cu"})") == "build/compile_commands.json: expected a JSON array of compile commands");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "k.cu", "arguments": ["nvcc"]}, 7])") ==
        "build/compile_commands.json: entry 2: not an object");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": 3, "arguments": []}])") ==
        "build/compile_commands.json: entry 1: 'file' must be a string");
  CHECK(error_of(R"([{"file": "k.cu", "arguments": ["nvcc"]}])") ==
        "build/compile_commands.json: entry 1: 'directory' is missing");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "k.cu"}])") ==
        "build/compile_commands.json: entry 1: neither 'arguments' nor 'command' is given");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "k.cu", "arguments": "nvcc -c"}])") ==
        "build/compile_commands.json: entry 1: 'arguments' must be an array of strings");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "k.cu", "arguments": ["nvcc", 1]}])") ==
        "build/compile_commands.json: entry 1: 'arguments' must be an array of strings");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "k.cu", "arguments": []}])") ==
        "build/compile_commands.json: entry 1: 'arguments' is empty");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "k.cu", "command": "nvcc '-DA"}])") ==
        "build/compile_commands.json: entry 1: 'command' is not a shell command: an unterminated single quote");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "", "command": "nvcc"}])") ==
        "build/compile_commands.json: entry 1: 'file' is empty");
  CHECK(error_of(R"([{"directory": "/work/repo", "file": "k\u0000.cu", "command": "nvcc"}])") ==
        "build/compile_commands.json: entry 1: 'file' holds a NUL byte");
}

TEST_CASE("compile database: a string longer than any build writes is refused") {
  const std::string huge(std::size_t{1} << 21, 'x');
  auto database = parse(R"([{"directory": "/work/repo", "file": "k.cu", "command": "nvcc -D)" + huge + "\"}]");
  REQUIRE_FALSE(database);
  CHECK(database.error().message == "build/compile_commands.json: entry 1: 'command' is longer than 1048576 bytes");
}
