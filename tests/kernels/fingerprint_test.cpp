// SPDX-License-Identifier: Apache-2.0
#include "kernels/fingerprint.hpp"

#include <catch2/catch.hpp>

#include "kernels/scanner.hpp"

using namespace kforecast::kernels;

namespace {

std::uint64_t kernel_fingerprint(const std::string& source) {
  const auto scanned = scan_cuda_source(source);
  REQUIRE(scanned.functions.size() == 1);
  return token_fingerprint(source, scanned.functions[0].whole);
}

const std::string original = "__global__ void k(float* x, int n) {\n  // scale\n  if (n > 0) x[0] *= 2.0f;\n}\n";

}  // namespace

TEST_CASE("kernels: fingerprints ignore comments, whitespace, line endings and continuations") {
  const std::uint64_t base = kernel_fingerprint(original);
  CHECK(kernel_fingerprint("__global__ void k(float* x, int n) {\n  // double it\n  if (n > 0) x[0] *= 2.0f;\n}\n") ==
        base);
  CHECK(kernel_fingerprint("__global__   void k(float*x,int n){if(n>0)x[0]*=2.0f;}") == base);
  CHECK(kernel_fingerprint(
            "__global__ void k(float* x, /* length */ int n) {\r\n  if (n > 0)\r\n    x[0] *= 2.0f;\r\n}\r\n") == base);
  CHECK(kernel_fingerprint("__global__ void k(float* x, int n) \\\n{ if (n > 0) x[0] *= 2.0f; }") == base);
  CHECK(kernel_fingerprint("// a new comment above\n\n" + original) == base);
}

TEST_CASE("kernels: fingerprints change with any token") {
  const std::uint64_t base = kernel_fingerprint(original);
  CHECK(kernel_fingerprint("__global__ void k(float* x, int n) { if (n > 0) x[0] *= 3.0f; }") != base);
  CHECK(kernel_fingerprint("__global__ void k(float* x, int n) { if (n >= 0) x[0] *= 2.0f; }") != base);
  CHECK(kernel_fingerprint("__global__ void k(float* y, int n) { if (n > 0) y[0] *= 2.0f; }") != base);
  CHECK(kernel_fingerprint("__global__ void k(float* x, int n) { if (n > 0) x[1] *= 2.0f; }") != base);
  CHECK(kernel_fingerprint("__global__ void k(float* x, int n) { if (n > 0) x[0] *= 2.0f; ; }") != base);
  // Whitespace inside a string literal is content.
  CHECK(token_fingerprint("\"a b\"", Span{0, 5}) != token_fingerprint("\"a  b\"", Span{0, 6}));
  // Where tokens split matters: "a b" is two tokens, "ab" one.
  CHECK(token_fingerprint("a b", Span{0, 3}) != token_fingerprint("ab", Span{0, 2}));
  CHECK(token_fingerprint("a+ +b", Span{0, 5}) != token_fingerprint("a++b", Span{0, 4}));
}

TEST_CASE("kernels: fingerprint spans are clamped to the source") {
  const std::string source = "int x;";
  CHECK(token_fingerprint(source, Span{0, 1000}) == token_fingerprint(source, Span{0, source.size()}));
  CHECK(token_fingerprint(source, Span{1000, 2000}) == token_fingerprint(source, Span{3, 3}));
  CHECK(token_fingerprint(source, Span{5, 2}) == token_fingerprint("", Span{}));
  CHECK(token_fingerprint(source, Span{0, 3}) != token_fingerprint(source, Span{0, 5}));
}

TEST_CASE("kernels: a fingerprint can leave out spans, such as member function bodies") {
  const std::string a = "struct S { int n; __device__ int f() { return 1; } };";
  const std::string b = "struct S { int n; __device__ int f() { return 2; } };";
  const std::string c = "struct S { long n; __device__ int f() { return 1; } };";
  const auto member = [](const std::string& text) {
    const std::size_t begin = text.find("__device__");
    return Span{begin, text.find('}') + 1, 1, 1};
  };
  const Span whole_a{0, a.size(), 1, 1}, whole_b{0, b.size(), 1, 1}, whole_c{0, c.size(), 1, 1};
  CHECK(token_fingerprint(a, whole_a) != token_fingerprint(b, whole_b));
  const Span left_a[] = {member(a)}, left_b[] = {member(b)}, left_c[] = {member(c)};
  CHECK(token_fingerprint(a, whole_a, left_a) == token_fingerprint(b, whole_b, left_b));
  CHECK(token_fingerprint(a, whole_a, left_a) != token_fingerprint(c, whole_c, left_c));
  CHECK(token_fingerprint(a, whole_a, std::span<const Span>{}) == token_fingerprint(a, whole_a));
}
