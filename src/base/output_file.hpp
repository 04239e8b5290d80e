// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a command writes its result: the file it was given (--output), else standard output. A
// file leaves kforecast as much as standard output does, so it passes the same redaction.

#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "base/error.hpp"
#include "base/redaction.hpp"

namespace kforecast {

class OutputFile {
 public:
  // `path` opened for writing, or `fallback` without one; an error names a file that cannot be.
  static Result<std::unique_ptr<OutputFile>> open(const std::optional<std::string>& path, std::ostream& fallback);

  std::ostream& stream() { return m_redacted ? m_redacted->stream() : m_fallback; }
  bool is_file() const { return m_redacted.has_value(); }

  explicit OutputFile(std::ostream& fallback) : m_fallback(fallback) {}

 private:
  std::ostream& m_fallback;
  std::ofstream m_file;
  std::optional<RedactingStream> m_redacted;
};

}  // namespace kforecast
