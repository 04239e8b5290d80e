// SPDX-License-Identifier: Apache-2.0
#pragma once

// The vocabulary every stage shares for failure. Expected failures travel as values
// (Result<T>); programming errors and unrecoverable states throw Fatal, caught once in main.

#include <expected>
#include <stdexcept>
#include <string>

namespace kforecast {

// Exit codes are a contract with CI scripts (docs/getting-started.md lists them): never renumber.
enum class ExitCode : int {
  pass = 0,           // the gate passed, or the command did its job
  gate_failed = 1,    // a regression (or a lint error) was found
  usage = 2,          // bad command line or configuration
  could_not_run = 3,  // the work could not be done (no GPU in strict mode, git failed, ...)
};

// An expected failure. `message` is what a user reads: what was wrong, where, what to do.
struct Error {
  std::string message;
  ExitCode exit_code = ExitCode::could_not_run;
};

template <class T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(ExitCode code, std::string message) {
  return std::unexpected(Error{std::move(message), code});
}
inline std::unexpected<Error> usage_error(std::string message) { return fail(ExitCode::usage, std::move(message)); }

// Thrown for states the program cannot continue from; main prints "kforecast: error: ...".
class Fatal : public std::runtime_error {
 public:
  explicit Fatal(const Error& error) : std::runtime_error(error.message), m_exit_code(error.exit_code) {}
  Fatal(ExitCode code, const std::string& message) : std::runtime_error(message), m_exit_code(code) {}
  ExitCode exit_code() const { return m_exit_code; }

 private:
  ExitCode m_exit_code;
};

}  // namespace kforecast
