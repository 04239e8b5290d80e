// SPDX-License-Identifier: Apache-2.0
#include "base/output_file.hpp"

#include <fmt/format.h>

namespace kforecast {

Result<std::unique_ptr<OutputFile>> OutputFile::open(const std::optional<std::string>& path, std::ostream& fallback) {
  auto output = std::make_unique<OutputFile>(fallback);
  if (!path) return output;
  output->m_file.open(*path, std::ios::binary);
  if (!output->m_file) return fail(ExitCode::could_not_run, fmt::format("cannot write '{}'", *path));
  output->m_redacted.emplace(output->m_file);
  return output;
}

}  // namespace kforecast
