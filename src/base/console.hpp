// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a command's warnings and progress go: standard error, whether it is a terminal, and the
// command's Progress (base/progress.hpp), the one writer of progress lines: steps report stages
// and counts to it and never write terminal escapes themselves.

#include <iosfwd>

#include "base/progress.hpp"

namespace kforecast {

struct Console {
  std::ostream& warnings;
  bool is_terminal = false;
  Progress* progress = nullptr;  // nullptr: no progress is shown

  void stage(std::string_view name, std::size_t total = 0, std::string_view items = "kernels") const {
    if (progress != nullptr) progress->stage(name, total, items);
  }
  void advance(std::size_t done) const {
    if (progress != nullptr) progress->advance(done);
  }
  void detail(std::string_view text) const {
    if (progress != nullptr) progress->detail(text);
  }
};

}  // namespace kforecast
