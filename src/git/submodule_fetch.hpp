// SPDX-License-Identifier: Apache-2.0
#pragma once

// Fetching the commit a gitlink pins, where the checkout has no clone of the submodule
// (actions/checkout leaves submodules out by default) and the base's config asks for it
// (compile.submodules = "fetch"). The URL must come from the base revision's .gitmodules: a pull
// request could otherwise point kforecast at a server of its choosing. Only https is fetched,
// with git's other transports refused (protocol.allow), no credential prompt and no stored
// credential, one commit deep, into a cache folder of kforecast's own that is keyed by the URL.

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::git {

// "" where `url` may be fetched; otherwise why not, for a note ("not https", "carries
// credentials", ...). Only https://HOST/PATH without user information, spaces or control characters.
std::string unfetchable_url_reason(std::string_view url);

// The folder a URL's commits are fetched into under `cache`: one per URL, named by its hash.
std::filesystem::path fetch_folder(const std::filesystem::path& cache, std::string_view url);

// Makes sure the repository in fetch_folder(cache, url) holds `commit` (40 hexadecimal digits),
// fetching it from `url` when it does not; returns that folder (a git repository with no
// checkout). An Error names the URL, the commit and git's reason.
Result<std::filesystem::path> fetch_pinned_commit(const std::filesystem::path& cache, std::string_view url,
                                                  std::string_view commit,
                                                  std::chrono::seconds timeout = std::chrono::seconds(120));

}  // namespace kforecast::git
