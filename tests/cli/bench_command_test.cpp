// SPDX-License-Identifier: Apache-2.0
// `kforecast bench` up to the GPU: the pair, the sources (files and git revisions), the spec and
// every usage mistake, with the driver pointed at a library that does not exist so the result
// is the same with or without a GPU. Measurements on a GPU: tests/bench/bench_gpu_test.cpp.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "capture/recorded_capture.hpp"
#include "cli/run.hpp"
#include "support/fixture_repo.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;

namespace {

struct Outcome {
  ExitCode code;
  std::string out, err;
};

Outcome bench(std::vector<std::string> args) {
  std::ostringstream out, err;
  Context context{out, err, fixed_environment({{"KFORECAST_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1"}})};
  args.insert(args.begin(), "bench");
  const ExitCode code = run(args, context);
  return {code, out.str(), err.str()};
}

constexpr std::string_view kernel_v1 = R"cuda(// kforecast:
// sizes = [{ n = 4096 }]
// grid = ["ceil_div(n, 256)"]
// block = [256]
// [kernel.args]
// x = { count = "n" }
// y = { count = "n", role = "out" }
// n = "n"
__global__ void scale(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
__global__ void nospec(const float* x, float* y, int n) {}
)cuda";

}  // namespace

TEST_CASE("cli bench: usage mistakes exit 2 and say what to write") {
  CHECK_THAT(bench({}).err, Contains("takes one FILE:KERNEL"));
  CHECK(bench({}).code == ExitCode::usage);
  const std::string file = std::string(KF_SOURCE_DIR) + "/fixtures/bench/copy.cu";
  auto no_reference = bench({file + ":copy"});
  CHECK(no_reference.code == ExitCode::usage);
  CHECK_THAT(no_reference.err, Contains("--vs FILE[:KERNEL]"));
  CHECK_THAT(bench({file, "--vs", file}).err, Contains("name the kernel as FILE:KERNEL"));
  CHECK_THAT(bench({file + ":copy", "--vs", file, "--format", "xml"}).err, Contains("--format xml: expected text or json"));
  CHECK_THAT(bench({"/nonexistent.cu:k", "--vs", file}).err, Contains("/nonexistent.cu: no such file"));
  auto typo = bench({file + ":cpy", "--vs", file + ":copy"});
  CHECK(typo.code == ExitCode::usage);
  CHECK_THAT(typo.err, Contains("no __global__ kernel 'cpy' (did you mean 'copy'?)"));
}

TEST_CASE("cli bench: --repeat takes a count and needs --in-process --format json") {
  const std::string file = std::string(KF_SOURCE_DIR) + "/fixtures/bench/copy.cu:copy";
  for (const std::string count : {"0", "x", "3x", "10001"}) {
    auto bad = bench({file, "--vs", file, "--in-process", "--format", "json", "--repeat", count});
    CAPTURE(count);
    CHECK(bad.code == ExitCode::usage);
    CHECK_THAT(bad.err, Contains("--repeat: '" + count + "' is not a count from 1 to 10000"));
  }
  auto child = bench({file, "--vs", file, "--format", "json", "--repeat", "3"});
  CHECK(child.code == ExitCode::usage);
  CHECK_THAT(child.err, Contains("--repeat needs --in-process and --format json"));
  auto text = bench({file, "--vs", file, "--in-process", "--repeat", "3"});
  CHECK(text.code == ExitCode::usage);
  // A good request gets as far as the GPU, which this test's driver path lacks.
  auto good = bench({file, "--vs", file, "--in-process", "--format", "json", "--repeat", "3"});
  CHECK(good.code == ExitCode::could_not_run);
  CHECK_THAT(good.err, Contains("libcuda.so.1"));
  // The confirming child's option is known, and the request gets as far as the GPU too.
  auto confirming = bench({file, "--vs", file, "--in-process", "--confirming"});
  CHECK(confirming.code == ExitCode::could_not_run);
}

TEST_CASE("cli bench: --against with --vs measures against another file's kernel at the revision") {
  // A kernel renamed and moved since the base: the base has only the old file and name, so the
  // command pr prints for it names them with --vs (a vLLM fork's advance_step_kernel rename).
  testing::FixtureRepo repo;
  repo.write("k.cu", kernel_v1);
  repo.git({"add", "-A"});
  repo.git({"commit", "-q", "-m", "v1"});
  std::string renamed(kernel_v1);
  renamed.replace(renamed.find("void scale("), 11, "void scale_fast(");
  repo.git({"rm", "-q", "k.cu"});
  repo.write("fast.cu", renamed);
  const std::string file = (repo.path() / "fast.cu").string();
  const std::string old_file = (repo.path() / "k.cu").string();

  auto renamed_pair = bench({file + ":scale_fast", "--against", "HEAD", "--vs", old_file + ":scale", "--in-process"});
  INFO(renamed_pair.err);
  CHECK(renamed_pair.code == ExitCode::could_not_run);  // both sides found: only the GPU is missing
  CHECK_THAT(renamed_pair.err, Contains("libcuda.so.1"));

  auto new_name_only = bench({file + ":scale_fast", "--against", "HEAD", "--in-process"});
  CHECK(new_name_only.code == ExitCode::usage);
  CHECK_THAT(new_name_only.err, Contains("fast.cu does not exist at HEAD"));

  auto wrong_old_name = bench({file + ":scale_fast", "--against", "HEAD", "--vs", old_file + ":scal", "--in-process"});
  CHECK(wrong_old_name.code == ExitCode::usage);
  CHECK_THAT(wrong_old_name.err, Contains("no __global__ kernel 'scal' (did you mean 'scale'?)"));
}

TEST_CASE("cli bench: a pair with a spec gets as far as the GPU, and without one says how to add it") {
  testing::FixtureRepo repo;
  repo.write("k.cu", kernel_v1);
  repo.git({"add", "-A"});
  repo.git({"commit", "-q", "-m", "v1"});
  std::string v2(kernel_v1);
  v2.replace(v2.find("2 * x[i]"), 8, "x[i] + x[i]");
  repo.write("k.cu", v2);
  const std::string file = (repo.path() / "k.cu").string();

  auto against = bench({file + ":scale", "--against", "HEAD", "--in-process"});
  INFO(against.err);
  CHECK(against.code == ExitCode::could_not_run);
  CHECK_THAT(against.err, Contains("libcuda.so.1"));

  auto missing_revision = bench({file + ":scale", "--against", "no-such-rev", "--in-process"});
  CHECK(missing_revision.code != ExitCode::pass);
  CHECK_THAT(missing_revision.err, Contains("no-such-rev"));

  auto no_spec = bench({file + ":nospec", "--vs", file + ":nospec", "--in-process"});
  CHECK(no_spec.code == ExitCode::usage);
  CHECK_THAT(no_spec.err, Contains("no launch spec for kernel 'nospec' and no capture of it in .kforecast/captures: "
                                    "add a '// kforecast:' comment block"));
  CHECK_THAT(no_spec.err, Contains("`kforecast spec suggest " + file + ":nospec` drafts one"));
  CHECK_THAT(no_spec.err, Contains("`kforecast capture -- COMMAND`"));

  // A capture of it in capture.dir, at the root of the file's repository, takes the spec's place.
  auto recorded = testing::copy_capture(4096, "nospec");
  const auto capture_folder = repo.path() / ".kforecast" / "captures" / capture::kernel_folder_name(recorded.kernel.mangled);
  const auto capture_file = testing::write_capture(capture_folder, recorded, "nospec-0");
  auto replayed = bench({file + ":nospec", "--vs", file + ":nospec", "--in-process"});
  INFO(replayed.err);
  CHECK(replayed.code == ExitCode::could_not_run);  // as far as the GPU
  CHECK_THAT(replayed.err, Contains("libcuda.so.1"));

  // A bad capture file is a usage error naming the file and the field, before any GPU work.
  std::ofstream(capture_file) << "{\"kforecast_capture\": 1, \"kernel\": {\"mangled\": \"_Z6nospecPKfPfi\", "
                                 "\"demangled\": \"nospec(float const*, float*, int)\"}}";
  auto bad = bench({file + ":nospec", "--vs", file + ":nospec", "--capture", capture_file.string()});
  CHECK(bad.code == ExitCode::usage);
  CHECK_THAT(bad.err, Contains("nospec-0.json: launch: missing"));
}
// The child process path re-executes the kforecast binary itself; tests/bench/bench_gpu_test.cpp
// drives it through the binary.
