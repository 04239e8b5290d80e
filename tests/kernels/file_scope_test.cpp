// SPDX-License-Identifier: Apache-2.0
#include "kernels/file_scope.hpp"

#include <catch2/catch.hpp>

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
