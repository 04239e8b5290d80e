// SPDX-License-Identifier: Apache-2.0
#pragma once

// Generated text for define values and flags: every shell metacharacter, quote and newline, in
// forms that would run `touch kf_marker` (or call curl, id or a nested shell) if a shell re-read
// them, mixed with the harmless string values real projects define. Deterministic for a seed.

#include <array>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::testing {

inline std::vector<std::string> shell_payloads(unsigned seed, std::size_t count) {
  static constexpr std::array<std::string_view, 22> attacks{"$(touch kf_marker)",
                                                            "`touch kf_marker`",
                                                            "${IFS}touch${IFS}kf_marker",
                                                            "\\\"; touch kf_marker; \\\"",
                                                            "\"$(touch kf_marker)\"",
                                                            "$((1+1))",
                                                            "$HOME",
                                                            "\\`touch kf_marker\\`",
                                                            "\ntouch kf_marker\n",
                                                            "\rtouch kf_marker",
                                                            "a\\",
                                                            "$(curl -s http://127.0.0.1:9/x)",
                                                            "`id > kf_marker`",
                                                            "$(sh -c 'touch kf_marker')",
                                                            "\\$(touch kf_marker)",
                                                            "\"; touch kf_marker #",
                                                            "1$(touch kf_marker)",
                                                            "$'\\x74ouch' kf_marker",
                                                            "\x01\x02",
                                                            "\ttab",
                                                            "${PATH:0:1}",
                                                            "$(printf %s kf > kf_marker)"};
  static constexpr std::array<std::string_view, 18> harmless{"\"{a b}\"", "\"/opt/my dir/data\"",
                                                             "1",         "\"1.2.3\"",
                                                             "'x'",       "{}",
                                                             "a;b",       "a|b",
                                                             "a&b",       "(1<<4)",
                                                             "\"a,b\"",   "x y z",
                                                             "!x",        "#x",
                                                             "~/x",       "*",
                                                             "?",         "[a]"};
  static constexpr std::array<std::string_view, 6> joins{"", " ", ";", "&&", "|", "\""};
  std::mt19937 random(seed);
  const auto pick = [&](const auto& items) { return std::string(items[random() % items.size()]); };
  std::vector<std::string> values;
  for (std::size_t i = 0; i < count; ++i) {
    switch (random() % 4) {
      case 0:
        values.push_back(pick(harmless));
        break;
      case 1:
        values.push_back(pick(attacks));
        break;
      default:
        values.push_back(pick(harmless) + pick(joins) + pick(attacks) + pick(joins) + pick(harmless));
        break;
    }
  }
  return values;
}

}  // namespace kforecast::testing
