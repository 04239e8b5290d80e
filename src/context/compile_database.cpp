// SPDX-License-Identifier: Apache-2.0
#include "context/compile_database.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "context/shell_words.hpp"

namespace kforecast::context {
namespace fs = std::filesystem;

namespace {

// Bounds on one entry, far above what a build writes, so that a hostile database costs little.
constexpr std::size_t max_argument_count = 65536;
constexpr std::size_t max_string_bytes = std::size_t{1} << 20;

// An entry's problem: becomes "NAME: entry N: WHAT".
struct EntryProblem {
  std::string what;
};

std::string string_field(const Json& entry, std::string_view key, bool required) {
  const Json* element = json_document::find(entry, key);
  if (element == nullptr) {
    if (required) throw EntryProblem{fmt::format("'{}' is missing", key)};
    return {};
  }
  if (!element->is_string()) throw EntryProblem{fmt::format("'{}' must be a string", key)};
  const std::string& text = element->get_ref<const std::string&>();
  if (text.size() > max_string_bytes)
    throw EntryProblem{fmt::format("'{}' is longer than {} bytes", key, max_string_bytes)};
  if (text.find('\0') != std::string_view::npos) throw EntryProblem{fmt::format("'{}' holds a NUL byte", key)};
  return std::string(text);
}

std::vector<std::string> entry_arguments(const Json& entry) {
  if (const Json* element = json_document::find(entry, "arguments")) {
    if (!element->is_array()) throw EntryProblem{"'arguments' must be an array of strings"};
    std::vector<std::string> arguments;
    for (const Json& item : *element) {
      if (!item.is_string()) throw EntryProblem{"'arguments' must be an array of strings"};
      const std::string& text = item.get_ref<const std::string&>();
      if (arguments.size() == max_argument_count || text.size() > max_string_bytes)
        throw EntryProblem{"'arguments' is larger than any build writes"};
      arguments.emplace_back(text);
    }
    if (arguments.empty()) throw EntryProblem{"'arguments' is empty"};
    return arguments;
  }
  const std::string command = string_field(entry, "command", false);
  if (command.empty()) throw EntryProblem{"neither 'arguments' nor 'command' is given"};
  auto words = split_shell_words(command);
  if (!words) throw EntryProblem{fmt::format("'command' is not a shell command: {}", words.error().message)};
  if (words->size() > max_argument_count) throw EntryProblem{"'command' is larger than any build writes"};
  return std::move(*words);
}

// The file's path relative to the repository root, or "" where it lies outside.
std::string repository_path(const fs::path& file, const DatabasePlace& place) {
  const fs::path relative = file.lexically_relative(place.repository_root.lexically_normal());
  if (relative.empty() || *relative.begin() == ".." || relative == ".") return {};
  return relative.generic_string();
}

class Reader {
 public:
  Reader(std::string_view name, const DatabasePlace& place) : m_place(place) { m_database.name = name; }

  void add(const Json& object) {
    const std::string file = string_field(object, "file", true);
    const std::string directory_text = string_field(object, "directory", true);
    if (file.empty()) throw EntryProblem{"'file' is empty"};
    fs::path directory(directory_text);
    // A relative directory is relative to the database's own folder (what clang's tools do).
    if (directory.is_relative()) directory = m_place.database_folder / directory;
    directory = directory.lexically_normal();
    if (!directory.has_filename() && directory != directory.root_path()) directory = directory.parent_path();  // "x/"
    DatabaseEntry entry{directory, entry_arguments(object)};
    fs::path file_path(file);
    if (file_path.is_relative()) file_path = directory / file_path;
    const std::string path = repository_path(file_path.lexically_normal(), m_place);
    if (path.empty()) {
      ++m_outside;
      return;
    }
    if (!m_database.entries.emplace(path, std::move(entry)).second) ++m_duplicates;
  }

  CompileDatabase finish() && {
    if (m_outside > 0)
      m_database.notes.push_back(
          fmt::format("{}: {} entries for files outside the repository skipped", m_database.name, m_outside));
    if (m_duplicates > 0)
      m_database.notes.push_back(fmt::format(
          "{}: {} further entries for files already listed passed over (the first entry for a file is used)",
          m_database.name, m_duplicates));
    return std::move(m_database);
  }

 private:
  const DatabasePlace& m_place;
  CompileDatabase m_database;
  std::size_t m_outside = 0;
  std::size_t m_duplicates = 0;
};

}  // namespace

Result<CompileDatabase> parse_compile_database(std::string_view text, std::string_view name,
                                               const DatabasePlace& place) {
  const auto root = json_document::parse(text);
  if (!root)
    return usage_error(fmt::format(
        "{}: not valid JSON ({}); regenerate it with the build (see docs/compile-context.md)", name, root.error()));
  if (!root->is_array()) return usage_error(fmt::format("{}: expected a JSON array of compile commands", name));
  Reader reader(name, place);
  std::size_t index = 0;
  for (const Json& element : *root) {
    ++index;
    try {
      if (!element.is_object()) throw EntryProblem{"not an object"};
      reader.add(element);
    } catch (const EntryProblem& problem) {
      return usage_error(fmt::format("{}: entry {}: {}", name, index, problem.what));
    }
  }
  return std::move(reader).finish();
}

}  // namespace kforecast::context
