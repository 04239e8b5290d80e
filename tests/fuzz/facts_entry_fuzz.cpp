// SPDX-License-Identifier: Apache-2.0
// A facts cache entry is a file on disk anyone could have edited or truncated: any bytes must
// give facts, a compile error or nullopt, never a crash, a hang or a sanitizer report; facts read back must
// write out to the same entry (the format round-trips).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "embedded/facts_cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto entry = kforecast::embedded::read_facts_entry(text);
  if (!entry) return 0;
  if (!*entry) {  // a cached compile error: never empty, and it round-trips
    const auto& message = entry->error().message;
    const auto again = kforecast::embedded::read_facts_entry(kforecast::embedded::write_facts_failure(message));
    if (message.empty() || !again || *again || again->error().message != message) __builtin_trap();
    return 0;
  }
  const auto& facts = *entry;
  if (!facts->mix.found || facts->resources.name.empty() || facts->resources.registers < 0) __builtin_trap();
  const auto again = kforecast::embedded::read_facts_entry(kforecast::embedded::write_facts_entry(*facts));
  if (!again || !(*again == *facts)) __builtin_trap();
  return 0;
}
