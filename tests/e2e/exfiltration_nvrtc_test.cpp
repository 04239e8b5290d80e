// SPDX-License-Identifier: Apache-2.0
// The exfiltration suite: a pull request's kernel tries every way we know to make kforecast read
// a secret (its environment, the runner's files, the checkout's token in .git/config) and show
// it in what it writes. A run as a CI job (`pr --post` with the Actions environment) must leave
// no secret in the PR comment, the step summary, the outputs, the report files, standard output
// or standard error. Skipped (exit 77) where NVRTC is not installed: without a compiler nothing
// reads an include.
#include <catch2/catch.hpp>

#include <filesystem>

#include "base/process_confinement.hpp"
#include "base/sandbox_status.hpp"
#include "gate_job.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvrtc(); }

namespace {

constexpr const char* api_key = "sk-exfiltration-api-key-5150";
constexpr const char* custom_secret = "custom-deploy-secret-8086";

// Fragments that would show a secret or a file of the runner in clear.
const std::vector<std::string>& forbidden() {
  static const std::vector<std::string> texts = {PullRequestJob::token, api_key,         custom_secret, "root:x:0:0",
                                                 "PATH=/usr/local/bin", "x-access-token"};
  return texts;
}

struct Attack {
  std::string name;
  std::string kernel_file;  // the head's version of kernels/k.cu
  std::string refusal;      // what the report must say, "" where a plain compile error is enough
  // Where nvcc compiles (it reads the tree itself, confined by Landlock), what it says instead:
  // a computed include cannot be checked before it runs, and is stopped by the confinement.
  std::string confined_refusal = {};
};

std::vector<Attack> attacks() {
  const std::string body = "__global__ void k(float* a) { a[threadIdx.x] += 1.0f; }\n";
  return {
      {"/proc/self/environ", "#include \"/proc/self/environ\"\n" + body, "absolute path '/proc/self/environ'"},
      {"/proc/1/environ", "#include \"/proc/1/environ\"\n" + body, "absolute path '/proc/1/environ'"},
      {"/proc/self/cmdline", "#include </proc/self/cmdline>\n" + body, "absolute path '/proc/self/cmdline'"},
      {"/etc/passwd", "#include \"/etc/passwd\"\n" + body, "absolute path '/etc/passwd'"},
      {"climbing ..", "#include \"../../../../../../../../../../etc/passwd\"\n" + body, "climbs with '..'"},
      {".git/config", "#include \"../.git/config\"\n" + body, "names a file inside .git"},
      {".git/config from the root", "#include \".git/config\"\n" + body, "names a file inside .git"},
      {"computed include", "#define F \"/proc/self/environ\"\n#include F\n" + body, "computed include 'F'",
       "/proc/self/environ: Permission denied"},
      {"spliced directive", "#inc\\\nlude \"/proc/self/environ\"\n" + body, "absolute path"},
      {"#embed", "const char e[] = {\n#embed \"/proc/self/environ\"\n};\n" + body, "#embed"},
      {"__has_include probe", "#if __has_include(\"/proc/self/environ\")\n#error found\n#endif\n" + body,
       "absolute path"},
      {"a committed symlink", "#include \"env.cuh\"\n" + body, ""},
  };
}

void commit_attack(FixtureRepo& repo, const Attack& attack) {
  repo.write(".kforecast.toml", "[cuda]\narch = \"sm_90\"\n[security]\nsecret_env = [\"DEPLOY_KEY_VALUE\"]\n");
  repo.write("kernels/k.cu", "__global__ void k(float* a) { a[threadIdx.x] *= 2.0f; }\n");
  repo.commit("base");
  repo.write("kernels/k.cu", attack.kernel_file);
  std::filesystem::create_symlink("/proc/self/environ", repo.path() / "kernels/env.cuh");
  repo.git({"add", "-A"});
  repo.commit("head");
  // What actions/checkout leaves in the clone: the token, in .git/config.
  repo.git({"config", "http.https://github.com/.extraheader",
            "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX2UyZV90b2tlbl9uZXZlcl9zaG93bg=="});
}

void check_nothing_secret(const std::vector<std::pair<std::string, std::string>>& places) {
  for (const auto& [place, text] : places)
    for (const auto& secret : forbidden()) {
      INFO(place << " must not contain " << secret);
      CHECK(text.find(secret) == std::string::npos);
    }
}

}  // namespace

TEST_CASE("e2e exfiltration: no include trick puts a secret in anything kforecast writes") {
  const bool sandboxed = probe_sandbox(KF_BINARY).confines_untrusted_code();
  for (const auto& attack : attacks()) {
    DYNAMIC_SECTION(attack.name) {
      PullRequestJob job([&](FixtureRepo& repo) { commit_attack(repo, attack); });
      // The attacker is a fork. Where this machine cannot sandbox a fork's code, kforecast does
      // not compile it at all (e2e/sandbox_test.cpp); a member's is compiled all the same, so the
      // attack still reaches the include checks, which are what this suite tests.
      job.name_author(sandboxed ? PullRequestJob::Author::fork : PullRequestJob::Author::member);
      const auto report = job.runner.path() / "report.json";
      const auto sarif = job.runner.path() / "report.sarif";
      const std::vector<std::string> env = {std::string("KFORECAST_API_KEY=") + api_key,
                                            std::string("DEPLOY_KEY_VALUE=") + custom_secret};
      auto run = job.run({"--format", "json", "--output", report.string()}, env);
      INFO(run.out << run.err);
      CHECK(run.status == 1);  // a head kforecast may not compile fails the gate
      auto sarif_run = job.run({"--format", "sarif", "--output", sarif.string()}, env);
      check_nothing_secret({{"stdout", run.out + sarif_run.out},
                            {"stderr", run.err + sarif_run.err},
                            {"comment", job.comment()},
                            {"summary", job.summary()},
                            {"outputs", job.outputs()},
                            {"json report", read_text(report)},
                            {"sarif report", read_text(sarif)}});
      if (!attack.refusal.empty()) {
        const bool nvcc_confined = !kforecast::testing::missing_nvcc().has_value() && !attack.confined_refusal.empty() &&
                                   kforecast::file_confinement_support().files_confined;
        CHECK_THAT(job.comment(), Contains(nvcc_confined ? attack.confined_refusal : attack.refusal));
      }
    }
  }
}

TEST_CASE("e2e exfiltration: lint of a work tree never follows a symlink out of it") {
  FixtureRepo repo;
  repo.write("kernels/k.cu", "#include \"env.cuh\"\n__global__ void k(float* a) { a[0] = 1.0f; }\n");
  std::filesystem::create_symlink("/proc/self/environ", repo.path() / "kernels/env.cuh");
  std::filesystem::create_symlink("/etc/passwd", repo.path() / "kernels/passwd.cu");
  repo.commit("kernels");
  const std::vector<std::string> env = {std::string("GITHUB_TOKEN=") + PullRequestJob::token,
                                        std::string("KFORECAST_API_KEY=") + api_key};
  auto lint = run_kforecast({"lint", "kernels/k.cu"}, repo.path(), env);
  INFO(lint.out << lint.err);
  check_nothing_secret({{"lint stdout", lint.out}, {"lint stderr", lint.err}});
  auto linked = run_kforecast({"lint", "kernels/passwd.cu"}, repo.path(), env);
  CHECK(linked.status == 2);
  CHECK_THAT(linked.err, Contains("symbolic link"));
  check_nothing_secret({{"lint stdout", linked.out}, {"lint stderr", linked.err}});
}

TEST_CASE("e2e exfiltration: credentials in the endpoint URL never reach doctor's output") {
  FixtureRepo repo;
  auto run =
      run_kforecast({"doctor"}, repo.path(), {"KFORECAST_ENDPOINT=https://user:sk-url-secret-7777@llm.example/v1"});
  CHECK_THAT(run.out + run.err, !Contains("sk-url-secret-7777"));
  CHECK_THAT(run.out + run.err, Contains("llm.example"));
}

TEST_CASE("e2e exfiltration: a compiler log of any size stays bounded in the report") {
  PullRequestJob job([](FixtureRepo& repo) {
    repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
    repo.commit("base");
    std::string flood = "__global__ void k(float* a) {\n";
    for (int i = 0; i < 20000; ++i) flood += "  undefined_" + std::to_string(i) + " = 1;\n";
    repo.write("k.cu", flood + "}\n");
    repo.commit("head");
  });
  job.name_author(PullRequestJob::Author::member);  // compiled wherever this runs (e2e/sandbox_test.cpp)
  auto run = job.run({}, {}, 300);
  INFO(run.err);
  CHECK(run.status == 1);
  CHECK(job.comment().size() < 65536);
  CHECK_THAT(job.comment(), Contains("undefined_0"));
  CHECK_THAT(job.comment(), !Contains("undefined_19999"));
}

TEST_CASE("e2e: source that drives the compiler to its limits fails that kernel, never the run") {
  // 30,000 nested braces and a 50,000-term expression crashed NVRTC inside kforecast (exit 139, no
  // report). Compiled in the child, the worst is that kernel's failure; the gate still reports.
  PullRequestJob job([](FixtureRepo& repo) {
    repo.write("k.cu", "__global__ void k(int* o) { o[0] = 1; }\n__global__ void j(int* o) { o[1] = 1; }\n");
    repo.commit("base");
    std::string braces =
        "__global__ void k(int* o) {" + std::string(30000, '{') + "o[0] = 2;" + std::string(30000, '}') + "}\n";
    std::string terms = "__global__ void j(int* o) { o[1] = ";
    for (int i = 0; i < 50000; ++i) terms += (i ? "+o[" : "o[") + std::to_string(i % 64 + 2) + "]";
    repo.write("k.cu", braces + terms + "; }\n");
    repo.commit("head");
  });
  job.name_author(PullRequestJob::Author::member);  // compiled wherever this runs (e2e/sandbox_test.cpp)
  auto run = job.run({}, {}, 300);
  INFO(run.out << run.err);
  CHECK(run.status < 128);
  CHECK(job.comment().starts_with("<!-- kforecast:report -->\n## kforecast:"));
  CHECK_THAT(job.comment(), Contains("`k`") && Contains("`j`"));
}
