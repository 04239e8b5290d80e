// SPDX-License-Identifier: Apache-2.0
#include "gate/head_code_policy.hpp"

#include <fmt/format.h>

namespace kforecast::gate {

NoBench HeadCodePolicy::no_bench() const {
  return {!runs, "this runner cannot sandbox an untrusted author's code (the report's warning says why)",
          "not run: no sandbox for an untrusted author's code"};
}

HeadCodePolicy head_code_policy(const git::ChangeAuthor& author, const SandboxStatus& sandbox) {
  HeadCodePolicy policy;
  const std::string missing = sandbox.missing();
  if (missing.empty()) return policy;
  if (author.trust == git::AuthorTrust::trusted) {
    policy.unconfined_note = fmt::format(
        "not confined: the head was compiled and run here without the whole sandbox ({}), as its author is trusted "
        "({}); to confine it, {}",
        missing, author.reason, sandbox.how_to_fix());
    return policy;
  }
  policy.runs = false;
  policy.refusal = {
      fmt::format("not compiled or run: the change's author is not trusted ({}) and this runner cannot sandbox its "
                  "code",
                  author.reason),
      fmt::format("{}; so each kernel is forecast from its source alone, without compiler facts, and none is "
                  "measured. To compile and measure it, {}",
                  missing, sandbox.how_to_fix())};
  return policy;
}

}  // namespace kforecast::gate
