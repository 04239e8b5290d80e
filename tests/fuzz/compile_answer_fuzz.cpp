// SPDX-License-Identifier: Apache-2.0
// The compiler child's answer comes from a process that compiled hostile code: any bytes must
// decode to an answer or an error without a crash, a hang or a sanitizer report, and whatever
// decodes must encode back to the same answer.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cuda/compile_wire.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::cuda;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto answer = decode_answer(bytes);
  if (answer && answer->output) {
    const auto again = decode_answer(encode_answer(*answer));
    if (!again || !again->output || again->output->ptx != answer->output->ptx ||
        again->output->cubin != answer->output->cubin || again->output->log != answer->output->log)
      __builtin_trap();
  }
  (void)decode_request(bytes);
  return 0;
}
