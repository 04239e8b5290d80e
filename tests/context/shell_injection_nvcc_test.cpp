// SPDX-License-Identifier: Apache-2.0
// The real nvcc on what the allow-list lets through from generated hostile defines, folders and
// flags (support/shell_payloads.hpp). It runs unconfined here, with a PATH of shims that record
// every program a shell starts by name, so an injection would leave a marker file or a record:
// nothing but nvcc's own stages may run, and no marker may appear.
#include <fstream>

#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "context/compile_context.hpp"
#include "context/flag_filter.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/shell_payloads.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::context;

std::optional<std::string> kforecast::testing::missing_requirement() { return testing::missing_nvcc(); }

namespace {

// A shim for each program a payload or nvcc may start through PATH: it records its name, then
// runs the real one where there is one.
void write_shims(const std::filesystem::path& folder, const std::filesystem::path& log) {
  std::filesystem::create_directories(folder);
  for (const char* name : {"touch", "curl", "wget", "id", "sh", "bash", "cat", "env", "nc", "python3", "printf", "gcc",
                           "g++", "cc", "c++"}) {
    const auto path = folder / name;
    std::ofstream(path) << "#!/bin/sh\necho " << name << " >> '" << log.string() << "'\n"
                        << "[ -x /usr/bin/" << name << " ] && exec /usr/bin/" << name << " \"$@\"\nexit 0\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  }
}

std::vector<std::string> recorded(const std::filesystem::path& log) {
  std::vector<std::string> names;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);)
    if (std::ranges::find(names, line) == names.end()) names.push_back(line);
  return names;
}

}  // namespace

TEST_CASE("shell injection: nvcc given what the allow-list passes of hostile values runs only its own stages") {
  testing::TempDir work;
  const auto log = work.path() / "started.log";
  write_shims(work.path() / "shims", log);
  std::ofstream(work.path() / "k.cu") << "__global__ void k(int* p) { *p = 1; }\n";

  const auto values = testing::shell_payloads(11, 150);
  std::vector<std::string> arguments;
  for (std::size_t i = 0; i < values.size(); ++i) {
    arguments.push_back(fmt::format("-DKF_P{}={}", i, values[i]));
    arguments.push_back("-I" + values[i]);
    arguments.push_back("-Xptxas=" + values[i]);
  }
  CompileContext context;
  add_arguments(arguments, FolderPlace{work.path(), work.path()},
                FolderLookup{[](const std::filesystem::path& folder) { return std::optional(folder); }}, context);
  REQUIRE(context.defines.size() > 10);  // the harmless string values pass
  REQUIRE(context.refused.size() > 100);

  std::vector<std::string> argv = {testing::nvcc_for_tests(), "-cubin", "-arch=sm_90"};
  for (auto& argument : nvcc_arguments(context)) argv.push_back(std::move(argument));
  argv.insert(argv.end(), {"-o", "k.cubin", "k.cu"});
  ProcessOptions options;
  options.working_directory = work.path().string();
  options.timeout = std::chrono::seconds(300);
  options.environment = std::vector<std::string>{"PATH=" + (work.path() / "shims").string() + ":/usr/bin:/bin",
                                                 "HOME=" + work.path().string(), "TMPDIR=" + work.path().string()};
  const auto ran = run_process(argv, options);
  REQUIRE(ran);
  INFO(ran->out << ran->err);
  CHECK(ran->exit_status == 0);
  CHECK(std::filesystem::exists(work.path() / "k.cubin"));
  CHECK_FALSE(std::filesystem::exists(work.path() / "kf_marker"));
  for (const auto& name : recorded(log)) {
    INFO("started: " << name);
    CHECK((name == "gcc" || name == "g++" || name == "cc" || name == "c++"));
  }
}
