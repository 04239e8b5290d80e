// SPDX-License-Identifier: Apache-2.0
#pragma once

// A compile database (compile_commands.json, the clangd and clang-tidy convention: a JSON array
// of {"directory", "file", "command" | "arguments", "output"}), read as untrusted input: a pull
// request's workflow made it from the head, so any shape may come. Entries are keyed by their
// file's repository-relative path; entries for files outside the repository are skipped.
// Where several entries name one file (CMake lists a file once per target that compiles it),
// the first wins, as CMake writes targets in the order the project defines them, and a note
// says how many were passed over.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::context {

struct DatabaseEntry {
  std::filesystem::path directory;     // absolute and normal: what relative arguments are relative to
  std::vector<std::string> arguments;  // the compiler first, as the build ran it
};

struct CompileDatabase {
  std::string name;                                           // as messages give it: "build/compile_commands.json"
  std::map<std::string, DatabaseEntry, std::less<>> entries;  // by repository-relative file
  std::vector<std::string> notes;                             // "3 entries for files outside the repository skipped"
};

struct DatabasePlace {
  std::filesystem::path repository_root;  // absolute
  std::filesystem::path database_folder;  // absolute: what a relative "directory" is relative to
};

// Parses the database's text. `name` is used in messages. A database that is not a JSON array of
// objects, or an entry of the wrong shape, is an Error naming the file, the entry and what is
// wrong ("build/compile_commands.json: entry 3: 'file' must be a string").
Result<CompileDatabase> parse_compile_database(std::string_view text, std::string_view name,
                                               const DatabasePlace& place);

}  // namespace kforecast::context
