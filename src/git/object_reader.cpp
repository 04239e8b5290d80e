// SPDX-License-Identifier: Apache-2.0
#include "git/object_reader.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "git/git_process.hpp"

namespace kforecast::git {
namespace {

// One answer of `git cat-file --batch`: "HASH TYPE SIZE\n<SIZE bytes>\n", or "NAME missing\n"
// and "NAME ambiguous\n" for a name git cannot take.
struct AnswerPlace {
  std::size_t header = 0;  // the header line, without its newline
  std::size_t header_length = 0;
  std::size_t contents = 0;
  std::size_t size = 0;
  bool found = false;
};

bool is_hex(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// Parses the answer at `at`; nothing while it is incomplete. A header it cannot read is an
// answer without contents, so the caller reports it.
std::optional<AnswerPlace> parse_answer(std::string_view output, std::size_t at) {
  const std::size_t newline = output.find('\n', at);
  if (newline == std::string_view::npos) return std::nullopt;
  AnswerPlace place{at, newline - at, newline + 1, 0, false};
  const std::string_view header = output.substr(at, newline - at);
  if (header.ends_with(" missing") || header.ends_with(" ambiguous")) return place;
  const std::size_t first_space = header.find(' ');
  const std::size_t last_space = header.rfind(' ');
  if (first_space == std::string_view::npos || first_space == last_space) return place;
  const std::string_view size_text = header.substr(last_space + 1);
  if (!is_hex(header.substr(0, first_space)) ||
      std::from_chars(size_text.data(), size_text.data() + size_text.size(), place.size).ec != std::errc{} ||
      place.size > output.max_size() / 2)
    return place;
  if (output.size() < place.contents + place.size + 1) return std::nullopt;
  place.found = true;
  return place;
}

std::string hex_of(std::string_view raw) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(raw.size() * 2);
  for (const char c : raw) {
    hex += digits[static_cast<unsigned char>(c) >> 4];
    hex += digits[static_cast<unsigned char>(c) & 15];
  }
  return hex;
}

struct TreeEntryRecord {
  std::string mode;
  std::string name;
  std::string id;
};

// A tree object: "MODE NAME\0<raw hash>" repeated; the hash is as long as the tree's own.
Result<std::vector<TreeEntryRecord>> parse_tree(const GitObject& tree) {
  const std::size_t hash_bytes = tree.id.size() / 2;
  std::vector<TreeEntryRecord> entries;
  std::string_view rest = tree.contents;
  while (!rest.empty()) {
    const std::size_t space = rest.find(' ');
    const std::size_t nul = rest.find('\0');
    if (space == std::string_view::npos || nul == std::string_view::npos || space > nul ||
        rest.size() < nul + 1 + hash_bytes)
      return fail(ExitCode::could_not_run, fmt::format("git tree {} could not be read", tree.id));
    entries.push_back({std::string(rest.substr(0, space)), std::string(rest.substr(space + 1, nul - space - 1)),
                       hex_of(rest.substr(nul + 1, hash_bytes))});
    rest.remove_prefix(nul + 1 + hash_bytes);
  }
  return entries;
}

}  // namespace

Result<ObjectReader> ObjectReader::start(const std::filesystem::path& directory) {
  auto session = ProcessSession::start({"git", "-C", directory.string(), "--no-pager", "cat-file", "--batch"});
  if (!session) {
    if (session.error().message.find("cannot run") != std::string::npos)
      return fail(ExitCode::could_not_run,
                  "git not found: install git (apt-get install git); kforecast reads revisions through it");
    return std::unexpected(session.error());
  }
  return ObjectReader(std::move(*session));
}

Result<std::vector<std::optional<GitObject>>> ObjectReader::read(const std::vector<std::string>& names) {
  std::vector<std::optional<GitObject>> objects;
  if (names.empty()) return objects;
  std::string request;
  for (const auto& name : names) {
    if (name.find_first_of("\n\r") != std::string::npos)
      return fail(ExitCode::could_not_run, fmt::format("cannot read a path containing a line break: {:?}", name));
    request += name;
    request += '\n';
  }
  // Parsed as the output arrives, each answer once: a large blob comes in many reads.
  std::vector<AnswerPlace> places;
  std::size_t parsed = 0;
  auto answer_length = [&](std::string_view output) -> std::size_t {
    while (places.size() < names.size()) {
      const auto place = parse_answer(output, parsed);
      if (!place) return 0;
      places.push_back(*place);
      parsed = place->found ? place->contents + place->size + 1 : place->contents;
    }
    return parsed;
  };
  auto answer = m_session->exchange(request, answer_length, git_timeout);
  if (!answer) return std::unexpected(answer.error());
  for (const AnswerPlace& place : places) {
    const std::string_view header = std::string_view(*answer).substr(place.header, place.header_length);
    if (!place.found) {
      if (!header.ends_with(" missing") && !header.ends_with(" ambiguous"))
        return fail(ExitCode::could_not_run, fmt::format("unexpected answer from git cat-file: {}", header));
      objects.emplace_back(std::nullopt);
      continue;
    }
    const std::size_t first_space = header.find(' ');
    const std::size_t last_space = header.rfind(' ');
    objects.emplace_back(GitObject{std::string(header.substr(0, first_space)),
                                   std::string(header.substr(first_space + 1, last_space - first_space - 1)),
                                   answer->substr(place.contents, place.size)});
  }
  return objects;
}

Result<std::optional<std::vector<TreeFile>>> ObjectReader::list_tree(const std::string& tree_ish) {
  auto root = read({tree_ish + "^{tree}"});
  if (!root) return std::unexpected(root.error());
  if (!root->front() || root->front()->type != "tree") return std::optional<std::vector<TreeFile>>{};
  // Level by level, each level's trees in one exchange; then flattened depth first, which is
  // the order `git ls-tree -r` lists.
  std::map<std::string, std::vector<TreeEntryRecord>, std::less<>> trees;
  const std::string root_id = root->front()->id;
  auto root_entries = parse_tree(*root->front());
  if (!root_entries) return std::unexpected(root_entries.error());
  trees.emplace(root_id, std::move(*root_entries));
  std::vector<std::string> level{root_id};
  while (!level.empty()) {
    std::vector<std::string> next;
    for (const auto& id : level)
      for (const auto& entry : trees.at(id))
        if (entry.mode == "40000" && !trees.contains(entry.id) &&
            std::find(next.begin(), next.end(), entry.id) == next.end())
          next.push_back(entry.id);
    auto objects = read(next);
    if (!objects) return std::unexpected(objects.error());
    for (std::size_t i = 0; i < next.size(); ++i) {
      const auto& object = (*objects)[i];
      if (!object || object->type != "tree")
        return fail(ExitCode::could_not_run, fmt::format("git has no tree {} (a shallow or partial clone?)", next[i]));
      auto entries = parse_tree(*object);
      if (!entries) return std::unexpected(entries.error());
      trees.emplace(next[i], std::move(*entries));
    }
    level = std::move(next);
  }
  std::vector<TreeFile> files;
  auto flatten = [&](auto& self, const std::string& id, const std::string& prefix, int depth) -> void {
    for (const auto& entry : trees.at(id)) {
      if (entry.mode == "40000") {
        if (depth < 4096) self(self, entry.id, prefix + entry.name + "/", depth + 1);
      } else if (entry.mode != "160000") {  // a submodule's commit is not a file
        files.push_back({prefix + entry.name, entry.id, entry.mode});
      }
    }
  };
  flatten(flatten, root_id, "", 0);
  return std::optional<std::vector<TreeFile>>(std::move(files));
}

}  // namespace kforecast::git
