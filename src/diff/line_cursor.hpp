// SPDX-License-Identifier: Apache-2.0
#pragma once

// Walks a text one line at a time without copying: the parser's only view of its input.

#include <cstdint>
#include <cstring>
#include <string_view>

namespace kforecast::diff {

// A line is the text up to "\n" (or the end of the text), with one "\r" before the "\n"
// removed: CRLF patches and CRLF file contents parse like LF ones, and ends_in_cr() says which
// it was. Views returned by line() and peek() point into the text the cursor was made with, so
// that text must outlive them. Line numbers start at 1; the caller keeps the text below 4 GiB
// so that they fit.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : m_text(text) { load(0); }

  bool at_end() const { return m_at_end; }
  std::string_view line() const { return m_line; }
  bool ends_in_cr() const { return m_ends_in_cr; }
  std::uint32_t number() const { return m_number; }

  void advance() {
    load(m_next);
    ++m_number;
  }

  // The line after the current one, trimmed the same way; empty when there is none.
  std::string_view peek() const {
    LineCursor next = *this;
    next.advance();
    return next.line();
  }

 private:
  void load(std::size_t begin) {
    if (begin >= m_text.size()) {
      m_at_end = true;
      m_line = {};
      m_ends_in_cr = false;
      m_next = m_text.size();
      return;
    }
    const char* start = m_text.data() + begin;
    const std::size_t rest = m_text.size() - begin;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', rest));
    std::size_t length = newline ? static_cast<std::size_t>(newline - start) : rest;
    m_next = begin + length + (newline ? 1 : 0);
    m_ends_in_cr = length > 0 && start[length - 1] == '\r';
    if (m_ends_in_cr) --length;
    m_line = std::string_view(start, length);
  }

  std::string_view m_text;
  std::string_view m_line;
  std::size_t m_next = 0;
  std::uint32_t m_number = 1;
  bool m_ends_in_cr = false;
  bool m_at_end = false;
};

}  // namespace kforecast::diff
