// SPDX-License-Identifier: Apache-2.0
#include "base/redaction.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <streambuf>

#include "base/plain_text.hpp"

extern char** environ;

namespace kforecast {
namespace {

std::string base64(std::string_view bytes) {
  static constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const auto byte = [&](std::size_t at) { return at < bytes.size() ? static_cast<unsigned char>(bytes[at]) : 0u; };
    const unsigned group = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out += alphabet[(group >> 18) & 63];
    out += alphabet[(group >> 12) & 63];
    out += i + 1 < bytes.size() ? alphabet[(group >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? alphabet[group & 63] : '=';
  }
  return out;
}

std::string percent_encoded(std::string_view value) {
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else
      out += "%" + std::string(1, "0123456789ABCDEF"[c >> 4]) + "0123456789ABCDEF"[c & 15];
  }
  return out;
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void SecretSet::add_one(std::string value) {
  if (value.size() < min_secret_length || std::ranges::find(m_values, value) != m_values.end()) return;
  m_longest = std::max(m_longest, value.size());
  m_values.push_back(std::move(value));
  std::ranges::stable_sort(m_values, std::greater<>(), &std::string::size);
}

void SecretSet::add(std::string_view value) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  if (value.size() < min_secret_length) return;
  add_one(std::string(value));
  add_one(percent_encoded(value));
  // actions/checkout keeps the token in .git/config as "AUTHORIZATION: basic base64(x-access-token:TOKEN)".
  add_one(base64("x-access-token:" + std::string(value)));
  add_one(base64(value));
}

std::string SecretSet::redact(std::string_view text) const {
  std::string out(text);
  for (const auto& value : m_values)
    for (auto at = out.find(value); at != std::string::npos; at = out.find(value, at + redacted_text.size()))
      out.replace(at, value.size(), redacted_text);
  return out;
}

bool names_a_secret(std::string_view variable) {
  static constexpr std::array<std::string_view, 8> known = {
      "GITHUB_TOKEN",      "GH_TOKEN",       "GITLAB_TOKEN",          "CI_JOB_TOKEN",
      "KFORECAST_API_KEY", "OPENAI_API_KEY", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"};
  if (std::ranges::find(known, variable) != known.end()) return true;
  static constexpr std::array<std::string_view, 9> words = {
      "TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE_KEY", "CREDENTIAL", "ACCESS_KEY"};
  const std::string name = upper(variable);
  return std::ranges::any_of(words, [&](std::string_view word) { return name.find(word) != std::string::npos; });
}

SecretSet& process_secrets() {
  static SecretSet secrets;
  return secrets;
}

void register_environment_secrets(const std::vector<std::string>& also) {
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view name = text.substr(0, equals);
    if (names_a_secret(name) || std::ranges::find(also, name) != also.end())
      process_secrets().add(text.substr(equals + 1));
  }
}

std::string redact_secrets(std::string_view text) {
  std::string out = process_secrets().redact(text);
  // scheme://user:password@host and scheme://token@host: whatever stands before '@' in the authority.
  static const std::regex credentials(R"(([A-Za-z][A-Za-z0-9+.-]*://)[^/\s@'"<>]+@)");
  if (out.find("://") != std::string::npos) out = std::regex_replace(out, credentials, "$1[redacted]@");
  return out;
}

class RedactingStream::Buffer : public std::streambuf {
 public:
  explicit Buffer(std::ostream& target) : m_target(target) {}
  ~Buffer() override { sync(); }

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    m_pending.push_back(traits_type::to_char_type(c));
    if (c == '\n')
      write_out(m_pending.size());
    else if (m_pending.size() >= 65536)
      write_out(m_pending.size() - process_secrets().longest());
    return c;
  }
  std::streamsize xsputn(const char* text, std::streamsize count) override {
    for (std::streamsize i = 0; i < count; ++i) overflow(traits_type::to_int_type(text[i]));
    return count;
  }
  int sync() override {
    write_out(m_pending.size());
    m_target.flush();
    return m_target ? 0 : -1;
  }

 private:
  void write_out(std::size_t count) {
    if (count == 0) return;
    // Also no line a CI runner would read as a workflow command (base/plain_text.hpp): kforecast
    // writes none, so one can only be text of a change that a writer failed to quote.
    m_target << neutralise_workflow_commands(redact_secrets(std::string_view(m_pending).substr(0, count)),
                                             m_at_line_start);
    m_pending.erase(0, count);
  }
  std::ostream& m_target;
  std::string m_pending;
  bool m_at_line_start = true;
};

RedactingStream::RedactingStream(std::ostream& target)
    : m_buffer(std::make_unique<Buffer>(target)), m_stream(std::make_unique<std::ostream>(m_buffer.get())) {}

RedactingStream::~RedactingStream() {
  m_stream->flush();
  m_stream.reset();
}

std::ostream& RedactingStream::stream() { return *m_stream; }

}  // namespace kforecast
