// SPDX-License-Identifier: Apache-2.0
#pragma once

// A CUDA toolkit folder for tests of the toolkit locator: bin/nvcc is a shell script that prints
// `version` as `nvcc --version` does (or exits 3 for ""), with include/cuda.h and include/cccl.

#include <filesystem>
#include <fstream>
#include <string>

namespace kforecast::testing {

inline void write_test_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

enum class Cccl { present, absent };

inline std::filesystem::path fake_toolkit(const std::filesystem::path& root, const std::string& version,
                                          Cccl cccl = Cccl::present) {
  namespace fs = std::filesystem;
  const std::string said = version.empty() ? "exit 3\n"
                                           : "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                                             "echo 'Cuda compilation tools, release 13.0, V" +
                                                 version + "'\n";
  write_test_file(root / "bin/nvcc", "#!/bin/sh\n" + said);
  fs::permissions(root / "bin/nvcc", fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  write_test_file(root / "include/cuda.h", "");
  if (cccl == Cccl::present) fs::create_directories(root / "include/cccl");
  return root;
}

}  // namespace kforecast::testing
