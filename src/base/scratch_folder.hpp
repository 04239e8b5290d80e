// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fresh empty folder for one child process's work (a compile), removed with everything in it
// when it goes out of scope. path() is "" where none could be made.

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace kforecast {

class ScratchFolder {
 public:
  // `prefix`: the folder's name before its random part, e.g. "kforecast-nvcc".
  explicit ScratchFolder(std::string_view prefix) {
    std::error_code ec;
    const std::string name = std::string(prefix) + "-XXXXXX";
    std::string pattern = (std::filesystem::temp_directory_path(ec) / name).string();
    if (ec) pattern = "/tmp/" + name;
    if (::mkdtemp(pattern.data()) != nullptr) m_path = pattern;
  }
  ~ScratchFolder() {
    std::error_code ec;
    if (!m_path.empty()) std::filesystem::remove_all(m_path, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

}  // namespace kforecast
