// SPDX-License-Identifier: Apache-2.0
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "cli/run.hpp"
#include "kforecast_version.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {
struct Outcome {
  ExitCode code;
  std::string out, err;
};
Outcome run_cli(std::initializer_list<std::string> args, std::map<std::string, std::string, std::less<>> env = {}) {
  std::ostringstream out, err;
  Context context{out, err, fixed_environment(std::move(env))};
  const std::vector<std::string> list(args);
  const ExitCode code = run(list, context);
  return {code, out.str(), err.str()};
}
}  // namespace

TEST_CASE("cli: version and help") {
  auto version = run_cli({"--version"});
  CHECK(version.code == ExitCode::pass);
  CHECK(version.out == fmt::format("kforecast {}\n", kforecast::version));
  CHECK(run_cli({"-V"}).out == version.out);
  auto help = run_cli({"--help"});
  CHECK(help.code == ExitCode::pass);
  CHECK_THAT(help.out, StartsWith("kforecast "));
  CHECK(help.err.empty());
  auto help_doctor = run_cli({"help", "doctor"});
  CHECK(help_doctor.code == ExitCode::pass);
  CHECK_THAT(help_doctor.out, StartsWith("usage: kforecast doctor"));
  CHECK(run_cli({"doctor", "--help"}).out == help_doctor.out);
}

TEST_CASE("cli: mistakes exit 2 with 'kforecast: error:'") {
  auto none = run_cli({});
  CHECK(none.code == ExitCode::usage);
  CHECK_THAT(none.err, Contains("kforecast: error: no command given"));
  auto typo = run_cli({"bnech"});
  CHECK(typo.code == ExitCode::usage);
  CHECK(typo.out.empty());
  CHECK_THAT(typo.err, StartsWith("kforecast: error: unknown command 'bnech' (did you mean 'bench'?)"));
  auto help_typo = run_cli({"help", "doctr"});
  CHECK(help_typo.code == ExitCode::usage);
  CHECK_THAT(help_typo.err, Contains("did you mean 'doctor'?"));
  auto bad_flag = run_cli({"--verison"});
  CHECK(bad_flag.code == ExitCode::usage);
  CHECK_THAT(bad_flag.err, Contains("unknown option '--verison'"));
  CHECK(run_cli({"config", "extra"}).code == ExitCode::usage);
  CHECK(run_cli({"doctor", "--repo", "/nonexistent/dir"}).code == ExitCode::usage);
}

TEST_CASE("cli: check on a missing file is a usage error, and its help works") {
  auto check = run_cli({"check", "/nonexistent/k.cu:k"});
  CHECK(check.code == ExitCode::usage);
  CHECK_THAT(check.err, Contains("/nonexistent/k.cu: no such file"));
  CHECK(run_cli({"check", "--help"}).code == ExitCode::pass);
}

TEST_CASE("cli: config prints the effective configuration") {
  auto config = run_cli({"config", "--repo", "/"}, {{"KFORECAST_NVRTC_LIBRARY", "/x/libnvrtc.so"}});
  CHECK(config.code == ExitCode::pass);
  CHECK_THAT(config.out, Contains("nvrtc_library = \"/x/libnvrtc.so\"  # from $KFORECAST_NVRTC_LIBRARY"));
  auto bad_env = run_cli({"config", "--repo", "/"}, {{"KFORECAST_FORECASTER", "gpt"}});
  CHECK(bad_env.code == ExitCode::usage);
  CHECK_THAT(bad_env.err, Contains("KFORECAST_FORECASTER"));
}

TEST_CASE("cli: config checks every launch spec and fails on one that would not read") {
  kforecast::testing::TempDir directory;
  const auto file = directory.path() / "kf.toml";
  std::ofstream(file) << "[[kernel]]\nname = \"k\"\nsizes = [{ n = 1 }]\ngrid = [1]\nblock = [1]\nbogus = 3\n";
  auto bad = run_cli({"config", "--repo", "/", "--config", file.string()});
  CHECK(bad.code == ExitCode::usage);
  CHECK_THAT(bad.err, Contains("kf.toml:6:1: [[kernel]] 'k': unknown key 'bogus'"));
  CHECK_THAT(bad.err, Contains("1 launch spec problem"));
  CHECK_THAT(bad.out, Contains("# launch specs: 0 [[kernel]] tables"));
}
