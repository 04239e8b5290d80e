// SPDX-License-Identifier: Apache-2.0
// The request and answer between kforecast and its compiler child: any bytes travel intact, and
// an answer from a child that compiled hostile code is read without trust.

#include <catch2/catch.hpp>

#include "cuda/compile_wire.hpp"

using namespace kforecast::cuda;
using Catch::Matchers::Contains;

TEST_CASE("cuda: a compile request survives the wire byte for byte") {
  CompileRequest request;
  request.source = std::string("__global__ void k() {}\n\0\n7 2\nheader_name 3\n", 42);
  request.file_name = "dir/k.cu";
  request.arch = "compute_90";
  request.include_dirs = {"/usr/local/cuda/include"};
  request.defines = {{"TILE", "64"}, {"EMPTY", ""}};
  request.options = {"-default-device"};
  request.name_expressions = {"k", "tiled<64>"};
  request.headers = {{"a.h", "#pragma once\n"}, {"../b.h", ""}};
  const auto decoded = decode_request(encode_request(request));
  REQUIRE(decoded);
  CHECK(decoded->source == request.source);
  CHECK(decoded->file_name == request.file_name);
  CHECK(decoded->arch == request.arch);
  CHECK(decoded->include_dirs == request.include_dirs);
  CHECK(decoded->defines == request.defines);
  CHECK(decoded->options == request.options);
  CHECK(decoded->name_expressions == request.name_expressions);
  REQUIRE(decoded->headers.size() == 2);
  CHECK(decoded->headers[1].include_name == "../b.h");
  CHECK(decoded->headers[1].text.empty());
}

TEST_CASE("cuda: a compile answer survives the wire, output or error") {
  CompileOutput output;
  output.ptx = ".version 8.0\n";
  output.cubin = {std::byte{0x7f}, std::byte{0}, std::byte{'\n'}};
  output.log = "ptxas info : Used 8 registers\n";
  output.lowered_names = {{"k", "_Z1kv"}};
  output.options = {"--gpu-architecture=sm_90"};
  const auto decoded = decode_answer(encode_answer({output}));
  REQUIRE(decoded);
  REQUIRE(decoded->output);
  CHECK(decoded->output->ptx == output.ptx);
  CHECK(decoded->output->cubin == output.cubin);
  CHECK(decoded->output->log == output.log);
  REQUIRE(decoded->output->lowered_names.size() == 1);
  CHECK(decoded->output->lowered_names[0].lowered == "_Z1kv");

  const auto error = decode_answer(
      encode_answer({std::unexpected(kforecast::Error{"k.cu(1): error", kforecast::ExitCode::gate_failed})}));
  REQUIRE(error);
  REQUIRE_FALSE(error->output);
  CHECK(error->output.error().message == "k.cu(1): error");
  CHECK(error->output.error().exit_code == kforecast::ExitCode::gate_failed);
}

TEST_CASE("cuda: a malformed answer is an error, never a crash or a made-up result") {
  const std::string good = encode_answer({CompileOutput{}});
  for (const std::string& bad :
       {std::string(), std::string("garbage"), good.substr(0, good.size() - 1),
        std::string("kforecast-compile-answer 1\nptx 99999999999999999999\n"),
        std::string("kforecast-compile-answer 1\nptx 5\nab\n"), std::string("kforecast-compile-answer 1\nwho 1\nx\n"),
        std::string("kforecast-compile-answer 1\nerror_exit_code 1\n9\nerror 1\nx\n"),
        std::string("kforecast-compile-answer 1\nexpression 1\nk\n")}) {
    INFO(bad);
    const auto decoded = decode_answer(bad);
    CHECK_FALSE(decoded);
  }
}
