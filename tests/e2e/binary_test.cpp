// SPDX-License-Identifier: Apache-2.0
// Facts about the shipped binary itself: what it links, and that it starts on a bare machine.

#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "e2e.hpp"

using namespace kforecast;

#ifdef KF_SANITIZED
constexpr bool sanitizer_build = true;
#else
constexpr bool sanitizer_build = false;
#endif
using Catch::Matchers::Contains;

namespace {

// The binary's direct dependencies (DT_NEEDED), not ldd's transitive closure: a library's own
// dependencies are Debian's business, ours are what we link.
std::set<std::string> needed_libraries(const std::string& binary) {
  auto dump = run_process({"objdump", "-p", binary});
  REQUIRE(dump.has_value());
  REQUIRE(dump->exit_status == 0);
  std::set<std::string> needed;
  std::istringstream lines(dump->out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string tag, name;
    if (words >> tag >> name && tag == "NEEDED") needed.insert(name.substr(0, name.find(".so")));
  }
  return needed;
}

}  // namespace

TEST_CASE("e2e: the binary links no CUDA library and nothing beyond its declared dependencies") {
  auto ldd = run_process({"ldd", KF_BINARY});
  REQUIRE(ldd.has_value());
  REQUIRE(ldd->exit_status == 0);
  INFO(ldd->out);
  CHECK_THAT(ldd->out, !Contains("libcuda"));
  CHECK_THAT(ldd->out, !Contains("libnvrtc"));
  CHECK_THAT(ldd->out, !Contains("libcudart"));
  CHECK_THAT(ldd->out, !Contains("not found"));

  if (sanitizer_build) return;  // the sanitizer runtimes add their own libraries
  // Only glibc: fmt, nlohmann/json and the C++ runtime are linked in. libcurl, Debian's,
  // is opened when the first LLM request is made (src/http/libcurl_on_demand.cpp): linked, it and
  // its ~30 libraries were loaded at every start of every command.
  CHECK_THAT(ldd->out, !Contains("libcurl"));
  const std::set<std::string> allowed = {"libc", "libm", "libpthread", "libdl", "librt", "ld-linux-x86-64", "ld-linux-aarch64"};
  for (const auto& library : needed_libraries(KF_BINARY)) {
    INFO(library);
    CHECK(allowed.contains(library));
  }
}
