// SPDX-License-Identifier: Apache-2.0
#pragma once

// The tokens of a Python build script (setup.py), read without running it: a pull request's
// setup.py is untrusted. Enough of Python's lexical structure to read string literals and the
// names around them (build_file readers), and the if/elif/else blocks they sit in, so that a flag
// a branch adds only for ROCm or for an opt-in environment variable is told apart from the flags
// every CUDA build gets.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::context {

struct PythonToken {
  enum class Kind { string, name, number, punctuation };
  Kind kind = Kind::punctuation;
  std::string text;  // a string's value (an f-string's {expression}s made unknown references)
  std::size_t line = 1;
  std::size_t column = 0;   // of the token's first character, from 0
  bool line_start = false;  // the first token of a logical line (outside any bracket)
  // Why the token sits in a branch a CUDA build with no opt-in environment does not take
  // ("ROCm branch", "taken only when the environment sets DISABLE_X"), or "" where it is taken
  // or not known (counted as taken: the reader then keeps what it finds).
  std::string not_taken;
};

// The tokens of `text`, comments left out, each marked with the branch it sits in (above).
std::vector<PythonToken> python_tokens(std::string_view text);

}  // namespace kforecast::context
