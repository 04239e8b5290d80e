// SPDX-License-Identifier: Apache-2.0
// `kforecast capture` without a GPU: its options, the missing library, the environment the
// program gets, the exit code passed on, and the summary printed afterwards.

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <sstream>

#include "capture/injection/capture_files.hpp"
#include "cli/run.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  ExitCode code;
  std::string out, err;
};

Outcome run_cli(std::vector<std::string> args, std::map<std::string, std::string, std::less<>> env = {}) {
  std::ostringstream out, err;
  Context context{out, err, fixed_environment(std::move(env))};
  const ExitCode code = run(args, context);
  return {code, out.str(), err.str()};
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("cli capture: help teaches the command") {
  const auto help = run_cli({"capture", "--help"});
  CHECK(help.code == ExitCode::pass);
  CHECK_THAT(help.out, Contains("usage: kforecast capture [--dir DIR] [--launches-per-shape N] [--bytes B]") &&
                           Contains("CUDA_INJECTION64_PATH") && Contains("cannot replay") &&
                           Contains("kforecast capture -- ./build/kernel_test"));
  CHECK_THAT(run_cli({"--help"}).out, Contains("capture"));
}

TEST_CASE("cli capture: mistakes are usage errors") {
  const auto no_command = run_cli({"capture"});
  CHECK(no_command.code == ExitCode::usage);
  CHECK_THAT(no_command.err, Contains("needs the program to run after '--'"));
  const auto bad_count = run_cli({"capture", "--launches-per-shape", "many", "--", "true"});
  CHECK(bad_count.code == ExitCode::usage);
  CHECK_THAT(bad_count.err, Contains("--launches-per-shape 'many'"));
  const auto typo = run_cli({"capture", "--byte", "1G", "--", "true"});
  CHECK(typo.code == ExitCode::usage);
  CHECK_THAT(typo.err, Contains("did you mean '--bytes'"));
}

TEST_CASE("cli capture: a missing injection library is a clear error, and the program does not run") {
  testing::TempDir dir;
  const auto marker = dir.path() / "ran";
  // The test binary has no library beside it, and no install tree above it.
  const auto missing = run_cli({"capture", "--dir", dir.path().string(), "--", "touch", marker.string()});
  CHECK(missing.code == ExitCode::could_not_run);
  CHECK_THAT(missing.err, Contains("kforecast: error: the injection library libkforecast_capture.so was found neither "
                                   "beside kforecast") &&
                              Contains("--target kforecast_capture"));
  CHECK_FALSE(fs::exists(marker));
}

TEST_CASE("cli capture: the program gets the library and the limits, and its exit code passes on") {
  testing::TempDir dir;
  const auto library = dir.path() / "libkforecast_capture.so";
  std::ofstream(library) << "not loaded: the program below uses no CUDA";
  const auto captures = dir.path() / "captures";
  const auto seen = dir.path() / "env.txt";
  const auto result =
      run_cli({"capture", "--dir", captures.string(), "--launches-per-shape", "2", "--bytes", "1M", "--kernels",
               "*sum*", "--", "sh", "-c",
               "echo \"$CUDA_INJECTION64_PATH|$KFORECAST_CAPTURE_DIR|$KFORECAST_CAPTURE_LAUNCHES_PER_SHAPE|"
               "$KFORECAST_CAPTURE_BYTES|$KFORECAST_CAPTURE_KERNELS|$CUDA_MODULE_LOADING\" > \"$0\"; exit 5",
               seen.string()},
              {{"KFORECAST_CAPTURE_LIBRARY", library.string()}});
  CHECK(static_cast<int>(result.code) == 5);
  CHECK(read_file(seen) == library.string() + "|" + captures.string() + "|2|1048576|*sum*|EAGER\n");
  CHECK(fs::is_directory(captures));
  CHECK_THAT(result.err, Contains("recording kernel launches (*sum*) of 'sh -c") &&
                             Contains("no launch was captured") && Contains("the program exited with status 5"));
  CHECK(result.out.empty());  // standard output is the program's
}

TEST_CASE("cli capture: the summary lists what the folder holds") {
  testing::TempDir dir;
  const auto library = dir.path() / "libkforecast_capture.so";
  std::ofstream(library) << "";
  const auto captures = dir.path() / "captures";
  capture::injection::LaunchRecord record{.mangled = "_Z4spanS_", .demangled = "span(Span)"};
  record.layout_known = true;
  record.parameters.push_back(
      capture::injection::ParameterRecord{.slot = {0, 0, 16},
                                          .kind = capture::injection::ParameterKind::pointer_inside,
                                          .bytes = std::vector<std::byte>(16)});
  REQUIRE(capture::injection::write_capture(captures.string(), record, {}).empty());
  const auto result =
      run_cli({"capture", "--dir", captures.string(), "--", "true"}, {{"KFORECAST_CAPTURE_LIBRARY", library.string()}});
  CHECK(result.code == ExitCode::pass);
  CHECK_THAT(result.err, Contains("kforecast capture: 1 kernel, 1 launch kept") &&
                             Contains("span(Span): cannot replay: pointer inside argument 0"));
}
