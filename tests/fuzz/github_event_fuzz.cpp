// SPDX-License-Identifier: Apache-2.0
// The GitHub event file is JSON a CI system hands us: any bytes must give commits or an error,
// and what it gives as commits must be safe to pass to git.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "git/github_event.hpp"

namespace {
bool is_hex(std::string_view text) { return text.find_first_not_of("0123456789abcdef") == std::string_view::npos; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  for (std::string_view event : {"pull_request", "merge_group", "push"}) {
    const auto commits = kforecast::git::parse_github_event(json, event, "event.json");
    if (commits && (!is_hex(commits->base) || !is_hex(commits->head) || commits->base.empty()))
      __builtin_trap();  // anything else could reach git's command line as an option
    if (!commits && commits.error().message.empty()) __builtin_trap();
  }
  // A workflow_run's head goes into an API query (escaped) and is compared with a report's.
  const auto run = kforecast::git::parse_workflow_run_event(json, "event.json");
  if (run && (!is_hex(run->head_sha) || run->head_sha.empty() || run->event.empty() ||
              run->head_label.find(':') == std::string::npos))
    __builtin_trap();
  if (!run && run.error().message.empty()) __builtin_trap();
  return 0;
}
