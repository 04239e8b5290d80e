// SPDX-License-Identifier: Apache-2.0
// Which preprocessor branches lint treats as compiled by a CUDA build.

#include <catch2/catch.hpp>

#include "lint/conditionals.hpp"

using namespace kforecast::lint;

namespace {

// The identifiers of the live code, space-separated.
std::string live_words(std::string_view text) {
  std::string words;
  for (const auto& token : cuda_live_code(text).code)
    if (token.is_identifier()) words += (words.empty() ? "" : " ") + std::string(token.text());
  return words;
}

}  // namespace

TEST_CASE("lint conditionals: HIP and ROCm switches are off in a CUDA build, however spelled") {
  CHECK(live_words("#ifdef USE_ROCM\nhip\n#else\ncuda\n#endif\n") == "cuda");
  CHECK(live_words("#ifndef USE_ROCM\ncuda\n#endif\n") == "cuda");
  CHECK(live_words("#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)\nhip\n#endif\nafter\n") == "after");
  CHECK(live_words("#if BNB_HIP\nhip\n#elif OTHER\nmaybe\n#else\ncuda\n#endif\n") == "maybe cuda");
  CHECK(live_words("#if ROCM_VERSION >= 50000\nhip\n#endif\n") == "");
  // A word that only contains the letters is not the switch.
  CHECK(live_words("#ifdef CHIP_COUNT\nchips\n#endif\n") == "chips");
}

TEST_CASE("lint conditionals: __CUDA_ARCH__ is a device pass of sm_70 or later, and defined() stays open") {
  CHECK(live_words("#if __CUDA_ARCH__ < 700\nold\n#else\nnew\n#endif\n") == "new");
  CHECK(live_words("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700\nold\n#endif\n") == "");
  CHECK(live_words("#if __CUDA_ARCH__ >= 800\nampere\n#else\nolder\n#endif\n") == "ampere older");
  CHECK(live_words("#if __CUDA_ARCH__ >= 700 || defined(__HIP_PLATFORM_AMD__)\nvolta\n#else\nnone\n#endif\n") ==
        "volta");
  CHECK(live_words("#ifdef __CUDA_ARCH__\ndevice\n#else\nhost\n#endif\n") == "device host");
  CHECK(live_words("#if __CUDA_ARCH__ == 610\npascal\n#endif\n") == "");
}

TEST_CASE("lint conditionals: the toolkit is CUDA 11 or later") {
  CHECK(live_words("#if CUDA_VERSION >= 9000\nsync\n#else\nlegacy\n#endif\n") == "sync");
  CHECK(live_words("#if __CUDACC_VER_MAJOR__ < 9\nlegacy\n#endif\n") == "");
  CHECK(live_words("#if CUDART_VERSION >= 12000\nnew\n#else\nold\n#endif\n") == "new old");
  // Two floored quantities at once are not settled.
  CHECK(live_words("#if CUDA_VERSION < 9000 && __CUDA_ARCH__ < 700\nboth\n#endif\n") == "both");
}

TEST_CASE("lint conditionals: this file's own defines decide, and conflicting or unknown ones keep all branches") {
  CHECK(live_words("#define USE_SHARED 1\n#if USE_SHARED\nshared\n#else\nlocal\n#endif\n") == "shared");
  CHECK(live_words("#define N (2 * 8)\n#if N > 8\nbig\n#endif\n") == "big");
  CHECK(live_words("#define X 1\n#undef X\n#if X\nx\n#endif\n") == "x");  // unknown again after #undef
  CHECK(live_words("#ifdef FAST\n#define W 64\n#endif\n#if W == 64\nwide\n#endif\n") == "wide");
  CHECK(live_words("#if USE_SHARED\nshared\n#else\nlocal\n#endif\n") == "shared local");
  CHECK(live_words("#if 0\nnever\n#elif 1\nalways\n#else\nnever\n#endif\n") == "always");
  CHECK(live_words("#if __has_include(<cuda_fp8.h>)\nfp8\n#endif\n") == "fp8");
}

TEST_CASE("lint conditionals: dead ranges cover the dead branches, nested ones included") {
  const std::string text = "first\n#ifdef USE_ROCM\nsecond\n#if 1\nthird\n#endif\n#else\nfourth\n#endif\nfifth\n";
  const LiveCode live = cuda_live_code(text);
  REQUIRE(live.dead.size() == 1);
  CHECK_FALSE(in_dead_branch(live, text.find("first")));
  CHECK(in_dead_branch(live, text.find("second")));
  CHECK(in_dead_branch(live, text.find("third")));
  CHECK_FALSE(in_dead_branch(live, text.find("fourth")));
  CHECK_FALSE(in_dead_branch(live, text.find("fifth")));
  // Unbalanced directives in hostile input end where the input ends.
  CHECK(cuda_live_code("#if 0\nx\n#else\n#else\ny\n#endif\n#endif\n#elif\nz").code.size() <= 2);
}
