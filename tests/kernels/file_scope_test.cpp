// SPDX-License-Identifier: Apache-2.0
#include "kernels/file_scope.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include "kernels/lexer.hpp"

using namespace kforecast::kernels;

namespace {
std::vector<std::vector<std::string>> names_of(std::string_view source) {
  std::vector<std::vector<std::string>> out;
  for (const auto& declaration : file_scope_declarations(source)) out.push_back(declaration.names);
  return out;
}
}  // namespace

TEST_CASE("kernels: file-scope declarations and what they declare") {
  const std::string_view source = R"(#include <cuda_fp16.h>
#define N 4
struct Tile { float v[N]; };
enum class Mode { fast, exact };
using Vec = float4;
typedef unsigned int uint;
constexpr int kBlock = 256, kWarps = 8;
__constant__ float table[4] = {1, 2, 3, 4};
namespace ns {
__device__ int counter;
__global__ void k(float* a) { a[0] = table[0]; }
}
extern "C" {
static const float pi = 3.14f;
}
void host(int x) { int not_file_scope = x; }
__device__ float helper(float);
)";
  const auto names = names_of(source);
  CHECK(names ==
        std::vector<std::vector<std::string>>{
            {"Tile"}, {"Mode"}, {"Vec"}, {"uint"}, {"kBlock", "kWarps"}, {"table"}, {"counter"}, {"pi"}, {"helper"}});
  const auto declarations = file_scope_declarations(source);
  CHECK(declarations[5].span.first_line == 8);
  CHECK(source.substr(declarations[5].span.begin, declarations[5].span.end - declarations[5].span.begin) ==
        "__constant__ float table[4] = {1, 2, 3, 4};");
}

TEST_CASE("kernels: file-scope declarations of broken input end") {
  for (std::string_view junk : {"", "{", "}", "struct", "namespace {", "int a = {;", "void f() {", "))(({;"}) {
    INFO(junk);
    CHECK_NOTHROW(file_scope_declarations(junk));
  }
  CHECK(identifiers_in("a + b * a(c)") == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("kernels: file-scope declarations from the caller's tokens are those from the text") {
  const std::string source =
      "#include \"tile.h\"\nconstexpr int kTile = 16;\nstruct Tile { float v[kTile]; };\n"
      "namespace ns { using Index = int; }\n__global__ void k(Tile* t) { t->v[0] = 1; }\n"
      "extern \"C\" { typedef float real; }\n#define X 1\nint table[4] = {1, 2, 3, 4};";
  const auto from_text = file_scope_declarations(source);
  const auto from_tokens = file_scope_declarations(source, lex(source));
  REQUIRE(from_text.size() == 5);  // kTile, Tile, Index, real, table
  REQUIRE(from_tokens.size() == from_text.size());
  for (std::size_t i = 0; i < from_text.size(); ++i) {
    CHECK(from_tokens[i].names == from_text[i].names);
    CHECK(from_tokens[i].span == from_text[i].span);
  }
}

TEST_CASE("kernels: a class statement declares its own name, not what its template header or body names") {
  // Each was a declared name, and a kernel naming `T`, `value` or `data` pulled in the whole
  // statement and all it names: one enum then reached every kernel of every including file.
  const std::string_view source = R"(template <class T> struct identity_tag {};
template <typename T, typename Index = int>
struct View {
  using index_t = Index;
  T& operator()(index_t i) const { if (i > stride) return data[0]; return data[i]; }
  T* data;
  index_t stride;
  friend class detail::Access;
};
template <typename T> constexpr T holder<T>::value;
struct Settings { Mode mode; int width; };
enum class Mode { fast, exact };
)";
  CHECK(names_of(source) == std::vector<std::vector<std::string>>{{"identity_tag"}, {"View"}, {"Settings"}, {"Mode"}});
  const auto declarations = file_scope_declarations(source);
  CHECK(declarations[1].classes == std::vector<std::string>{"View"});
  CHECK(declarations[3].classes.empty());  // an enum class is no class
}

TEST_CASE("kernels: a prototype returning `struct X *` declares the function, not X") {
  // ggml.h's shape: C prototypes spell their types `struct ggml_tensor *`. Each was taken for a
  // declaration of ggml_tensor, so a prototype added to the header changed every kernel that
  // reaches ggml_tensor (about ten heavy kernels, 97 units rebuilt, per commit).
  const std::string_view source = R"(struct tensor;
struct tensor { int ne[4]; };
struct tensor * tensor_view(struct context * ctx, struct tensor * a);
struct tensor t0;
struct derived : public base {
  int x;
};
template <typename T> struct box<T*> { T* p; };
)";
  CHECK(names_of(source) == std::vector<std::vector<std::string>>{
                                {"tensor"}, {"tensor"}, {"tensor_view"}, {"t0"}, {"derived"}, {"box"}});
}

TEST_CASE("kernels: what a declaration names leaves its member functions' bodies out") {
  const std::string_view view = R"(struct View {
  View(float* p) : data{p} { reset(Mode::fast); }
  float& operator()(int i) const { return data[clamp(i)]; }
  bool ready() const noexcept { return enabled(Activation::None); }
  float* data;
  Layout layout;
};)";
  const auto names = identifiers_outside_function_bodies(view, {0, view.size(), 1, 7});
  for (std::string_view used_by_a_method : {"reset", "Mode", "clamp", "enabled", "Activation"}) {
    INFO(used_by_a_method);
    CHECK(std::ranges::find(names, used_by_a_method) == names.end());
  }
  for (std::string_view layout : {"View", "data", "Layout", "layout"}) {
    INFO(layout);
    CHECK(std::ranges::find(names, layout) != names.end());
  }
  // At the top, a lambda's body is the declaration's own value.
  const std::string_view value = "constexpr auto f = [](int x) { return scale(x); };";
  const auto lambda = identifiers_outside_function_bodies(value, {0, value.size(), 1, 1});
  // A method the scan found is left out whole, its signature too.
  const std::string_view method = "struct V { bool may(Activation a) const; float* data; };";
  const Span may{method.find("bool"), method.find(" float*"), 1, 1};
  const auto without_method = identifiers_outside_function_bodies(method, {0, method.size(), 1, 1}, {&may, 1});
  CHECK(std::ranges::find(without_method, "Activation") == without_method.end());
  CHECK(std::ranges::find(without_method, "data") != without_method.end());
  CHECK(std::ranges::find(lambda, "scale") != lambda.end());
}
