// SPDX-License-Identifier: Apache-2.0
#pragma once

// Secret hygiene by construction: every string kforecast writes anywhere (standard output and
// error, reports, PR comments, step summaries and outputs, plan files, caches, the ledger)
// passes redact_secrets() on its way out, which replaces the value of every secret the process
// knows. Secrets are registered once, at start, from the environment (tokens, API keys,
// variables named like secrets, and those the config names in security.secret_env). URL
// credentials (https://user:key@host) are removed wherever they appear.

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/environment.hpp"

namespace kforecast {

inline constexpr std::string_view redacted_text = "[redacted]";

class SecretSet {
 public:
  // Values shorter than min_secret_length are ignored: hiding "1" or "true" would garble text and
  // protect nothing.
  static constexpr std::size_t min_secret_length = 6;

  // Adds `value` and the forms it takes when it travels (base64 of the Basic credentials
  // actions/checkout writes into .git/config, percent-encoded).
  void add(std::string_view value);
  std::string redact(std::string_view text) const;
  std::size_t longest() const { return m_longest; }
  bool empty() const { return m_values.empty(); }

 private:
  void add_one(std::string value);
  std::vector<std::string> m_values;  // longest first, so a secret inside another is not half-hidden
  std::size_t m_longest = 0;
};

// Whether a variable of this name holds a secret: the tokens and keys kforecast reads, and any
// name that says it is one (TOKEN, SECRET, PASSWORD, API_KEY, ...).
bool names_a_secret(std::string_view variable);

// The process-wide set that redact_secrets() uses.
SecretSet& process_secrets();

// Registers every secret variable of the real environment, plus `also` (security.secret_env,
// endpoint.api_key_env), into process_secrets().
void register_environment_secrets(const std::vector<std::string>& also = {});

// `text` with every registered secret and every URL's credentials replaced by [redacted].
std::string redact_secrets(std::string_view text);

// An output stream whose every byte reaches `target` through redact_secrets(); a line is held
// until it ends (or the stream is flushed) so that a secret is never split across two writes. A
// line that a CI runner would read as a workflow command is quoted on the way
// (neutralise_workflow_commands): standard output and error pass here.
class RedactingStream {
 public:
  explicit RedactingStream(std::ostream& target);
  ~RedactingStream();
  RedactingStream(const RedactingStream&) = delete;
  RedactingStream& operator=(const RedactingStream&) = delete;
  std::ostream& stream();

 private:
  class Buffer;
  std::unique_ptr<Buffer> m_buffer;
  std::unique_ptr<std::ostream> m_stream;
};

}  // namespace kforecast
