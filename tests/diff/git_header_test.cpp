// SPDX-License-Identifier: Apache-2.0
#include "diff/git_header.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::diff;

namespace {
struct Reader {
  GitHeader header;
  FileDiff file;
  HeaderLine read(std::string_view line) {
    auto result = read_extended_line(line, 7, header, file);
    if (!result) FAIL(result.error().message);
    return *result;
  }
  std::string error(std::string_view line) {
    auto result = read_extended_line(line, 7, header, file);
    REQUIRE_FALSE(result.has_value());
    return result.error().message;
  }
  FileDiff finish() {
    file.diff_line = 3;
    auto result = finish_git_file(header, file);
    if (!result) FAIL(result.error().message);
    return file;
  }
};
}  // namespace

TEST_CASE("diff: extended header lines set modes, renames, copies and similarity") {
  Reader reader;
  reader.header.names = "a/x b/y";
  CHECK(reader.read("old mode 100644") == HeaderLine::extended);
  CHECK(reader.read("new mode 100755") == HeaderLine::extended);
  CHECK(reader.read("similarity index 87%") == HeaderLine::extended);
  CHECK(reader.read("rename from x") == HeaderLine::extended);
  CHECK(reader.read("rename to \"y\\tz\"") == HeaderLine::extended);
  CHECK(reader.read("index 1234567..89abcde") == HeaderLine::extended);
  CHECK(reader.read("commit 1234") == HeaderLine::other);
  CHECK(reader.read("") == HeaderLine::other);
  const FileDiff file = reader.finish();
  CHECK(file.kind == ChangeKind::renamed);
  CHECK(file.old_path == "x");
  CHECK(file.new_path == "y\tz");
  CHECK(file.similarity == 87);
  CHECK(file.old_mode == "100644");
  CHECK(file.new_mode == "100755");
}

TEST_CASE("diff: the index line gives the mode of an unchanged-mode file") {
  Reader reader;
  reader.header.names = "a/x b/x";
  reader.read("index 1234567..89abcde 120000");
  const FileDiff file = reader.finish();
  CHECK(file.old_mode == "120000");
  CHECK(file.new_mode == "120000");
  CHECK(file.kind == ChangeKind::modified);
  CHECK(file.path() == "x");
  CHECK(file.old_blob == "1234567");
  CHECK(file.new_blob == "89abcde");
}

TEST_CASE("diff: the index line gives both blob hashes, full or abbreviated") {
  Reader full;
  full.read("index 0000000000000000000000000000000000000000..0123456789abcdef0123456789abcdef01234567");
  CHECK(full.file.old_blob == "0000000000000000000000000000000000000000");
  CHECK(full.file.new_blob == "0123456789abcdef0123456789abcdef01234567");
  Reader odd;
  odd.read("index garbage");
  CHECK(odd.file.old_blob.empty());
  CHECK(odd.file.new_blob.empty());
}

TEST_CASE("diff: new and deleted file modes make added and deleted files") {
  Reader added;
  added.header.names = "a/n.cu b/n.cu";
  added.read("new file mode 100755");
  added.read("index 0000000..1234567");
  const FileDiff added_file = added.finish();
  CHECK(added_file.kind == ChangeKind::added);
  CHECK(added_file.old_path.empty());
  CHECK(added_file.new_path == "n.cu");
  CHECK(added_file.new_mode == "100755");
  CHECK(added_file.old_mode.empty());

  Reader deleted;
  deleted.header.names = "a/d.cu b/d.cu";
  deleted.read("deleted file mode 100644");
  const FileDiff deleted_file = deleted.finish();
  CHECK(deleted_file.kind == ChangeKind::deleted);
  CHECK(deleted_file.old_path == "d.cu");
  CHECK(deleted_file.new_path.empty());
  CHECK(deleted_file.old_mode == "100644");
}

TEST_CASE("diff: copies, and renames spelled the pre-1.5 git way") {
  Reader copy;
  copy.read("similarity index 100%");
  copy.read("copy from a.cu");
  copy.read("copy to b.cu");
  const FileDiff copied = copy.finish();
  CHECK(copied.kind == ChangeKind::copied);
  CHECK(copied.old_path == "a.cu");
  CHECK(copied.new_path == "b.cu");
  CHECK(copied.similarity == 100);

  Reader old_git;
  old_git.read("rename old p.cu");
  old_git.read("rename new q.cu");
  CHECK(old_git.finish().kind == ChangeKind::renamed);
  CHECK(old_git.file.new_path == "q.cu");

  Reader rewrite;
  rewrite.header.names = "a/r.cu b/r.cu";
  CHECK(rewrite.read("dissimilarity index 60%") == HeaderLine::extended);
  CHECK(rewrite.finish().kind == ChangeKind::modified);
  CHECK(rewrite.file.similarity == -1);
}

TEST_CASE("diff: malformed extended header values are errors at their line") {
  Reader reader;
  CHECK(reader.error("old mode ") == "diff line 7: '' is not a file mode (like 100644)");
  CHECK(reader.error("new mode 1006448") == "diff line 7: '1006448' is not a file mode (like 100644)");
  CHECK(reader.error("new file mode 100648") == "diff line 7: '100648' is not a file mode (like 100644)");
  CHECK(reader.error("similarity index 93") == "diff line 7: '93' is not a percentage from 0% to 100%");
  CHECK(reader.error("similarity index %") == "diff line 7: '%' is not a percentage from 0% to 100%");
  CHECK(reader.error("similarity index 1000%") == "diff line 7: '1000%' is not a percentage from 0% to 100%");
  CHECK(reader.error("rename from \"x") == "diff line 7: a quoted name has no closing '\"'");
  CHECK(reader.error("copy to ") == "diff line 7: the file name is missing");
}

TEST_CASE("diff: finishing a header with unpaired or unreadable names is an error at the header") {
  Reader copy_only;
  copy_only.read("copy from a.cu");
  copy_only.file.diff_line = 3;
  CHECK(finish_git_file(copy_only.header, copy_only.file).error().message ==
        "diff line 3: the header has 'copy from' without 'copy to', or the reverse");
  Reader unreadable;
  unreadable.header.names = "a/x y b/z w";
  unreadable.file.diff_line = 3;
  CHECK(finish_git_file(unreadable.header, unreadable.file).error().message ==
        "diff line 3: cannot read the file names of 'diff --git a/x y b/z w': cannot tell where the old name ends "
        "and the new one starts");
}
