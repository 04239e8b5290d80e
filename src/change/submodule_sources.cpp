// SPDX-License-Identifier: Apache-2.0
#include "change/submodule_sources.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "git/submodules.hpp"

namespace kforecast::change {
namespace {

namespace fs = std::filesystem;

bool is_header(std::string_view path) { return kernels::is_cuda_source_path(path) && !path.ends_with(".cu"); }

std::string last_component(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string folder_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

// One submodule's headers at its pinned commit, by path inside it, and its clone to read them from.
struct OpenSubmodule {
  std::string folder;  // in the superproject's tree
  std::shared_ptr<const git::Repository> clone;
  std::shared_ptr<const SubmoduleListing> listing;
};

// The header names `text` includes, by a line scan: `#include <...>` and `#include "..."`. Faster
// than the full directive reader (which knows comments, continuations and computed includes) on
// the thousands of files a run looks at, and a superset of it but for those: an include inside a
// block comment only reads one header more.
std::vector<std::string> included_names(std::string_view text) {
  std::vector<std::string> names;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const auto hash = line.find_first_not_of(" \t");
    if (hash == std::string_view::npos || line[hash] != '#') continue;
    line.remove_prefix(hash + 1);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (!line.starts_with("include")) continue;
    line.remove_prefix(line.starts_with("include_next") ? 12 : 7);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    if (line.empty() || (line.front() != '<' && line.front() != '"')) continue;
    const auto close = line.find(line.front() == '<' ? '>' : '"', 1);
    if (close != std::string_view::npos && close > 1) names.emplace_back(line.substr(1, close - 1));
  }
  return names;
}

// Files by their last path component, for "which file ends with this include's name".
std::map<std::string, std::vector<std::string>> index_by_name(const kernels::SourceFiles& files) {
  std::map<std::string, std::vector<std::string>> index;
  for (const auto& [path, text] : files) index[last_component(path)].push_back(path);
  return index;
}

bool ends_with_name(std::string_view path, std::string_view name) {
  return path == name || (path.size() > name.size() && path.ends_with(name) && path[path.size() - name.size() - 1] == '/');
}

// Whether the superproject's own files (or headers already read) answer `name` for `includer`.
bool found_in(const kernels::SourceFiles& files, const std::map<std::string, std::vector<std::string>>& index,
              const std::string& includer, const std::string& name) {
  const std::string folder = folder_of(includer);
  if (files.contains(folder.empty() ? name : folder + "/" + name)) return true;
  const auto same = index.find(last_component(name));
  return same != index.end() &&
         std::ranges::any_of(same->second, [&](const std::string& path) { return ends_with_name(path, name); });
}

// The header of `submodule` an include of `name` by `includer` finds, as a path inside it, or "".
std::string match_in(const OpenSubmodule& submodule, const std::string& includer, const std::string& name) {
  if (includer.starts_with(submodule.folder + "/")) {
    // glm's "../simd/platform.h": beside the includer, '..' resolved, never out of the submodule.
    const std::string inside = folder_of(includer.substr(submodule.folder.size() + 1));
    const std::string beside = fs::path(inside.empty() ? name : inside + "/" + name).lexically_normal().generic_string();
    if (!beside.starts_with("..") && submodule.listing->blobs.contains(beside)) return beside;
  }
  if (name.find("..") != std::string::npos) return {};
  // A bare name (<stdint.h>, "config.h") is found beside its includer or at the top of the
  // submodule's include folder, never deep inside it: CUTLASS's tests carry their own stdint.h,
  // which must not stand in for the system's.
  if (name.find('/') == std::string::npos) {
    for (const std::string& top : {"include/" + name, name})
      if (submodule.listing->blobs.contains(top)) return top;
    return {};
  }
  const auto same = submodule.listing->by_name.find(last_component(name));
  if (same == submodule.listing->by_name.end()) return {};
  std::string best;
  const auto rank = [](const std::string& path) {
    return std::pair(!(path.starts_with("include/") || path.find("/include/") != std::string::npos), path.size());
  };
  for (const std::string& path : same->second)
    if (ends_with_name(path, name) && (best.empty() || rank(path) < rank(best))) best = path;
  return best;
}

// The headers of `clone` at `commit`, from `memo` where listed before; nullptr where the clone
// lacks the commit.
std::shared_ptr<const SubmoduleListing> listing_of(const git::Repository& clone, const git::Gitlink& link,
                                                   SubmoduleMemo& memo) {
  auto& listing = memo.listings[{link.path, link.commit}];
  if (listing) return listing;
  auto tree = clone.list_tree(link.commit);
  if (!tree) return nullptr;
  auto made = std::make_shared<SubmoduleListing>();
  for (const auto& entry : *tree)
    if (is_header(entry.path) && (entry.mode == "100644" || entry.mode == "100755")) {
      made->by_name[last_component(entry.path)].push_back(entry.path);
      made->blobs.emplace(entry.path, entry.blob);
    }
  listing = std::move(made);
  return listing;
}

// The submodule's pinned commit fetched from the base's URL for it; nullopt with a note where it
// cannot be. A note also says where it was fetched from: nothing of the network is silent.
std::optional<OpenSubmodule> fetch_submodule(const git::Gitlink& link, const SubmoduleFetch& fetch,
                                             std::string_view label, SubmoduleMemo& memo,
                                             std::vector<std::string>& notes) {
  const auto trusted = std::ranges::find(fetch.trusted, link.path, &git::Submodule::path);
  if (trusted == fetch.trusted.end() || trusted->url.empty()) {
    notes.push_back(fmt::format("submodule {} not fetched: the base revision's .gitmodules gives no URL for it (a "
                                "URL is only taken from the base, never from the pull request)",
                                link.path));
    return std::nullopt;
  }
  auto& clone = memo.fetched[{trusted->url, link.commit}];
  if (!clone) {
    auto fetched = fetch.fetch(trusted->url, link.commit);
    if (!fetched) {
      notes.push_back(fmt::format("submodule {} not fetched (compile.submodules = \"fetch\"): {}; units that include "
                                  "its headers were compiled without them",
                                  link.path, fetched.error().message));
      return std::nullopt;
    }
    clone = std::move(*fetched);
    notes.push_back(fmt::format("submodule {} fetched for the {} from {} at {} (compile.submodules = \"fetch\")",
                                link.path, label, trusted->url, link.commit.substr(0, 12)));
  }
  auto listing = listing_of(*clone, link, memo);
  if (!listing) {
    notes.push_back(fmt::format("submodule {}: the fetched {} ({}) cannot be read", link.path, link.commit.substr(0, 12),
                                trusted->url));
    return std::nullopt;
  }
  return OpenSubmodule{link.path, clone, listing};
}

// The submodule's clone at its pinned commit; nullopt with a note, or with its name added to
// `not_checked_out`, where it cannot be read. Clones and listings come from `memo` where an
// earlier call (the other revision, pinning the same commit) made them. With `fetch`, a commit
// the checkout lacks is fetched instead.
std::optional<OpenSubmodule> open_submodule(const git::Repository& repository, const git::Gitlink& link,
                                            const std::vector<git::Submodule>& declared, std::string_view label,
                                            SubmoduleMemo& memo, const SubmoduleFetch* fetch,
                                            std::vector<std::string>& notes, std::vector<std::string>& not_checked_out) {
  const auto declaration = std::ranges::find(declared, link.path, &git::Submodule::path);
  const std::string url = declaration == declared.end() || declaration->url.empty() ? "" : " (" + declaration->url + ")";
  std::error_code error;
  if (!fs::exists(repository.root() / link.path / ".git", error)) {
    if (fetch != nullptr) return fetch_submodule(link, *fetch, label, memo, notes);
    not_checked_out.push_back(link.path + url);
    return std::nullopt;
  }
  auto& clone = memo.clones[link.path];
  if (!clone) {
    auto opened = repository.submodule(link.path);
    if (!opened) {
      if (fetch != nullptr) return fetch_submodule(link, *fetch, label, memo, notes);
      notes.push_back(fmt::format("submodule {}{}: its clone could not be opened ({})", link.path, url,
                                  opened.error().message));
      return std::nullopt;
    }
    clone = std::move(*opened);
  }
  auto listing = listing_of(*clone, link, memo);
  if (!listing) {
    if (fetch != nullptr) return fetch_submodule(link, *fetch, label, memo, notes);
    notes.push_back(fmt::format(
        "submodule {}{}: its clone lacks the commit the {} pins ({}), so units that include its headers were "
        "compiled without them; fetch it (git submodule update --init --recursive at that revision, or "
        "compile.submodules = \"fetch\")",
        link.path, url, label, link.commit.substr(0, 12)));
    return std::nullopt;
  }
  return OpenSubmodule{link.path, clone, listing};
}

// The texts of `blobs` of `submodule`, from `memo` where read before.
Result<std::map<std::string, std::string, std::less<>>> read_texts(const OpenSubmodule& submodule,
                                                                     const std::vector<std::string>& blobs,
                                                                     SubmoduleMemo& memo) {
  std::vector<std::string> unread;
  for (const std::string& blob : blobs)
    if (!memo.texts.contains(blob)) unread.push_back(blob);
  if (!unread.empty()) {
    auto contents = submodule.clone->read_blobs(unread);
    if (!contents) return std::unexpected(contents.error());
    for (auto& [blob, text] : *contents) memo.texts.emplace(blob, std::move(text));
  }
  std::map<std::string, std::string, std::less<>> texts;
  for (const std::string& blob : blobs) texts.emplace(blob, memo.texts.at(blob));
  return texts;
}

}  // namespace

std::vector<std::string> add_submodule_headers(const git::Repository& repository, std::string_view revision,
                                               std::string_view label, kernels::SourceFiles& files,
                                               SubmoduleMemo& memo, const SubmoduleLimits& limits,
                                               const SubmoduleFetch* fetch) {
  std::vector<std::string> notes;
  const std::string tree_revision = revision.empty() ? "HEAD" : std::string(revision);
  auto declared_text = repository.read_files(tree_revision, {".gitmodules"});
  if (!declared_text || !declared_text->contains(".gitmodules") || !declared_text->at(".gitmodules")) return notes;
  const auto declared = git::parse_gitmodules(*declared_text->at(".gitmodules"));
  auto links = git::list_gitlinks(repository.root(), tree_revision);
  if (!links) {
    notes.push_back(fmt::format("submodules of the {} not read: {}", label, links.error().message));
    return notes;
  }
  // Only submodules some file may include from: opening each clone costs a git process.
  std::vector<OpenSubmodule> submodules;
  std::vector<std::string> not_checked_out;
  for (const auto& link : *links)
    if (auto opened = open_submodule(repository, link, declared, label, memo, fetch, notes, not_checked_out))
      submodules.push_back(std::move(*opened));
  if (!not_checked_out.empty())
    notes.push_back(fmt::format(
        "submodule{} not checked out: {}; units that include {} headers cannot be compiled as the project builds them: "
        "check out submodules in the job (actions/checkout: `submodules: recursive`; else git submodule update --init "
        "--recursive), or let kforecast fetch them (compile.submodules = \"fetch\")",
        not_checked_out.size() == 1 ? "" : "s", fmt::join(not_checked_out, ", "),
        not_checked_out.size() == 1 ? "its" : "their"));
  if (submodules.empty()) return notes;

  auto index = index_by_name(files);
  std::vector<std::string> pending;
  for (const auto& [path, text] : files) pending.push_back(path);
  std::size_t read_files = 0, read_bytes = 0;
  bool capped = false;
  while (!pending.empty() && !capped) {
    // Each submodule's headers this level's files include, read in one batch per submodule.
    std::map<std::size_t, std::set<std::string>> wanted;
    for (const std::string& includer : pending)
      for (const std::string& name : included_names(files.at(includer))) {
        if (found_in(files, index, includer, name)) continue;
        for (std::size_t s = 0; s < submodules.size(); ++s)
          if (const std::string inside = match_in(submodules[s], includer, name); !inside.empty()) {
            wanted[s].insert(inside);
            break;
          }
      }
    pending.clear();
    for (const auto& [s, paths] : wanted) {
      OpenSubmodule& submodule = submodules[s];
      std::vector<std::string> blobs;
      std::vector<std::string> chosen;
      for (const std::string& inside : paths) {
        if (files.contains(submodule.folder + "/" + inside)) continue;
        if (++read_files > limits.max_files) {
          capped = true;
          break;
        }
        chosen.push_back(inside);
        blobs.push_back(submodule.listing->blobs.at(inside));
      }
      auto contents = read_texts(submodule, blobs, memo);
      if (!contents) {
        notes.push_back(fmt::format("submodule {}: headers not read: {}", submodule.folder, contents.error().message));
        continue;
      }
      for (const std::string& inside : chosen) {
        const std::string& text = contents->at(submodule.listing->blobs.at(inside));
        read_bytes += text.size();
        if (read_bytes > limits.max_bytes) {
          capped = true;
          break;
        }
        const std::string path = submodule.folder + "/" + inside;
        files.emplace(path, text);
        index[last_component(path)].push_back(path);
        pending.push_back(path);
      }
    }
  }
  if (capped)
    notes.push_back(fmt::format("submodule headers of the {}: stopped at {} files or {} MiB; units that include more "
                                "may not compile",
                                label, limits.max_files, limits.max_bytes >> 20));
  return notes;
}

}  // namespace kforecast::change
