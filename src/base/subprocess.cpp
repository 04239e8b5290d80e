// SPDX-License-Identifier: Apache-2.0
#include "base/subprocess.hpp"

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

struct Pipe {
  int read_end = -1, write_end = -1;
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw Fatal(ExitCode::could_not_run, fmt::format("pipe: {}", std::strerror(errno)));
    read_end = fds[0];
    write_end = fds[1];
  }
  ~Pipe() { close_both(); }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read_end >= 0) ::close(read_end);
    read_end = -1;
  }
  void close_write() {
    if (write_end >= 0) ::close(write_end);
    write_end = -1;
  }
  void close_both() {
    close_read();
    close_write();
  }
};

std::string describe(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& arg : argv) text += (text.empty() ? "" : " ") + arg;
  return text;
}

}  // namespace

Result<ProcessOutput> run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (argv.empty()) throw Fatal(ExitCode::could_not_run, "run_process: empty command");
  Pipe in, out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read_end, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write_end, 1);
  posix_spawn_file_actions_adddup2(&actions, err.write_end, 2);
  if (!options.working_directory.empty())
    posix_spawn_file_actions_addchdir_np(&actions, options.working_directory.c_str());

  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> environment;
  if (options.environment) {
    for (const auto& entry : *options.environment) environment.push_back(const_cast<char*>(entry.c_str()));
    environment.push_back(nullptr);
  }
  pid_t pid = 0;
  const int spawn_error =
      posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), options.environment ? environment.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0)
    return fail(ExitCode::could_not_run, fmt::format("cannot run '{}': {}", argv[0], std::strerror(spawn_error)));
  in.close_read();
  out.close_write();
  err.close_write();

  // Feed stdin and drain both outputs together, so a chatty child never blocks on a full pipe.
  ProcessOutput result;
  std::size_t written = 0;
  if (options.input.empty())
    in.close_write();
  else
    fcntl(in.write_end, F_SETFL, O_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  bool timed_out = false;
  bool flooded = false;
  std::array<char, 65536> buffer{};
  while (out.read_end >= 0 || err.read_end >= 0) {
    std::array<pollfd, 3> fds{{{out.read_end, POLLIN, 0}, {err.read_end, POLLIN, 0}, {in.write_end, POLLOUT, 0}}};
    int wait_ms = -1;
    if (options.timeout.count() > 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left.count());
    }
    if (poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
      Pipe& source = i == 0 ? out : err;
      if (n <= 0)
        source.close_read();
      else
        (i == 0 ? result.out : result.err).append(buffer.data(), static_cast<std::size_t>(n));
    }
    if (options.max_output_bytes > 0 && result.out.size() + result.err.size() > options.max_output_bytes) {
      flooded = true;
      break;
    }
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(in.write_end, options.input.data() + written, options.input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN) || (n > 0 && written == options.input.size())) in.close_write();
    }
  }
  if (timed_out || flooded) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    return fail(ExitCode::could_not_run, fmt::format("'{}' did not finish within {} ms and was stopped", describe(argv),
                                                     options.timeout.count()));
  if (flooded)
    return fail(ExitCode::could_not_run,
                fmt::format("'{}' wrote more than {} bytes and was stopped", describe(argv), options.max_output_bytes));
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string signal_name(int signal) {
  switch (signal) {
    case 6:
      return "SIGABRT; running out of its memory limit ends this way too";
    case 9:
      return "SIGKILL";
    case 11:
      return "SIGSEGV";
    case 24:
      return "SIGXCPU, the CPU-time limit";
    default:
      return fmt::format("signal {}", signal);
  }
}

}  // namespace kforecast
