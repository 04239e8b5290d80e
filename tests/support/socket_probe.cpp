// SPDX-License-Identifier: Apache-2.0
// kf_socket_probe PORT: what this process may do on the network, one line each, for tests that
// run it confined (kforecast __confined-exec ... -- kf_socket_probe PORT):
//   inet: connected | inet: socket refused (ERRNO) | inet: connect failed (ERRNO)   (127.0.0.1:PORT)
//   unix: ok | unix: refused (ERRNO)                                                (a socket pair)
//   io_uring: ok | io_uring: refused (ERRNO)
// Test code: standard library and Linux only.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: kf_socket_probe PORT\n", stderr);
    return 2;
  }
  const int inet = ::socket(AF_INET, SOCK_STREAM, 0);
  if (inet < 0) {
    std::printf("inet: socket refused (%s)\n", strerrorname_np(errno));
  } else {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(std::atoi(argv[1])));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(inet, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0)
      std::printf("inet: connected\n");
    else
      std::printf("inet: connect failed (%s)\n", strerrorname_np(errno));
    ::close(inet);
  }
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0) {
    char c = 0;
    const bool passed = ::write(pair[0], "x", 1) == 1 && ::read(pair[1], &c, 1) == 1 && c == 'x';
    std::printf("unix: %s\n", passed ? "ok" : "broken");
  } else {
    std::printf("unix: refused (%s)\n", strerrorname_np(errno));
  }
  if (syscall(SYS_io_uring_setup, 1, nullptr) == 0 || errno != ENOSYS)
    std::printf("io_uring: ok (%s)\n", strerrorname_np(errno));
  else
    std::printf("io_uring: refused (%s)\n", strerrorname_np(errno));
  return 0;
}
