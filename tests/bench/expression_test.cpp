// SPDX-License-Identifier: Apache-2.0
#include "bench/expression.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::bench;

namespace {

const SizeVariables sizes{{"M", 4096}, {"N", 1000}, {"K", 7}};

std::int64_t value_of(std::string_view text) {
  auto value = evaluate(text, sizes);
  INFO(text);
  REQUIRE(value.has_value());
  return *value;
}

std::string error_of(std::string_view text) {
  auto value = evaluate(text, sizes);
  INFO(text);
  REQUIRE_FALSE(value.has_value());
  CHECK(value.error().exit_code == kforecast::ExitCode::usage);
  return value.error().message;
}

}  // namespace

TEST_CASE("bench: expressions evaluate with C integer rules") {
  CHECK(value_of("42") == 42);
  CHECK(value_of("M") == 4096);
  CHECK(value_of("M * N + K") == 4096007);
  CHECK(value_of("M - N * 2") == 2096);
  CHECK(value_of("(M - N) * 2") == 6192);
  CHECK(value_of("N / K") == 142);
  CHECK(value_of("N % K") == 6);
  CHECK(value_of("-K + 10") == 3);
  CHECK(value_of("- -K") == 7);
  CHECK(value_of("ceil_div(N, 64)") == 16);
  CHECK(value_of("ceil_div(1024, 64)") == 16);
  CHECK(value_of("ceil_div(0, 64)") == 0);
  CHECK(value_of("min(M, N, K)") == 7);
  CHECK(value_of("max(M, N)") == 4096);
  CHECK(value_of("  ceil_div( M*N , max(K,1) )  ") == 585143);
  CHECK(value_of("9223372036854775807") == INT64_MAX);
}

TEST_CASE("bench: expression errors quote the expression and say what is wrong") {
  CHECK(error_of("N / 0") == "expression 'N / 0': division by zero in 1000 / 0");
  CHECK(error_of("N % (K - 7)").find("division by zero") != std::string::npos);
  CHECK(error_of("ceil_div(N, 0)") == "expression 'ceil_div(N, 0)': division by zero in ceil_div(1000, 0)");
  CHECK(error_of("M * M * M * M * M * M").find("overflows 64 bits") != std::string::npos);
  CHECK(error_of("9223372036854775807 + 1").find("overflows") != std::string::npos);
  CHECK(error_of("-9223372036854775807 - 2").find("overflows") != std::string::npos);
  CHECK(error_of("99999999999999999999").find("does not fit 64 bits") != std::string::npos);
  CHECK(error_of("Q * 2") == "expression 'Q * 2': unknown size variable 'Q' (known: K, M, N)");
  CHECK(error_of("sqrt(N)").find("unknown function 'sqrt'") != std::string::npos);
  CHECK(error_of("ceil_div(N)").find("ceil_div takes 2 arguments") != std::string::npos);
  CHECK(error_of("ceil_div(-5, 2)").find("non-negative") != std::string::npos);
  CHECK(error_of("min()").find("at least 1 argument") != std::string::npos);
  CHECK(error_of("(M + N").find("missing ')'") != std::string::npos);
  CHECK(error_of("M N").find("unexpected 'N' at column 3") != std::string::npos);
  CHECK(error_of("").find("empty") != std::string::npos);
  CHECK(error_of("1.5 * N").find("not an integer") != std::string::npos);
  CHECK(error_of("M +").find("ends where a value was expected") != std::string::npos);
  CHECK(error_of("M ^ 2").find("unexpected '^'") != std::string::npos);
  CHECK(error_of(std::string(200, '(') + "1" + std::string(200, ')')).find("nested deeper than 64") !=
        std::string::npos);
  CHECK(error_of(std::string(100, '-') + "1").find("nested deeper") != std::string::npos);
}
