// SPDX-License-Identifier: Apache-2.0
#include "capture/attached_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere in C++

namespace kforecast::capture {

Result<int> run_attached(const std::vector<std::string>& argv,
                         const std::vector<std::pair<std::string, std::string>>& added_environment) {
  if (argv.empty()) return usage_error("no program to run");
  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto name = text.substr(0, text.find('='));
    bool replaced = false;
    for (const auto& [added, value] : added_environment) replaced = replaced || added == name;
    if (!replaced) environment.emplace_back(text);
  }
  for (const auto& [name, value] : added_environment) environment.push_back(name + "=" + value);
  std::vector<char*> env_pointers, arg_pointers;
  for (auto& entry : environment) env_pointers.push_back(entry.data());
  env_pointers.push_back(nullptr);
  std::vector<std::string> args = argv;
  for (auto& arg : args) arg_pointers.push_back(arg.data());
  arg_pointers.push_back(nullptr);

  // exec's failure travels back through a close-on-exec pipe: nothing read means exec succeeded.
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0)
    return fail(ExitCode::could_not_run, "cannot create a pipe to start the program");
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(report[0]);
    ::close(report[1]);
    return fail(ExitCode::could_not_run, fmt::format("cannot start {}: fork failed", argv[0]));
  }
  if (child == 0) {
    ::close(report[0]);
    ::execvpe(arg_pointers[0], arg_pointers.data(), env_pointers.data());
    const int error = errno;
    [[maybe_unused]] const auto written = ::write(report[1], &error, sizeof error);
    ::_exit(127);
  }
  ::close(report[1]);
  int exec_error = 0;
  const auto got = ::read(report[0], &exec_error, sizeof exec_error);
  ::close(report[0]);
  // While the program runs, Ctrl-C is its to handle: this process waits for it and reports.
  struct sigaction ignore {
  }, old_interrupt{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &old_interrupt);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_interrupt, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (got == static_cast<ssize_t>(sizeof exec_error))
    return fail(ExitCode::could_not_run, fmt::format("cannot run {}: {}", argv[0], std::strerror(exec_error)));
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace kforecast::capture
