// SPDX-License-Identifier: Apache-2.0
#pragma once

// The allow-list for a project's compiler arguments. They come from a pull request's head, or
// from a compile database the workflow made from it, so they are hostile: an argument that runs
// a program (-ccbin), reads a file (--options-file, @file, -include) or reaches the linker is
// refused. Only what decides what the code means or how it is compiled passes: include folders
// (include_folder.hpp), definitions, the language standard and code-generation flags. Arch,
// mode and output arguments are dropped, because kforecast picks the architecture and the
// output itself. Every argument left out is listed with its reason, in CompileContext::dropped
// where kforecast has no need of it and in CompileContext::refused where it is unsafe, unknown
// (default deny) or malformed.

#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "context/compile_context.hpp"
#include "context/include_folder.hpp"

namespace kforecast::context {

// Adds what `arguments` (a compiler's arguments, without the compiler itself) allow to `context`.
// Arguments that are not options (the source file) are skipped without a note.
void add_arguments(std::span<const std::string> arguments, const FolderPlace& place, const FolderLookup& lookup,
                   CompileContext& context);

// "NAME" or "NAME=VALUE" as a define, or nullopt where NAME is not an identifier (optionally
// followed by a macro parameter list).
std::optional<std::pair<std::string, std::string>> parse_define(std::string_view text);

}  // namespace kforecast::context
