// SPDX-License-Identifier: Apache-2.0
#include "kernels/canonical_tokens.hpp"

#include <catch2/catch.hpp>

#include "kernels/fingerprint.hpp"
#include "kernels/lexer.hpp"

using namespace kforecast::kernels;

namespace {

std::uint64_t fingerprint(const std::string& text, const MacroStatements* macros = nullptr) {
  return token_fingerprint(text, Span{0, text.size(), 1, 1}, {.macros = macros});
}

// Whether two texts read as one in canonical form (and differ as written, so that the check
// is about the canonical form).
bool same(const std::string& a, const std::string& b, const MacroStatements* macros = nullptr) {
  CHECK(token_fingerprint(a, Span{0, a.size(), 1, 1}, {.form = TokenForm::as_written}) !=
        token_fingerprint(b, Span{0, b.size(), 1, 1}, {.form = TokenForm::as_written}));
  return fingerprint(a, macros) == fingerprint(b, macros);
}

}  // namespace

TEST_CASE("kernels: canonical text joins tokens by single spaces, layout aside") {
  CHECK(canonical_text(lex("grid,\n   64 ,0")) == "grid , 64 , 0");
  CHECK(canonical_text(lex("k<A<B>>")) == "k < A < B > >");
  CHECK(canonical_text(lex("0xFFu + 1'000 + 2.5E-3F + 1_KiB")) == "0xffu + 1000 + 2.5e-3f + 1_KiB");
  CHECK(canonical_text(lex("#define X 1\nX")) == "define X 1 X");
}

TEST_CASE("kernels: a formatter's `> >`, a number's case and a broken string literal are no change") {
  CHECK(same("Vec<Vec<int>> v;", "Vec<Vec<int> > v;"));
  CHECK(same("m = 0xffffffffu;", "m = 0xFFFFFFFFU;"));
  CHECK(same("n = 1000000;", "n = 1'000'000;"));
  CHECK(same("printf(\"a: %d, b: %d\\n\", a, b);", "printf(\"a: %d, \" \"b: %d\\n\", a, b);"));
  // What does differ still does.
  CHECK_FALSE(same("x = y >> 2;", "x = y >> 3;"));
  CHECK_FALSE(same("n = 1_KiB;", "n = 1_kib;"));               // user-defined literals: other operators
  CHECK_FALSE(same("s = \"\\x12\";", "s = \"\\x1\" \"2\";"));  // an escape read across the break
  CHECK_FALSE(same("s = \"\\12\";", "s = \"\\1\" \"2\";"));
  CHECK(same("s = \"\\x1G\";", "s = \"\\x1\" \"G\";"));
  CHECK_FALSE(same("s = u8\"ab\";", "s = u8\"a\" \"b\";"));  // prefixed literals are left as written
}

TEST_CASE("kernels: the order of specifiers before a declarator is no change") {
  CHECK(same("__device__ float f(const float* __restrict__ x, const T& t);",
             "__device__ float f(float const* __restrict__ x, T const& t);"));
  CHECK(same("static constexpr int k = 4;", "constexpr static int k = 4;"));
  CHECK(same("__device__ __forceinline__ float g();", "__forceinline__ __device__ float g();"));
  CHECK(same("const unsigned long long n = 0;", "unsigned long long const n = 0;"));
  CHECK(same("const std::vector<const float*>& v = w;", "std::vector<float const*> const& v = w;"));
  CHECK(same("__global__ void k(const __grid_constant__ P p);", "__global__ void k(__grid_constant__ const P p);"));
  CHECK(same("GSPLAT_HOST_DEVICE inline float h();", "inline GSPLAT_HOST_DEVICE float h();"));
  // A pointer's own const is another const; names keep their order.
  CHECK_FALSE(same("int* const p = q;", "const int* p = q;"));
  CHECK_FALSE(same("A B;", "B A;"));
  // An upper-case name may be a macro that stands for a pointer type: `const PTR p` is a pointer
  // to const, `PTR const p` a const pointer.
  CHECK_FALSE(same("const FLOAT_PTR p = q;", "FLOAT_PTR const p = q;"));
}

TEST_CASE("kernels: braces around a body of one statement are no change, where they cannot matter") {
  CHECK(same("void f() { if (a) return; for (;;) x += 1; while (c) g(); do h(); while (d); }",
             "void f() { if (a) { return; } for (;;) { x += 1; } while (c) { g(); } do { h(); } while (d); }"));
  CHECK(same("if (a) x = 1; else if (b) x = 2; else x = 3;",
             "if (a) {\n  x = 1;\n} else if (b) {\n  x = 2;\n} else {\n  x = 3;\n}"));
  CHECK(same("for (int i = 0; i < n; ++i) if (v[i]) s += v[i];",
             "for (int i = 0; i < n; ++i) { if (v[i]) { s += v[i]; } }"));
  CHECK(same("if (a) { if (b) x(); else y(); } else z();", "if (a) if (b) x(); else y(); else z();"));
  CHECK(same("if constexpr (N > 1) { return g<N>(); }", "if constexpr (N > 1) return g<N>();"));
  // An `else` after braces around an `if` without one belongs to the outer `if`; without them,
  // to the inner one.
  CHECK_FALSE(same("if (a) { if (b) x(); } else y();", "if (a) if (b) x(); else y();"));
  CHECK_FALSE(same("if (a) { for (;;) if (b) x(); } else y();", "if (a) for (;;) if (b) x(); else y();"));
  // Two statements, a label, or a preprocessor line inside are not one statement.
  CHECK_FALSE(same("if (a) { x(); y(); }", "if (a) x(); y();"));
  CHECK_FALSE(same("if (a) { l: x(); }", "if (a) l: x();"));
  CHECK_FALSE(same("if (a) {\n#pragma unroll\n for (;;) x();\n}", "if (a)\n#pragma unroll\n for (;;) x();\n"));
}

TEST_CASE("kernels: braces around a macro call count as formatting only where the macro is one statement") {
  // SYNC_BOTH may expand to two statements: braces around it matter.
  CHECK_FALSE(same("if (a) { SYNC_BOTH(); }", "if (a) SYNC_BOTH();"));
  MacroStatements macros;
  const auto macro = [](std::string name, std::string body) {
    Macro m;
    m.name = std::move(name);
    m.function_like = true;
    m.body = std::move(body);
    return m;
  };
  macros.add(macro("INDEX", "((y) * (w) + (x))"));
  macros.add(macro("CHECK_OK", "do { if (!(x)) abort(); } while (0)"));
  macros.add(macro("sync_both", "__syncthreads(); __syncwarp()"));
  macros.add(macro("GUARD", "if (!(x)) return"));
  CHECK(same("if (a) { out[INDEX(i, j, n)] = 0; }", "if (a) out[INDEX(i, j, n)] = 0;", &macros));
  CHECK(same("if (a) { CHECK_OK(p); }", "if (a) CHECK_OK(p);", &macros));
  CHECK_FALSE(same("if (a) { sync_both(); }", "if (a) sync_both();", &macros));
  CHECK_FALSE(same("if (a) { GUARD(p); } else q();", "if (a) GUARD(p); else q();", &macros));
}

TEST_CASE("kernels: a semicolon after a function's body and redundant parentheses are no change") {
  CHECK(same("struct S { S() {}; __device__ int f() const -> int { return 1; }; int n; };",
             "struct S { S() {} __device__ int f() const -> int { return 1; } int n; };"));
  CHECK(same("y = mat3((1.f - 2.f * (a + b)), (2.f * c), d);", "y = mat3(1.f - 2.f * (a + b), 2.f * c, d);"));
  CHECK(same("n = min(B, ((unsigned) end - start));", "n = min(B, (unsigned) end - start);"));
  CHECK(same("x = v[(i + 1)];", "x = v[i + 1];"));
  CHECK(same("if (((a + b) == c)) f();", "if ((a + b) == c) f();"));
  CHECK(same("return (a + b);", "return a + b;"));
  // A class's `;` is its own; a lambda's ends its statement.
  CHECK_FALSE(same("struct S {}; int n;", "struct S {} int n;"));
  CHECK_FALSE(same("auto l = [](int x) { return x; }; g(l);", "auto l = [](int x) { return x; } g(l);"));
  // Parentheses that do matter, or may: a comma inside, a declaration (`T v(A())` declares a
  // function), decltype, a returned member (decltype(auto)), a macro's argument (its text may
  // become a string), a postfix after them.
  CHECK_FALSE(same("f((a, b));", "f(a, b);"));
  CHECK_FALSE(same("T v((A()));", "T v(A());"));
  CHECK_FALSE(same("T v((x = y));", "T v(x = y);"));
  CHECK_FALSE(same("using R = decltype((s.x));", "using R = decltype(s.x);"));
  CHECK_FALSE(same("return (s.x);", "return s.x;"));
  CHECK_FALSE(same("assert((n > 0 + 1));", "assert(n > 0 + 1);"));
  CHECK_FALSE(same("CHECK((n - 1), \"n\");", "CHECK(n - 1, \"n\");"));
  CHECK_FALSE(same("f((a + b)(c));", "f(a + b(c));"));
}
