// SPDX-License-Identifier: Apache-2.0
// python_tokens: a setup.py's tokens, and which if/elif/else branches a plain CUDA build takes.
#include "context/python_tokens.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;

namespace {

// The not_taken mark of the string token `text`.
std::string mark_of(const std::vector<PythonToken>& tokens, std::string_view text) {
  for (const auto& token : tokens)
    if (token.kind == PythonToken::Kind::string && token.text == text) return token.not_taken.empty() ? "taken" : token.not_taken;
  return "absent";
}

}  // namespace

TEST_CASE("python tokens: lines, columns and logical line starts") {
  const auto tokens = python_tokens("x = [\n    'a',\n]  # note\nif y:\n  z = 1\n");
  REQUIRE(tokens.size() == 12);
  CHECK(tokens[0].line_start);
  CHECK(tokens[0].column == 0);
  CHECK(tokens[3].text == "a");
  CHECK(tokens[3].line == 2);
  CHECK(tokens[3].column == 4);
  CHECK_FALSE(tokens[3].line_start);  // inside the brackets
  CHECK(tokens[6].text == "if");
  CHECK(tokens[6].line_start);
  CHECK(tokens[9].text == "z");
  CHECK(tokens[9].line_start);
  CHECK(tokens[9].column == 2);
}

TEST_CASE("python tokens: nested branches and the statements after them") {
  const auto tokens = python_tokens(R"(
if os.environ.get("DEBUG_BUILD"):
    a = "debug"
    if is_rocm:
        b = "rocm-in-debug"
c = "after"
if not IS_ROCM:
    d = "cuda"
else:
    e = "rocm"
if os.getenv("ARCH", "native") != "native":
    f = "custom-arch"
if platform == "rocm":
    g = "rocm-by-name"
elif flag and other:
    h = "unknown"
else:
    i = "after-unknown"
)");
  CHECK(mark_of(tokens, "debug") == "in a branch not taken unless the environment sets DEBUG_BUILD");
  CHECK(mark_of(tokens, "rocm-in-debug") != "taken");
  CHECK(mark_of(tokens, "after") == "taken");
  CHECK(mark_of(tokens, "cuda") == "taken");
  CHECK(mark_of(tokens, "rocm") == "in a ROCm (HIP) branch");
  CHECK(mark_of(tokens, "custom-arch") == "in a branch not taken unless the environment sets ARCH");
  CHECK(mark_of(tokens, "rocm-by-name") == "in a ROCm (HIP) branch");
  CHECK(mark_of(tokens, "unknown") == "taken");
  CHECK(mark_of(tokens, "after-unknown") == "taken");
}

TEST_CASE("python tokens: and, or, and conditional expressions") {
  // flash-attention's shape, written for this test: a ROCm test and-ed with an opt-out, and a
  // variable assigned a conditional expression.
  const auto tokens = python_tokens(R"(
SKIP_BUILD = os.getenv("SKIP_CUDA_BUILD", "FALSE") == "TRUE"
SKIP_CK = os.getenv("SKIP_CK_BUILD", "TRUE") == "TRUE" if USE_TRITON else False
if not SKIP_BUILD and not IS_ROCM:
    a = "cuda"
elif not SKIP_BUILD and IS_ROCM:
    b = "rocm"
    if not SKIP_CK:
        c = "ck"
if SKIP_BUILD or os.getenv("FORCE", "1") == "1":
    d = "forced-by-default"
if detect() or IS_ROCM:
    e = "unknown-or-rocm"
)");
  CHECK(mark_of(tokens, "cuda") == "taken");
  CHECK(mark_of(tokens, "rocm") == "in a ROCm (HIP) branch");
  CHECK(mark_of(tokens, "ck") == "in a ROCm (HIP) branch");
  CHECK(mark_of(tokens, "forced-by-default") == "taken");
  CHECK(mark_of(tokens, "unknown-or-rocm") == "taken");
}

TEST_CASE("python tokens: bad input gives tokens, never a crash") {
  CHECK(python_tokens("").empty());
  CHECK_NOTHROW(python_tokens("if (:\n  'x'\nelse\n)))\n"));
  CHECK_NOTHROW(python_tokens("else:\n  'x'\nelif:\n"));
  CHECK(python_tokens("'''never closed").size() == 1);
  CHECK(mark_of(python_tokens("if os.getenv(:\n    'x'\n"), "x") == "taken");
}
