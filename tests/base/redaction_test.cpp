// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <sstream>

#include "base/redaction.hpp"

using namespace kforecast;

TEST_CASE("base: secrets are replaced in every form they travel in") {
  SecretSet secrets;
  secrets.add("ghp_0123456789abcdef");
  secrets.add("short");  // below the minimum: not a secret worth garbling text for
  CHECK(secrets.redact("token ghp_0123456789abcdef here") == "token [redacted] here");
  CHECK(secrets.redact("twice ghp_0123456789abcdefghp_0123456789abcdef") == "twice [redacted][redacted]");
  CHECK(secrets.redact("short stays") == "short stays");
  // actions/checkout's extraheader: basic base64("x-access-token:TOKEN")
  CHECK(secrets.redact("AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hwXzAxMjM0NTY3ODlhYmNkZWY=") ==
        "AUTHORIZATION: basic [redacted]");
  SecretSet special;
  special.add("p@ss/w:rd+1");
  CHECK(special.redact("https://h/?k=p%40ss%2Fw%3Ard%2B1") == "https://h/?k=[redacted]");
}

TEST_CASE("base: variables are secrets by name") {
  for (const char* name : {"GITHUB_TOKEN", "GH_TOKEN", "KFORECAST_API_KEY", "OPENAI_API_KEY", "MY_SERVICE_SECRET",
                           "db_password", "AWS_SECRET_ACCESS_KEY", "HF_TOKEN"})
    CHECK(names_a_secret(name));
  for (const char* name : {"PATH", "HOME", "CUDA_HOME", "GITHUB_REPOSITORY", "KFORECAST_ENDPOINT"})
    CHECK_FALSE(names_a_secret(name));
}

TEST_CASE("base: URL credentials are removed from any text") {
  CHECK(redact_secrets("endpoint https://user:sk-key@llm.example/v1 ok") ==
        "endpoint https://[redacted]@llm.example/v1 ok");
  CHECK(redact_secrets("git https://x-access-token:abc@github.com/o/r") == "git https://[redacted]@github.com/o/r");
  CHECK(redact_secrets("mail a@b.c and https://example.com/a@b") == "mail a@b.c and https://example.com/a@b");
}

TEST_CASE("base: a redacting stream never lets a secret through, even split across writes") {
  process_secrets().add("sk-split-secret-0042");
  std::ostringstream target;
  {
    RedactingStream redacted(target);
    redacted.stream() << "a sk-split-"
                      << "secret-0042 b\n"
                      << "no newline sk-split-secret"
                      << "-0042";
  }
  CHECK(target.str() == "a [redacted] b\nno newline [redacted]");
}
