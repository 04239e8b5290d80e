// SPDX-License-Identifier: Apache-2.0
// Environment variables override a few keys for CI use (docs/config.md names each key's variable).

#include <fmt/format.h>

#include "config/config.hpp"
#include "config/value_text.hpp"

namespace kforecast::config {

Result<Config> apply_environment(Config config, const EnvLookup& env) {
  std::string problems;
  for (const KeySpec& spec : all_keys()) {
    if (spec.env.empty()) continue;
    const std::optional<std::string> text = env(spec.env);
    // An empty variable counts as unset: CI templates often expand a missing secret to "".
    if (!text || text->empty()) continue;
    if (!spec.planned.empty()) {
      problems += fmt::format(
          "{}environment variable {} sets '{}', which is not supported yet: {} in this version; "
          "unset it",
          problems.empty() ? "" : "\n", spec.env, spec.name, spec.planned);
      continue;
    }
    auto value = parse_plain_text(spec, *text);
    if (!value) {
      problems += fmt::format("{}environment variable {} (key '{}'): {}", problems.empty() ? "" : "\n", spec.env,
                              spec.name, value.error().message);
      continue;
    }
    config.set(spec.name, std::move(*value), Source::environment, std::string(spec.env));
  }
  if (!problems.empty()) return usage_error(problems);
  return config;
}

}  // namespace kforecast::config
