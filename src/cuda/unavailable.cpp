// SPDX-License-Identifier: Apache-2.0
#include "cuda/unavailable.hpp"

namespace kforecast::cuda {

namespace {
// Enough paths to show where the search looked; details() has the rest.
constexpr std::size_t listed_attempts = 4;
}  // namespace

std::string Unavailable::message() const {
  std::string text = what;
  if (!tried.empty()) {
    text += " (tried ";
    for (std::size_t i = 0; i < tried.size() && i < listed_attempts; ++i) {
      if (i > 0) text += ", ";
      text += tried[i].path;
    }
    if (tried.size() > listed_attempts) text += " and " + std::to_string(tried.size() - listed_attempts) + " more";
    text += ")";
  }
  if (!consequence.empty()) text += ": " + consequence;
  if (!fix.empty()) text += (consequence.empty() ? ": " : "; ") + fix;
  return text;
}

std::string Unavailable::details() const {
  std::string text;
  for (const auto& attempt : tried) text += attempt.path + ": " + attempt.error + "\n";
  return text;
}

Error Unavailable::to_error(ExitCode code) const { return Error{message(), code}; }

}  // namespace kforecast::cuda
