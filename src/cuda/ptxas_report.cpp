// SPDX-License-Identifier: Apache-2.0
#include "cuda/ptxas_report.hpp"

#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <utility>

namespace kforecast::cuda {

namespace {

std::string_view trim(std::string_view text) {
  constexpr std::string_view blanks = " \t\r\n\v\f";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

template <class Number>
std::optional<Number> parse_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t position = 0;
  while (position < text.size()) {
    const auto start = text.find_first_not_of(" \t\r", position);
    if (start == std::string_view::npos) break;
    auto end = text.find_first_of(" \t\r", start);
    if (end == std::string_view::npos) end = text.size();
    words.push_back(text.substr(start, end - start));
    position = end;
  }
  return words;
}

// The text between the first pair of single quotes at or after `from`, or empty; `from` moves
// past the closing quote.
std::string_view quoted(std::string_view line, std::size_t& from) {
  const auto open = line.find('\'', from);
  if (open == std::string_view::npos) return {};
  const auto close = line.find('\'', open + 1);
  if (close == std::string_view::npos) return {};
  from = close + 1;
  return line.substr(open + 1, close - open - 1);
}

class ReportParser {
 public:
  void line(std::string_view text) {
    if (auto at = text.find("Compiling entry function"); at != std::string_view::npos)
      return compiling(text, at, FunctionKind::kernel);
    if (auto at = text.find("Compiling function"); at != std::string_view::npos)
      return compiling(text, at, FunctionKind::device_function);
    if (auto at = text.find("Function properties for"); at != std::string_view::npos) {
      const auto name = trim(text.substr(at + std::string_view("Function properties for").size()));
      if (!name.empty()) m_properties = record(name, FunctionKind::device_function);
      return;
    }
    // "0 bytes gmem, 256 bytes cmem[3]" describes the module, not a function.
    if (text.find("bytes gmem") != std::string_view::npos) return;
    for (auto item = text; !item.empty();) {
      const auto comma = item.find(',');
      statistic(item.substr(0, comma));
      item = comma == std::string_view::npos ? std::string_view() : item.substr(comma + 1);
    }
  }

  std::vector<KernelResources> take() { return std::move(m_functions); }

 private:
  void compiling(std::string_view text, std::size_t at, FunctionKind kind) {
    const auto name = quoted(text, at);
    if (name.empty()) return;
    const auto arch = quoted(text, at);
    if (!arch.empty()) m_arch = std::string(arch);
    m_usage = record(name, kind);
    m_functions[*m_usage].kind = kind;
  }

  // The record for `name` on the current arch, made on first mention.
  std::size_t record(std::string_view name, FunctionKind kind) {
    auto key = std::make_pair(std::string(name), m_arch);
    if (auto found = m_index.find(key); found != m_index.end()) return found->second;
    KernelResources function;
    function.name = key.first;
    function.arch = m_arch;
    function.kind = kind;
    m_functions.push_back(std::move(function));
    m_index.emplace(std::move(key), m_functions.size() - 1);
    return m_functions.size() - 1;
  }

  // One comma-separated item: "Used 34 registers", "used 1 barriers", "256 bytes stack frame",
  // "0 bytes spill stores", "1024 bytes smem", "352 bytes cmem[0]", ... in any order.
  void statistic(std::string_view item) {
    const auto words = words_of(item);
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
      const auto count = parse_number<std::int64_t>(words[i]);
      if (!count) continue;
      const auto unit = words[i + 1];
      if (unit == "registers") return set_int(m_usage, &KernelResources::registers, *count);
      if (unit == "barriers") return set_int(m_usage, &KernelResources::barriers, *count);
      if (unit != "bytes" || i + 2 >= words.size()) continue;
      const auto what = words[i + 2];
      const auto next = i + 3 < words.size() ? words[i + 3] : std::string_view();
      if (what == "stack" && next == "frame") return set(m_properties, &KernelResources::stack_frame_bytes, *count);
      if (what == "spill" && next == "stores") return set(m_properties, &KernelResources::spill_store_bytes, *count);
      if (what == "spill" && next == "loads") return set(m_properties, &KernelResources::spill_load_bytes, *count);
      if (what == "cumulative") return set(m_usage, &KernelResources::cumulative_stack_bytes, *count);
      if (what == "smem") return set(m_usage, &KernelResources::shared_bytes, *count);
      if (what == "lmem") return set(m_usage, &KernelResources::local_bytes, *count);
      if (what.starts_with("cmem")) return add(m_usage, &KernelResources::constant_bytes, *count);
    }
  }

  void set(std::optional<std::size_t> target, std::int64_t KernelResources::*field, std::int64_t value) {
    if (target && value >= 0) m_functions[*target].*field = value;
  }
  void add(std::optional<std::size_t> target, std::int64_t KernelResources::*field, std::int64_t value) {
    if (!target || value < 0) return;
    auto& total = m_functions[*target].*field;
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(total, value, &sum)) total = sum;
  }
  void set_int(std::optional<std::size_t> target, int KernelResources::*field, std::int64_t value) {
    if (target && value >= 0 && value <= std::numeric_limits<int>::max())
      m_functions[*target].*field = static_cast<int>(value);
  }

  std::vector<KernelResources> m_functions;
  std::map<std::pair<std::string, std::string>, std::size_t> m_index;
  std::string m_arch;
  // "Used ..." lines belong to the function being compiled; stack and spill lines to the one
  // named by the last "Function properties for" (a kernel, or a __device__ function it calls).
  std::optional<std::size_t> m_usage;
  std::optional<std::size_t> m_properties;
};

}  // namespace

std::vector<KernelResources> parse_ptxas_report(std::string_view log) {
  ReportParser parser;
  while (!log.empty()) {
    const auto newline = log.find('\n');
    parser.line(log.substr(0, newline));
    log = newline == std::string_view::npos ? std::string_view() : log.substr(newline + 1);
  }
  return parser.take();
}

const KernelResources* find_function(std::span<const KernelResources> functions, std::string_view name) {
  for (const auto& function : functions)
    if (function.name == name || (!function.source_name.empty() && function.source_name == name)) return &function;
  return nullptr;
}

}  // namespace kforecast::cuda
