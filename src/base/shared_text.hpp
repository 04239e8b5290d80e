// SPDX-License-Identifier: Apache-2.0
#pragma once

// An immutable text that every holder shares: a source file, or the device-only unit that each
// of a file's kernels is forecast from. Copying one copies a pointer, never the text: a file of
// 1,000 kernels read as 1,000 copies of itself is what took `kforecast pr` to 10 GB.
// It reads as a string wherever one is expected, so code that takes `const std::string&` or
// `std::string_view` needs no change.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace kforecast {

class SharedText {
 public:
  SharedText() : SharedText(std::string()) {}
  SharedText(std::string text)  // NOLINT(google-explicit-constructor): a string is a text
      : m_block(std::make_shared<const Block>(std::move(text))) {}
  SharedText(const char* text) : SharedText(std::string(text)) {}  // NOLINT(google-explicit-constructor)

  const std::string& str() const { return m_block->text; }
  std::string_view view() const { return m_block->text; }
  operator const std::string&() const { return m_block->text; }  // NOLINT(google-explicit-constructor)
  operator std::string_view() const { return m_block->text; }    // NOLINT(google-explicit-constructor)
  std::size_t size() const { return m_block->text.size(); }
  bool empty() const { return m_block->text.empty(); }

  // A hash of the contents, computed once when the text was made: for maps keyed by texts that
  // would otherwise compare or copy megabytes per lookup.
  std::size_t content_hash() const { return m_block->hash; }
  // Whether both hold the very same text (not merely equal contents).
  bool shares_with(const SharedText& other) const { return m_block == other.m_block; }

  friend bool operator==(const SharedText& a, const SharedText& b) {
    return a.m_block == b.m_block || (a.m_block->hash == b.m_block->hash && a.view() == b.view());
  }
  // Orders by hash, then contents: equal texts meet without reading them when they are shared.
  friend bool operator<(const SharedText& a, const SharedText& b) {
    if (a.m_block == b.m_block) return false;
    if (a.m_block->hash != b.m_block->hash) return a.m_block->hash < b.m_block->hash;
    return a.view() < b.view();
  }

 private:
  struct Block {
    explicit Block(std::string contents)
        : text(std::move(contents)), hash(std::hash<std::string_view>{}(std::string_view(text))) {}
    std::string text;
    std::size_t hash;
  };
  std::shared_ptr<const Block> m_block;
};

}  // namespace kforecast
