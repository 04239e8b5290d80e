// SPDX-License-Identifier: Apache-2.0
#include "kernels/macro_table.hpp"

#include <catch2/catch.hpp>

#include "kernels/lexer.hpp"
#include "kernels/preprocessor.hpp"

using namespace kforecast::kernels;

TEST_CASE("kernels: object-like macros that stand for CUDA specifiers") {
  MacroTable table;
  for (const Macro& m : preprocess("#define DEV __device__\n#define DEV_INLINE DEV __forceinline__\n#define HD "
                                   "__host__ __device__\n#define PLAIN 3\n")
                            .macros)
    table.define(m);
  REQUIRE(table.find("DEV_INLINE") != nullptr);
  CHECK(table.find("DEV_INLINE")->specifiers.device);  // through DEV
  CHECK_FALSE(table.find("DEV_INLINE")->specifiers.global);
  CHECK(table.find("HD")->specifiers.host);
  CHECK(table.find("PLAIN") == nullptr);  // means nothing to the scanner
  CHECK(table.find("UNDEFINED") == nullptr);
}

TEST_CASE("kernels: a macro that defines a kernel named by a parameter") {
  MacroTable table;
  const auto macros = preprocess(
                          "#define K(T, name, bound) __global__ void __launch_bounds__(bound) name(T* x, int n) { x[0] "
                          "= helper(n); }\n")
                          .macros;
  table.define(macros.at(0));
  const MacroMeaning* meaning = table.find("K");
  REQUIRE(meaning != nullptr);
  REQUIRE(meaning->kernel_name_parameter.has_value());
  CHECK(*meaning->kernel_name_parameter == 1);

  const auto args = lex("double, my_kernel, 128");
  const std::span<const Token> arguments[] = {std::span(args).subspan(0, 1), std::span(args).subspan(2, 1),
                                              std::span(args).subspan(4, 1)};
  TextStore store;
  const auto kernel = table.expand(*meaning, arguments, store);
  REQUIRE(kernel.has_value());
  CHECK(kernel->name == "my_kernel");
  CHECK(kernel->from_macro);
  CHECK(kernel->macro == "K");
  CHECK(kernel->kind == FunctionKind::global);
  CHECK(kernel->launch_bounds == "128");
  REQUIRE(kernel->parameters.size() == 2);
  CHECK(kernel->parameters[0].type == "double*");
  CHECK(kernel->parameters[0].name == "x");
  CHECK(kernel->calls == std::vector<std::string_view>{"helper"});
  CHECK(std::find(kernel->referenced_identifiers.begin(), kernel->referenced_identifiers.end(), "K") !=
        kernel->referenced_identifiers.end());

  const auto bad = lex("double, a + b, 1");
  const std::span<const Token> not_a_name[] = {std::span(bad).subspan(0, 1), std::span(bad).subspan(2, 3),
                                               std::span(bad).subspan(6, 1)};
  CHECK_FALSE(table.expand(*meaning, not_a_name, store).has_value());
}

TEST_CASE("kernels: redefining a macro as something plain takes its meaning away") {
  MacroTable table;
  for (const Macro& m : preprocess("#define DEV __device__\n#define DEV 1\n").macros) table.define(m);
  CHECK(table.find("DEV") == nullptr);
}
