// SPDX-License-Identifier: Apache-2.0
#include "kernels/launch_sites.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::kernels;

TEST_CASE("kernels: launch sites give the kernel, its template arguments and the configuration") {
  const auto sites = launch_sites(
      "void f() {\n  k<<<grid, 64>>>(a);\n  ns::t<float, (N > 2)><<<dim3(1, 2), block, smem, s>>>(b);\n"
      "  // c<<<1, 1>>>(x);\n  (*fp)<<<1, 1>>>();\n  if (a << b < c) {}\n  u<<<1, 2\n}\n");
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].kernel == "k");
  CHECK(sites[0].template_arguments.empty());
  CHECK(sites[0].configuration == "grid , 64");
  CHECK(sites[0].line == 2);
  CHECK(sites[1].kernel == "ns::t");
  CHECK(sites[1].template_arguments == "<float, (N > 2)>");
  CHECK(sites[1].configuration == "dim3 ( 1 , 2 ) , block , smem , s");
  CHECK(launch_sites("").empty());
  CHECK(launch_sites("<<<<<<>>>>>>").empty());
}

TEST_CASE("kernels: changed launches are those new in the head, layout aside") {
  const std::string base = "k<<<g, 1>>>(a);\nk<<<g, 1>>>(b);\nj<<<g, 32>>>(c);\n";
  CHECK(changed_launches(base, "k<<<g,1>>>(a);\nk<<< g, 1 >>>(b);\nj<<<g, 32>>>(c);\n").empty());
  const auto one = changed_launches(base, "k<<<g, 1>>>(a);\nk<<<g, 64>>>(b);\nj<<<g, 32>>>(c);\n");
  REQUIRE(one.size() == 1);
  CHECK(one[0].kernel == "k");
  CHECK(one[0].line == 2);
  CHECK(changed_launches(base, base + "fresh<<<1, 1>>>();\n").empty());  // not launched before
}

TEST_CASE("kernels: launches compare by canonical tokens, what a formatter rewrites aside") {
  const std::string base = "k<64, Tile<N>><<<g, 1>>>(a);\nj<<<(n + 255) / 256, 256, 0, s>>>(b);\n";
  const auto sites = launch_sites(base);
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].template_arguments == "<64, Tile<N>>");  // as written, for messages
  CHECK(sites[0].compared_template_arguments == "< 64 , Tile < N > >");
  CHECK(changed_launches(base, "k<64,Tile<N> ><<<g,1>>>(a);\nj<<<(n+255)/256,\n    256,0,s>>>(b);\n").empty());
  const auto changed = changed_launches(base, "k<32, Tile<N>><<<g, 1>>>(a);\nj<<<(n + 255) / 256, 256, 0, s>>>(b);\n");
  REQUIRE(changed.size() == 1);
  CHECK(changed[0].kernel == "k");
}

TEST_CASE("kernels: launches through a local that holds the kernel") {
  const auto sites = launch_sites(
      "void run(P p, bool even) {\n"
      "  auto kernel = &fwd<64, true>;\n"
      "  if (!even) kernel = &fwd<64, false>;\n"
      "  kernel<<<g, 128>>>(p);\n"
      "}\n"
      "void other(void (*kernel)(P), P p) { kernel<<<g, 32>>>(p); }\n");
  REQUIRE(sites.size() == 3);
  CHECK(sites[0].kernel == "fwd");
  CHECK(sites[0].template_arguments == "<64, true>");
  CHECK(sites[0].through == "kernel");
  CHECK(sites[1].template_arguments == "<64, false>");
  CHECK(sites[1].line == 4);
  CHECK(sites[1].argument_names == std::vector<std::string>{"p"});
  // A parameter holds what the caller passed: launched by that name, as before.
  CHECK(sites[2].kernel == "kernel");
  CHECK(sites[2].through.empty());
}

TEST_CASE("kernels: launches through the runtime's launch functions, read only when asked for") {
  const std::string text =
      "void run(cudaLaunchConfig_t cfg, float* x, int n) {\n"
      "  cudaLaunchKernelEx(&cfg, scale<float, 4>, x, n);\n"
      "  void* args[] = {&x, &n};\n"
      "  cudaLaunchKernel((const void*)&ns::reduce, dim3(8), dim3(256), args, 1024, s);\n"
      "  cudaLaunchCooperativeKernel(reinterpret_cast<void*>(sync_all), g, b, args, 0, s);\n"
      "  cudaLaunchKernelEx(&cfg, table[i], x);\n"  // not a kernel's name
      "}\n";
  CHECK(launch_sites(text).empty());
  const auto sites = launch_sites(text, {.api_calls = true});
  REQUIRE(sites.size() == 3);
  CHECK(sites[0].kernel == "scale");
  CHECK(sites[0].template_arguments == "<float, 4>");
  CHECK(sites[0].configuration == "& cfg");
  CHECK(sites[0].argument_names == std::vector<std::string>{"x", "n"});
  CHECK(sites[0].through == "cudaLaunchKernelEx");
  CHECK(sites[1].kernel == "ns::reduce");
  CHECK(sites[1].configuration == "dim3 ( 8 ) , dim3 ( 256 ) , 1024 , s");
  CHECK(sites[2].kernel == "sync_all");
}

TEST_CASE("kernels: launches through a wrapper macro, its configuration in terms of the arguments given") {
  Macro ex;
  ex.name = "LAUNCH_KERNEL";
  ex.function_like = true;
  ex.parameters = {"config", "kernel", "..."};
  ex.body = "CHECK(cudaLaunchKernelEx(config, kernel, ##__VA_ARGS__))";
  Macro chevrons;
  chevrons.name = "LAUNCH_1D";
  chevrons.function_like = true;
  chevrons.parameters = {"kernel", "n", "threads", "..."};
  chevrons.body = "kernel<<<CEIL_DIV(n, threads), threads>>>(__VA_ARGS__)";
  Macro other;
  other.name = "CHECK";
  other.function_like = true;
  other.parameters = {"x"};
  other.body = "do { if (!(x)) abort(); } while (0)";
  const Macro macros[] = {ex, chevrons, other};
  const auto wrappers = launch_wrappers(macros);
  REQUIRE(wrappers.size() == 2);
  CHECK(wrappers[0].kernel_parameter == 1);
  CHECK(wrappers[1].configuration == "CEIL_DIV ( n , threads ) , threads");
  const std::string text =
      "#define CASE(r) LAUNCH_KERNEL(&cfg, notify<r>, a, b); break\n"
      "void run() {\n  LAUNCH_1D(map<Gamma>, count, 256, data, count);\n}\n";
  const auto sites = launch_sites(text, {.wrappers = wrappers});
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].kernel == "notify");
  CHECK(sites[0].configuration == "& cfg");
  CHECK(sites[0].in_macro == "CASE");
  CHECK(sites[0].through == "LAUNCH_KERNEL");
  CHECK(sites[1].kernel == "map");
  CHECK(sites[1].configuration == "CEIL_DIV ( count , 256 ) , 256");
  // The wrapper's own definition launches no kernel of its parameter's name.
  CHECK(launch_sites("#define L1(kernel, n) kernel<<<n, 1>>>()\n", {.wrappers = wrappers}).empty());
}
