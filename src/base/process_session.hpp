// SPDX-License-Identifier: Apache-2.0
#pragma once

// A child process that stays up for several request/answer exchanges over its standard input
// and output (`git cat-file --batch`), so that a program pays for starting it once. Like
// run_process, no shell is involved. Its standard error is kept for messages.

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast {

class ProcessSession {
 public:
  // Starts argv[0] (searched on PATH) and returns at once: the child starts up while the caller
  // does other work. An Error when the program cannot be started.
  static Result<std::unique_ptr<ProcessSession>> start(const std::vector<std::string>& argv,
                                                       const std::string& working_directory = {});

  // Closes the child's input (which ends a well-behaved child) and waits for it to exit.
  ~ProcessSession();
  ProcessSession(const ProcessSession&) = delete;
  ProcessSession& operator=(const ProcessSession&) = delete;

  // Says how many bytes at the start of what the child has written so far form the complete
  // answer, or 0 while it is not complete yet.
  using AnswerLength = std::function<std::size_t(std::string_view output)>;

  // Writes `request` to the child while reading its output, until `answer_length` says the
  // answer is complete; returns the answer and keeps anything after it for the next exchange.
  // An Error, with the first line the child wrote on its standard error, when the child exits
  // or closes its output first, or when `timeout` passes (the child is then stopped).
  Result<std::string> exchange(std::string_view request, const AnswerLength& answer_length,
                               std::chrono::milliseconds timeout);

 private:
  ProcessSession(pid_t pid, int input, int output, int errors, std::string command);
  void stop();
  void drain_errors(std::chrono::steady_clock::time_point deadline);
  std::string failure(std::string_view what) const;

  pid_t m_pid = -1;
  int m_input = -1;
  int m_output = -1;
  int m_errors = -1;
  std::string m_command;  // for messages
  std::string m_pending;  // output read past the last answer
  std::string m_error_text;
};

}  // namespace kforecast
