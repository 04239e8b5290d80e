// SPDX-License-Identifier: Apache-2.0
#pragma once

// File names as diffs spell them: bare or C-quoted ("a/t\303\251st.cu"), behind git's "a/" and
// "b/" prefixes, followed by a tab and a timestamp in GNU diff. Names are bytes, never decoded.

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace kforecast::diff {

struct UnquotedName {
  std::string name;
  std::size_t length = 0;  // bytes of `text` the quoted form took, both quotes included
};

// Unquotes a name that git wrote in C style; `text` starts at the opening quote. Knows git's
// escapes: \a \b \t \n \v \f \r \" \\ and three octal digits for any byte. On failure: why.
std::expected<UnquotedName, std::string> unquote_c_path(std::string_view text);

// The name in a "---", "+++", "rename from" or "copy to" field: a quoted name, or the text up
// to the first tab (GNU diff puts a timestamp after one, git a lone tab after names with spaces).
// An empty name is refused.
std::expected<std::string, std::string> parse_path_field(std::string_view field);

// The two names of "diff --git OLD NEW" (`text` is what follows "diff --git "). A quoted name
// ends at its quote. Two bare names with spaces are ambiguous; the split taken is the one where
// both name the same path (shared_path), which they do unless the file was renamed or copied,
// and then the caller has the rename or copy lines instead. On failure: why.
std::expected<std::pair<std::string, std::string>, std::string> split_git_names(std::string_view text);

// The path that an old and a new name share: equal names (git --no-prefix) give themselves;
// otherwise the first component of each is taken for a prefix ("a/x", "b/x" give "x"; so do
// "i/x", "w/x" from diff.mnemonicPrefix). nullopt when they name different paths.
std::optional<std::string> shared_path(std::string_view old_name, std::string_view new_name);

enum class Side { old_version, new_version };

// A name whose other side is /dev/null, without git's prefix: "a/" on the old side, "b/" on the
// new one. Any other name is kept as written, since GNU diff names need not have a prefix.
std::string_view strip_lone_prefix(std::string_view name, Side side);

}  // namespace kforecast::diff
