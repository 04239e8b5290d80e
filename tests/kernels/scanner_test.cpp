// SPDX-License-Identifier: Apache-2.0
#include "kernels/scanner.hpp"

#include <filesystem>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "kernels/lexer.hpp"
#include "support/scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernels::testing;

TEST_CASE("kernels: scanner finds global and device functions with their specifiers") {
  const std::string source =
      "static __global__ void a(int* p) {}\n"
      "__device__ __forceinline__ float b(float x) { return x; }\n"
      "__host__ __device__ inline int c() { return 1; }\n"
      "inline __device__ __noinline__ int d();\n"
      "void host_only(int x) { int y = x; }\n"
      "__host__ int host_too() { return 0; }\n"
      "[[nodiscard]] __device__ int e(int) __attribute__((always_inline));\n";
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"a", "b", "c", "d", "e"});
  CHECK(only(scanned, "a").kind == FunctionKind::global);
  CHECK(only(scanned, "b").kind == FunctionKind::device);
  CHECK_FALSE(only(scanned, "b").host);
  CHECK(only(scanned, "c").kind == FunctionKind::device);
  CHECK(only(scanned, "c").host);
  CHECK(only(scanned, "a").has_body);
  CHECK_FALSE(only(scanned, "d").has_body);
  CHECK_FALSE(only(scanned, "e").has_body);
  CHECK(only(scanned, "e").parameters.size() == 1);
  CHECK(text_of(source, only(scanned, "d").whole) == "inline __device__ __noinline__ int d();");
  CHECK(only(scanned, "d").body.empty());
}

TEST_CASE("kernels: scanner reads past a UTF-8 byte-order mark, as compilers do") {
  // Saved by some Windows editors; glued to the first token it hid the kernel ("removed").
  const std::string source = "\xEF\xBB\xBF__global__ void k(float* a) { a[0] = 1.0f; }\n";
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"k"});
  CHECK(text_of(source, only(scanned, "k").whole) == "__global__ void k(float* a) { a[0] = 1.0f; }");
}

TEST_CASE("kernels: scanner records spans of signature, body and whole") {
  const std::string source =
      "// header\n"
      "template <int BM, typename T>\n"
      "__global__ void __launch_bounds__(256, 2)\n"
      "k(T* x) {\n"
      "  x[0] = BM;\n"
      "}\n";
  const auto scanned = scan_cuda_source(source);
  const Function& k = only(scanned, "k");
  CHECK(k.template_parameters == "template <int BM, typename T>");
  CHECK(k.launch_bounds == "256, 2");
  CHECK(k.signature.first_line == 2);
  CHECK(k.signature.last_line == 4);
  CHECK(text_of(source, k.signature) ==
        "template <int BM, typename T>\n__global__ void __launch_bounds__(256, 2)\nk(T* x)");
  CHECK(k.body.first_line == 4);
  CHECK(k.body.last_line == 6);
  CHECK(text_of(source, k.body) == "{\n  x[0] = BM;\n}");
  CHECK(k.whole.begin == k.signature.begin);
  CHECK(k.whole.end == k.body.end);
  CHECK(k.referenced_identifiers == std::vector<std::string_view>{"BM", "T", "k", "x"});
}

TEST_CASE("kernels: scanner qualifies names with namespaces and classes, not with extern C or anonymous ones") {
  const std::string source =
      "namespace a { namespace b::c {\n"
      "__global__ void k1() {}\n"
      "} inline namespace v1 { __device__ void d1(); }\n"
      "namespace { __device__ void d2() {} }\n"
      "struct S : Base<int> { __device__ float get() const { return m; } public: __device__ S(int v) : m{v} {} float "
      "m; };\n"
      "template <class T> struct alignas(16) Vec { __host__ __device__ T dot(const Vec& o) const; };\n"
      "__device__ float S::out_of_line(int) { return 0; }\n"
      "}\n"
      "extern \"C\" { __global__ void k2(); }\n"
      "__global__ void ::a::k3() {}\n";
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"a::b::c::k1", "a::d1", "a::d2", "a::S::get", "a::S::S",
                                                             "a::Vec::dot", "a::S::out_of_line", "k2", "a::k3"});
  CHECK(only(scanned, "a::S::out_of_line").name == "out_of_line");
  CHECK(only(scanned, "k2").extern_c);
  CHECK_FALSE(only(scanned, "a::b::c::k1").extern_c);
  CHECK(only(scanned, "a::S::S").has_body);
  REQUIRE(scanned.namespaces.size() == 2);
  CHECK(scanned.namespaces[0].qualified_name == "a::b::c");
  CHECK(scanned.namespaces[0].span.first_line == 1);
  CHECK(scanned.namespaces[0].span.last_line == 3);
  CHECK(scanned.namespaces[1].qualified_name == "a");
  CHECK(scanned.namespaces[1].span.last_line == 8);
}

TEST_CASE("kernels: scanner does not take variables, lambdas or host code for functions") {
  const std::string source =
      "__device__ int counter = compute(3);\n"
      "__device__ float table[4] = {1, 2, 3, 4};\n"
      "__constant__ float weights[16];\n"
      "__device__ Foo object(1, 2);\n"
      "auto lambda = [] __device__ (float x) { return x; };\n"
      "int host(int x) { auto g = [](int y) { return y; }; return g(x); }\n"
      "enum class Mode : int { a, b };\n"
      "__global__ void real(float* x) {}\n";
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"real"});
  CHECK(only(scanned, "real").signature.first_line == 8);
}

TEST_CASE("kernels: text in comments, strings and raw strings is never a kernel") {
  const std::string source =
      "// __global__ void c1() {}\n"
      "/* __global__ void c2() {} */\n"
      "const char* s = \"__global__ void c3() {\";\n"
      "const char* r = R\"x(__global__ void c4() { } } })x\";\n"
      "const char q = '{';\n"
      "__global__ void real() { const char* t = \"}\"; }\n"
      "__device__ int after() { return 0; }\n";
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"real", "after"});
  CHECK(only(scanned, "real").body.last_line == 6);
}

TEST_CASE("kernels: explicit instantiations are attached to the template they name") {
  const std::string source =
      "namespace ns {\n"
      "template <int N, typename T> __global__ void k(T* x) {}\n"
      "template __global__ void k<64, float>(float*);\n"
      "}\n"
      "template __global__ void ns::k<128, double>(double*);\n"
      "extern template __global__ void ns::k<32, int>(int*);\n"
      "template __global__ void elsewhere<1>(int*);\n"
      "template <> __global__ void ns::k<7, char>(char* x) {}\n";
  const auto scanned = scan_cuda_source(source);
  const auto& functions = scanned.functions;
  REQUIRE(functions.size() == 2);
  CHECK(functions[0].qualified_name == "ns::k");
  CHECK(functions[0].instantiations == std::vector<std::string>{"k<64, float>", "k<128, double>", "k<32, int>"});
  CHECK(functions[1].qualified_name == "ns::k");  // the explicit specialisation, a definition of its own
  CHECK(functions[1].template_parameters == "template <>");
  CHECK(functions[1].instantiations.empty());
  REQUIRE(scanned.instantiations.size() == 4);
  CHECK(scanned.instantiations[3].name == "elsewhere");
  CHECK(scanned.instantiations[3].text == "elsewhere<1>");
  CHECK(scanned.instantiations[3].line == 7);
  CHECK(scanned.instantiations[1].name == "ns::k");
}

TEST_CASE("kernels: kernels defined by a macro are found under the name passed to it") {
  const std::string source =
      "#define DEFINE_KERNEL(name) __global__ void name(float* x) { x[0] = 1.0f; }\n"
      "#define NOT_A_KERNEL(name) int name = 0;\n"
      "namespace ns {\n"
      "DEFINE_KERNEL(foo)\n"
      "DEFINE_KERNEL(bar);\n"
      "}\n"
      "NOT_A_KERNEL(baz)\n"
      "DEFINE_KERNEL(a ## b)\n"
      "__global__ void after() {}\n";
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"ns::foo", "ns::bar", "after"});
  const Function& foo = only(scanned, "ns::foo");
  CHECK(foo.from_macro);
  CHECK(foo.macro == "DEFINE_KERNEL");
  CHECK(foo.kind == FunctionKind::global);
  CHECK(foo.whole.first_line == 4);
  CHECK(text_of(source, foo.whole) == "DEFINE_KERNEL(foo)");
  REQUIRE(foo.parameters.size() == 1);
  CHECK(foo.parameters[0].type == "float*");
  CHECK_FALSE(only(scanned, "after").from_macro);
  CHECK(only(scanned, "after").signature.first_line == 9);

  // The macro may come from a header scanned first.
  const auto header = scan_cuda_source("#define STAMP(n) __global__ void n() {}\n");
  const auto user = scan_cuda_source("STAMP(from_header)\n", ScanOptions{header.macros});
  CHECK(qualified_names(user) == std::vector<std::string>{"from_header"});
  CHECK(scan_cuda_source("STAMP(from_header)\n").functions.empty());
}

TEST_CASE("kernels: specifiers hidden in object-like macros count") {
  const auto scanned = scan_cuda_source(
      "#define DEVICE_INLINE __device__ __forceinline__\n#define KERNEL extern \"C\" __global__\n"
      "DEVICE_INLINE float f(float x) { return x; }\nKERNEL void k(float* x) {}\n");
  CHECK(qualified_names(scanned) == std::vector<std::string>{"f", "k"});
  CHECK(only(scanned, "f").kind == FunctionKind::device);
  CHECK(only(scanned, "k").kind == FunctionKind::global);
}

TEST_CASE("kernels: a macro invocation without a semicolon does not swallow the next kernel") {
  const std::string source = "UNKNOWN_MACRO(x, y)\n__global__ void k(int* p) {}\n";
  const auto scanned = scan_cuda_source(source);
  const Function& k = only(scanned, "k");
  CHECK(k.signature.first_line == 2);
  CHECK(text_of(source, k.signature) == "__global__ void k(int* p)");
}

TEST_CASE("kernels: body use lists names and calls, including calls through templates and launches") {
  const auto scanned = scan_cuda_source(
      "__device__ void g(); template <class T> __device__ void h(T);\n"
      "__global__ void child(int) {}\n"
      "__global__ void k(float* x) {\n"
      "#ifdef USE_FAST_MATH\n"
      "  x[0] = __expf(x[0]);\n"
      "#endif\n"
      "  g(); h<float>(x[0]); ns::util::clamp(x); ::top(); obj.method(1); child<<<1, 1>>>(0);\n"
      "  if (a < b && c > (d)) {} for (;;) {} sizeof(int);\n"
      "}\n");
  const Function& k = only(scanned, "k");
  CHECK(k.calls == std::vector<std::string_view>{"::top", "__expf", "child", "g", "h", "method", "ns::util::clamp"});
  for (const char* name : {"USE_FAST_MATH", "x", "obj", "a", "b", "c", "d", "ns", "util"})
    CHECK(contains(k.referenced_identifiers, name));
  for (const char* keyword : {"if", "for", "sizeof", "int", "float", "__global__"})
    CHECK_FALSE(contains(k.referenced_identifiers, keyword));
}

TEST_CASE("kernels: CRLF line endings give the same lines and names") {
  std::string lf = "namespace n {\n__device__ int f(int x) {\n  return x;\n}\n}\n";
  std::string crlf;
  for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const auto a = scan_cuda_source(lf);
  const auto b = scan_cuda_source(crlf);
  REQUIRE(b.functions.size() == 1);
  CHECK(b.functions[0].qualified_name == "n::f");
  CHECK(b.functions[0].body.first_line == a.functions[0].body.first_line);
  CHECK(b.functions[0].body.last_line == 4);
  CHECK(b.functions[0].parameters[0].name == "x");
}

TEST_CASE("kernels: scanner returns on hostile input") {
  for (const std::string& source :
       {std::string("__global__"), std::string("__global__ void"), std::string("__global__ void k("),
        std::string("__global__ void k() {"), std::string("}}}}"), std::string("{{{{"), std::string("template <"),
        std::string("namespace {"), std::string("extern \"C\" {"), std::string("#define"), std::string("#define F(\n"),
        std::string("R\"(")}) {
    const auto scanned = scan_cuda_source(source);
    for (const Function& f : scanned.functions) {
      CHECK(f.whole.end <= source.size());
      CHECK_FALSE(f.name.empty());
    }
  }
  const auto unclosed = scan_cuda_source("__global__ void k() {\n  if (x) {\n");
  REQUIRE(unclosed.functions.size() == 1);
  CHECK(unclosed.functions[0].body.last_line == 2);
}

namespace {

// Every field a scan returns, as text, so two scans can be compared whole.
std::string everything(const ScannedSource& s) {
  std::string out;
  auto span = [&](const Span& x) { out += fmt::format("[{} {} {} {}]", x.begin, x.end, x.first_line, x.last_line); };
  for (const Function& f : s.functions) {
    out += fmt::format("F {} {} {} {} {} {} {} {}|", f.name, f.qualified_name, f.kind == FunctionKind::global, f.host,
                       f.template_parameters, f.launch_bounds, f.from_macro, f.macro);
    for (const Parameter& p : f.parameters) out += p.type + "/" + p.name + "/" + p.default_value + ",";
    span(f.signature), span(f.body), span(f.whole);
    for (const auto name : f.referenced_identifiers) out += fmt::format(" r:{}", name);
    for (const auto name : f.calls) out += fmt::format(" c:{}", name);
    for (const auto& name : f.instantiations) out += " i:" + name;
    out += "\n";
  }
  for (const Macro& m : s.macros) {
    out += "M " + m.name + " " + m.body;
    span(m.span);
  }
  for (const Include& i : s.includes) out += fmt::format("I {} {} {}\n", i.path, i.angled, i.line);
  for (const Namespace& n : s.namespaces) out += "N " + n.qualified_name, span(n.span);
  for (const ExplicitInstantiation& i : s.instantiations) out += fmt::format("X {} {} {}\n", i.name, i.text, i.line);
  return out;
}

}  // namespace

TEST_CASE("kernels: a scan of the caller's tokens finds what a scan of the text finds") {
  std::vector<std::string> sources = {
      "#define K(name) __global__ void name(float* x) { x[0] = 1; }\nK(from_macro)\n"
      "#if 0\n__global__ void dead() {}\n#else\n__global__ void live(int n) { ns :: f(n); }\n#endif\n"
      "#ifdef FAST\n__device__ float g(float x) { return x; }\n#endif\n#include <cstdio>\n#define LAST 1",
      "#define UNFINISHED(a, b) a ## b \\\n  continued\n__global__ void k() { /* unterminated", ""};
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "cuda"))
    sources.push_back(read_fixture(entry.path().filename().string()));
  REQUIRE(sources.size() >= 10);
  for (const std::string& source : sources) {
    const std::vector<Token> tokens = lex(source);
    const std::string from_text = everything(scan_cuda_source(source));
    CHECK(everything(scan_cuda_source(source, {.tokens = &tokens})) == from_text);
    CHECK(from_text.empty() == source.empty());  // the comparison above compares something
  }
}

TEST_CASE("scanner: a host function's body does not end the namespace around it") {
  // DeepEP's shape: a host launcher without specifiers before the kernels, in nested namespaces.
  const auto scanned = scan_cuda_source(
      "namespace ep::legacy {\nnamespace ll {\nvoid launch(int* p, cudaStream_t stream) {\n  SETUP(1, 256, stream);\n"
      "  LAUNCH(&cfg, clean<256>, p);\n}\ntemplate <bool kFp8>\n__global__ __launch_bounds__(1024, 1) void combine(void* x) {}\n"
      "}  // namespace ll\n}  // namespace ep::legacy\n__global__ void outside() {}\n");
  REQUIRE(scanned.functions.size() == 2);
  CHECK(scanned.functions[0].qualified_name == "ep::legacy::ll::combine");
  CHECK(scanned.functions[1].qualified_name == "outside");
  REQUIRE(scanned.namespaces.size() == 2);
  CHECK(scanned.namespaces[0].qualified_name == "ep::legacy::ll");
  CHECK(scanned.namespaces[0].span.last_line == 9);
}
