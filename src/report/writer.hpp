// SPDX-License-Identifier: Apache-2.0
#pragma once

// Report writers: one base whose public method is not virtual and forwards to protected hooks
// (nvbench's printer_base), so every format sees the same sequence; MultiWriter writes several
// formats in one pass. To add a format: derive, implement the three hooks.

#include <memory>
#include <ostream>
#include <vector>

#include "report/report.hpp"

namespace kforecast::report {

class Writer {
 public:
  explicit Writer(std::ostream& out) : m_out(&out) {}
  virtual ~Writer() = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write(const Report& report) {
    begin(report);
    for (std::size_t i = 0; i < report.kernels.size(); ++i) kernel(report.kernels[i], i);
    end(report);
  }

 protected:
  virtual void begin(const Report& report) = 0;
  virtual void kernel(const KernelEntry& entry, std::size_t index) = 0;
  virtual void end(const Report& report) = 0;
  std::ostream& out() { return *m_out; }
  Writer() = default;  // for writers that own no stream (MultiWriter)

 private:
  friend class MultiWriter;  // forwards each hook to the writers it holds
  std::ostream* m_out = nullptr;
};

class MultiWriter final : public Writer {
 public:
  MultiWriter() = default;
  void add(std::unique_ptr<Writer> writer) { m_writers.push_back(std::move(writer)); }

 protected:
  void begin(const Report& report) override;
  void kernel(const KernelEntry& entry, std::size_t index) override;
  void end(const Report& report) override;

 private:
  std::vector<std::unique_ptr<Writer>> m_writers;
};

std::unique_ptr<Writer> make_json_writer(std::ostream& out);
std::unique_ptr<Writer> make_markdown_writer(std::ostream& out);
// For a person at a terminal (`--format text`, the default there): one line per kernel, the
// reasons unfolded, colour when `colour` (the caller checks the terminal and NO_COLOR).
std::unique_ptr<Writer> make_terminal_writer(std::ostream& out, bool colour);
// SARIF 2.1.0: a result per kernel that fails or warns, for code-scanning annotations.
std::unique_ptr<Writer> make_sarif_writer(std::ostream& out);

}  // namespace kforecast::report
