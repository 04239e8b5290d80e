// SPDX-License-Identifier: Apache-2.0
#include "kernels/preprocessor.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast::kernels;

namespace {

std::string code_of(const Preprocessed& p) {
  std::string out;
  for (const Token& t : p.code) out += std::string(t.text()) + " ";
  return out;
}

}  // namespace

TEST_CASE("kernels: #if 0 and #if 1 are honoured, other conditions keep every branch") {
  const auto p = preprocess(
      "a\n#if 0\nb\n#if 1\nc\n#endif\n#elif 1\nd\n#else\ne\n#endif\n"
      "#ifdef X\nf\n#else\ng\n#endif\n#if 1\nh\n#else\ni\n#endif\nj");
  CHECK(code_of(p) == "a d f g h j ");
  const auto unknown_then_zero = preprocess("#if N > 2\nk\n#elif 0\nl\n#else\nm\n#endif\n");
  CHECK(code_of(unknown_then_zero) == "k m ");
}

TEST_CASE("kernels: stray and missing #endif do not stop the scan") {
  CHECK(code_of(preprocess("#endif\na\n#else\nb")) == "a b ");
  CHECK(code_of(preprocess("#if 0\na")) == "");
}

TEST_CASE("kernels: #define records name, parameters, body and lines") {
  const auto p = preprocess(
      "#define ONE 1\n#define ADD(a, b) \\\n  ((a) + /* c */ (b))\n#define LOG(fmt, ...) printf(fmt, "
      "__VA_ARGS__)\n#define PAREN (x)\n");
  REQUIRE(p.macros.size() == 4);
  CHECK(p.macros[0].name == "ONE");
  CHECK_FALSE(p.macros[0].function_like);
  CHECK(p.macros[0].body == "1");
  CHECK(p.macros[1].name == "ADD");
  CHECK(p.macros[1].function_like);
  CHECK(p.macros[1].parameters == std::vector<std::string>{"a", "b"});
  CHECK(p.macros[1].body == "((a) + (b))");
  CHECK(p.macros[1].span.first_line == 2);
  CHECK(p.macros[1].span.last_line == 3);
  CHECK(p.macros[2].parameters == std::vector<std::string>{"fmt", "..."});
  CHECK_FALSE(p.macros[3].function_like);  // a space before '(' makes it object-like
  CHECK(p.macros[3].body == "(x)");
  CHECK(p.code.empty());
}

TEST_CASE("kernels: #include records quoted and angled paths, and macros in #if 0 are not recorded") {
  const auto p = preprocess(
      "#include <cuda_fp16.h>\n#include \"local/x.cuh\"\n#include MACRO\n#if 0\n#define DEAD 1\n#include "
      "\"dead.h\"\n#endif\n");
  REQUIRE(p.includes.size() == 2);
  CHECK(p.includes[0].path == "cuda_fp16.h");
  CHECK(p.includes[0].angled);
  CHECK(p.includes[0].line == 1);
  CHECK(p.includes[1].path == "local/x.cuh");
  CHECK_FALSE(p.includes[1].angled);
  CHECK(p.includes[1].line == 2);
  CHECK(p.macros.empty());
}

TEST_CASE("kernels: identifiers of conditions and pragmas are kept for macro use") {
  const auto p = preprocess("#ifdef USE_FAST\n#pragma unroll UNROLL\n#endif\n#if defined(A) && B\n#endif\n");
  std::vector<std::string> names;
  for (const Token& t : p.condition_identifiers) names.emplace_back(t.text());
  CHECK(names == std::vector<std::string>{"USE_FAST", "unroll", "UNROLL", "A", "B"});
}
