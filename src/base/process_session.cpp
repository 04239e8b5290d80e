// SPDX-License-Identifier: Apache-2.0
#include "base/process_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

extern char** environ;

namespace kforecast {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string first_line(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  const auto newline = text.find('\n');
  return std::string(newline == std::string_view::npos ? text : text.substr(0, newline));
}

}  // namespace

Result<std::unique_ptr<ProcessSession>> ProcessSession::start(const std::vector<std::string>& argv,
                                                              const std::string& working_directory) {
  if (argv.empty()) throw Fatal(ExitCode::could_not_run, "ProcessSession: empty command");
  std::array<int, 2> in{-1, -1}, out{-1, -1}, err{-1, -1};
  for (auto* fds : {&in, &out, &err})
    if (pipe2(fds->data(), O_CLOEXEC) != 0) {
      for (auto* open : {&in, &out, &err}) close_fd((*open)[0]), close_fd((*open)[1]);
      throw Fatal(ExitCode::could_not_run, fmt::format("pipe: {}", std::strerror(errno)));
    }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  if (!working_directory.empty()) posix_spawn_file_actions_addchdir_np(&actions, working_directory.c_str());
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawn_error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close_fd(in[0]), close_fd(out[1]), close_fd(err[1]);
  if (spawn_error != 0) {
    close_fd(in[1]), close_fd(out[0]), close_fd(err[0]);
    return fail(ExitCode::could_not_run, fmt::format("cannot run '{}': {}", argv[0], std::strerror(spawn_error)));
  }
  signal(SIGPIPE, SIG_IGN);  // a child that dies must not take this process with it
  for (int fd : {in[1], out[0], err[0]}) fcntl(fd, F_SETFL, O_NONBLOCK);
  std::string command;
  for (const auto& arg : argv) command += (command.empty() ? "" : " ") + arg;
  return std::unique_ptr<ProcessSession>(new ProcessSession(pid, in[1], out[0], err[0], std::move(command)));
}

ProcessSession::ProcessSession(pid_t pid, int input, int output, int errors, std::string command)
    : m_pid(pid), m_input(input), m_output(output), m_errors(errors), m_command(std::move(command)) {}

ProcessSession::~ProcessSession() {
  close_fd(m_input);  // end of input: the child finishes and exits
  close_fd(m_output);
  close_fd(m_errors);
  if (m_pid > 0) {
    int status = 0;
    while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

void ProcessSession::stop() {
  if (m_pid > 0) kill(m_pid, SIGKILL);
  close_fd(m_input);
}

// The child closed its output: what it says on its standard error, written as it exits, is the
// reason a user needs.
void ProcessSession::drain_errors(std::chrono::steady_clock::time_point deadline) {
  std::array<char, 4096> buffer{};
  while (m_errors >= 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd fd{m_errors, POLLIN, 0};
    if (left.count() <= 0 || poll(&fd, 1, static_cast<int>(left.count())) <= 0) return;
    const ssize_t n = ::read(m_errors, buffer.data(), buffer.size());
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) return close_fd(m_errors);
    m_error_text.append(buffer.data(), static_cast<std::size_t>(n));
  }
}

std::string ProcessSession::failure(std::string_view what) const {
  const std::string said = first_line(m_error_text);
  return fmt::format("'{}' {}{}{}", m_command, what, said.empty() ? "" : ": ", said);
}

Result<std::string> ProcessSession::exchange(std::string_view request, const AnswerLength& answer_length,
                                             std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t written = 0;
  char buffer[65536];  // not zeroed: only what read() fills is used, and exchanges are many
  for (;;) {
    if (written == request.size() || m_input < 0)
      if (const std::size_t length = answer_length(m_pending); length > 0) {
        std::string answer = m_pending.substr(0, length);
        m_pending.erase(0, length);
        return answer;
      }
    if (m_output < 0) {
      drain_errors(deadline);
      return fail(ExitCode::could_not_run, failure("ended before it answered"));
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      stop();
      return fail(ExitCode::could_not_run,
                  fmt::format("'{}' did not answer within {} ms and was stopped", m_command, timeout.count()));
    }
    // Writing and reading together: a long request never waits on a child blocked on its output.
    const bool writing = written < request.size();
    std::array<pollfd, 3> fds{{{m_output, POLLIN, 0}, {m_errors, POLLIN, 0}, {writing ? m_input : -1, POLLOUT, 0}}};
    if (poll(fds.data(), fds.size(), static_cast<int>(left.count())) < 0 && errno != EINTR)
      return fail(ExitCode::could_not_run, fmt::format("poll: {}", std::strerror(errno)));
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0)
        close_fd(i == 0 ? m_output : m_errors);
      else
        (i == 0 ? m_pending : m_error_text).append(buffer, static_cast<std::size_t>(n));
    }
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(m_input, request.data() + written, request.size() - written);
      if (n < 0 && errno != EAGAIN && errno != EINTR) {
        // The child closed its input, most likely exiting: its output's end says the rest.
        close_fd(m_input);
        written = request.size();
      }
      if (n > 0) written += static_cast<std::size_t>(n);
    }
  }
}

}  // namespace kforecast
