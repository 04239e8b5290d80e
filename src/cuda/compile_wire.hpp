// SPDX-License-Identifier: Apache-2.0
#pragma once

// What passes between kforecast and its compiler child (compile_child.hpp) over the child's
// standard input and output: a request one way, an answer the other. Records of
// "TAG LENGTH\n<LENGTH bytes>\n", so any bytes travel as they are. The answer comes from a
// process that compiled hostile code, so its reader takes nothing on trust.

#include <string>
#include <string_view>

#include "base/error.hpp"
#include "cuda/compiler.hpp"

namespace kforecast::cuda {

// The child's answer: the output of a compile, or the compiler's error.
struct CompileAnswer {
  Result<CompileOutput> output = CompileOutput{};
};

std::string encode_request(const CompileRequest& request);
Result<CompileRequest> decode_request(std::string_view bytes);

std::string encode_answer(const CompileAnswer& answer);
Result<CompileAnswer> decode_answer(std::string_view bytes);

}  // namespace kforecast::cuda
