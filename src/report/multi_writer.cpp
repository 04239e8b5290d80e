// SPDX-License-Identifier: Apache-2.0
#include "report/writer.hpp"

namespace kforecast::report {

void MultiWriter::begin(const Report& report) {
  for (auto& writer : m_writers) writer->begin(report);
}

void MultiWriter::kernel(const KernelEntry& entry, std::size_t index) {
  for (auto& writer : m_writers) writer->kernel(entry, index);
}

void MultiWriter::end(const Report& report) {
  for (auto& writer : m_writers) writer->end(report);
}

}  // namespace kforecast::report
