// SPDX-License-Identifier: Apache-2.0
#pragma once

// Text from a revision under review that reaches a program which hands it on to a shell. nvcc runs
// each of its stages (the preprocessor, cicc, ptxas) through `sh -c`, with every argument inside
// double quotes; it escapes `"` in every argument and `$` in include folders, nothing else. So a
// `$`, a backquote or a backslash in a define, a file name or a flag can still run a command or
// undo the quoting, and a control character (a newline) can end the command. Text holding one is
// refused where it is read, with a note naming it; the compilers check again before they run.

#include <optional>
#include <string>
#include <string_view>

namespace kforecast {

// The first character of `text` that a shell acts on even inside double quotes (`$`, a backquote,
// a backslash) or that is a control character; nullopt where there is none.
std::optional<char> shell_active_character(std::string_view text);

// As shell_active_character, and also `"`: for a path or a flag, where nvcc does not escape a
// quote the way it does in a define.
std::optional<char> shell_active_or_quote(std::string_view text);

// Why `name` (NAME, or NAME(a, b) for a function-like macro) with `value` cannot be handed to nvcc
// as a define: a name that is not an identifier, or text a shell acts on; nullopt where it can.
std::optional<std::string> define_refusal(std::string_view name, std::string_view value);

// `text` as one word a POSIX shell reads back unchanged: as it is where it holds only letters,
// digits and _./:=+,@%-, else in single quotes. For commands kforecast suggests ("kforecast bench
// 'src/k.cu:tiled<64>'"), which name files and kernels of a revision and are pasted into shells.
std::string shell_word(std::string_view text);

// "'$'", "a backquote", "a newline", "control character 0x07": the character as a note names it.
std::string describe_character(char c);

}  // namespace kforecast
