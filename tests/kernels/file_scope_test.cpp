// SPDX-License-Identifier: Apache-2.0
#include "kernels/file_scope.hpp"

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
