// SPDX-License-Identifier: Apache-2.0
// warn_of_uncompiled_kernels: what kept kernels from being compiled, once, on the first line.
#include "gate/compile_warnings.hpp"

#include <sstream>

#include <catch2/catch.hpp>

using namespace kforecast;

namespace {

builds::KernelCodeVerdict missing(std::string header) {
  builds::KernelCodeVerdict verdict;
  verdict.missing_context = "missing <" + header + ">";
  return verdict;
}

}  // namespace

TEST_CASE("compile warnings: the header most kernels lacked, with how many lacked others") {
  builds::MachineCodeVerdicts code;
  code.kernels = {missing("cute/tensor.hpp"), missing("cute/tensor.hpp"), missing("nvshmem.h"), {}};
  code.kernels[0].outcome = policy::CodeComparison::both_failed;  // as the nvcc tier reports it
  code.kernels[2].outcome = policy::CodeComparison::head_failed;
  code.kernels.back().outcome = policy::CodeComparison::different;
  gate::GateRun run;
  std::ostringstream err;
  gate::warn_of_uncompiled_kernels(run, code, err);
  REQUIRE(run.warnings.size() == 1);
  CHECK(run.warnings[0].headline == "2 kernels not compiled: <cute/tensor.hpp> not found (1 more for other headers)");
  CHECK(run.warnings[0].detail.find("submodules: recursive") != std::string::npos);
  CHECK(err.str().starts_with("kforecast: warning: 2 kernels not compiled"));
}

TEST_CASE("compile warnings: PyTorch's headers missing, said once with what to do") {
  builds::MachineCodeVerdicts code;
  code.kernels.resize(3);
  code.blocked_kernels = {0, 2};
  code.blocked_reason = "PyTorch's headers not found (setup.py builds a PyTorch CUDAExtension): python3 has no torch";
  gate::GateRun run;
  std::ostringstream err;
  gate::warn_of_uncompiled_kernels(run, code, err);
  REQUIRE(run.warnings.size() == 1);
  CHECK(run.warnings[0].headline ==
        "2 kernels not compiled: PyTorch's headers not found (setup.py builds a PyTorch CUDAExtension)");
  CHECK(run.warnings[0].detail == "python3 has no torch");
}

TEST_CASE("compile warnings: nothing to say where every kernel compiled or failed in its own code") {
  builds::MachineCodeVerdicts code;
  code.kernels.resize(2);
  code.kernels[0].outcome = policy::CodeComparison::identical;
  code.kernels[1].missing_context = "";  // an error in the project's own code
  gate::GateRun run;
  std::ostringstream err;
  gate::warn_of_uncompiled_kernels(run, code, err);
  CHECK(run.warnings.empty());
  CHECK(err.str().empty());
}
