// SPDX-License-Identifier: Apache-2.0
// measure_jobs: each kernel to measure with both sides' files, build and name. A template kernel
// whose own file instantiates it nowhere (a header's, launched by a runner) is measured at the
// instantiation the project's build made; it could not be measured at all ("is a template; name
// an instantiation"), and so never reached capture.command either.
#include "gate/pr_bench.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;

namespace {

const std::string header =
    "#pragma once\ntemplate <int N> __global__ void tiled(float* p) { p[threadIdx.x] *= N; }\n"
    "template <int N> __global__ void own(float* p) { p[threadIdx.x] += N; }\n"
    "template __global__ void own<4>(float*);\n"
    "__global__ void plain(float* p) { p[threadIdx.x] = 1.0f; }\n";

gate::KernelCase case_of(const std::string& name, builds::Instances instances) {
  const kernel_changes::KernelSite site{"src/k.cuh", name, 2, 0};
  gate::KernelCase kernel_case{{kernel_changes::KernelChange::modified, site, site, {}}, {}, {}, {}, std::move(instances)};
  return kernel_case;
}

}  // namespace

TEST_CASE("measure jobs: a template instantiated only elsewhere is measured at the instantiation the build made") {
  const kernels::SourceFiles files{{"src/k.cuh", header},
                                   {"src/run.cu", "#include \"k.cuh\"\nvoid run(float* p) { tiled<32><<<1, 32>>>(p); }\n"}};
  const kernels::RevisionSources base(files), head(files);
  const std::vector<gate::KernelCase> cases{case_of("tiled", {"tiled<32>", "tiled<16>", {"tiled<64>"}}),
                                            case_of("own", {"own<8>", "own<8>", {"own<4>"}}),
                                            case_of("plain", {"plain<1>", "plain<1>", {}}), case_of("tiled", {})};
  const std::vector<std::size_t> all{0, 1, 2, 3};
  const auto jobs = gate::measure_jobs(all, base, head, cases);
  REQUIRE(jobs.size() == 4);
  CHECK(jobs[0].base.kernel == "tiled<32>");  // each side at its own build's instantiation
  CHECK(jobs[0].head.kernel == "tiled<16>");
  CHECK(jobs[1].head.kernel == "own");    // its file instantiates it: that one is measured, as before
  CHECK(jobs[2].head.kernel == "plain");  // not a template
  CHECK(jobs[3].head.kernel == "tiled");  // no build found one: the child says what to do
  CHECK(jobs[0].head.file == "src/k.cuh");
  // The build's other instantiations, for captures that launched one of those instead.
  CHECK(jobs[0].other_instances == std::vector<std::string>{"tiled<64>"});
  CHECK(jobs[1].other_instances.empty());  // measured by its own name: nothing to try in its place
}
