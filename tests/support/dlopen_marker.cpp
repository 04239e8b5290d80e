// SPDX-License-Identifier: Apache-2.0
// A shared library that proves it was loaded: dlopen runs its constructor before anything of it is
// called, so a library named in an untrusted file runs code the moment it is opened, GPU or not.
// The constructor writes the file KF_DLOPEN_MARKER names.
#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor)) void mark_loaded() {
  const char* path = std::getenv("KF_DLOPEN_MARKER");
  if (path == nullptr) return;
  if (std::FILE* file = std::fopen(path, "w")) {
    std::fputs("loaded\n", file);
    std::fclose(file);
  }
}

}  // namespace
