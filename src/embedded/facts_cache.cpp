// SPDX-License-Identifier: Apache-2.0
#include "embedded/facts_cache.hpp"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/redaction.hpp"

namespace kforecast::embedded {
namespace {

// Bump when the fields or their meaning change: old entries then miss instead of misleading.
constexpr std::string_view format_magic = "kforecast-facts 2";
// An entry is a few hundred bytes; anything far larger is not one of ours.
constexpr std::size_t max_entry_bytes = std::size_t{64} * 1024;

template <typename T>
bool parse_number(std::string_view text, T& out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  if constexpr (std::is_floating_point_v<T>)
    return std::isfinite(out) && out >= 0;
  else
    return out >= 0;
}

// Every numeric field once, by name, so that writer and reader cannot disagree on a field.
struct NumericFields {
  std::vector<std::pair<std::string_view, std::int64_t*>> integers;
  std::vector<std::pair<std::string_view, double*>> reals;
};

NumericFields numeric_fields(CompilerFacts& f) {
  cuda::KernelResources& r = f.resources;
  PtxMix& m = f.mix;
  return {{{"stack_frame_bytes", &r.stack_frame_bytes},
           {"spill_store_bytes", &r.spill_store_bytes},
           {"spill_load_bytes", &r.spill_load_bytes},
           {"cumulative_stack_bytes", &r.cumulative_stack_bytes},
           {"shared_bytes", &r.shared_bytes},
           {"constant_bytes", &r.constant_bytes},
           {"local_bytes", &r.local_bytes}},
          {{"mix.instructions", &m.instructions},
           {"mix.global_loads", &m.global_loads},
           {"mix.global_loads_128", &m.global_loads_128},
           {"mix.global_stores", &m.global_stores},
           {"mix.shared_loads", &m.shared_loads},
           {"mix.shared_stores", &m.shared_stores},
           {"mix.local_accesses", &m.local_accesses},
           {"mix.fma", &m.fma},
           {"mix.fp64", &m.fp64},
           {"mix.tensor", &m.tensor},
           {"mix.atomics", &m.atomics},
           {"mix.branches", &m.branches},
           {"mix.special", &m.special},
           {"mix.shuffles", &m.shuffles},
           {"mix.barriers", &m.barriers},
           {"mix.global_load_bytes", &m.global_load_bytes},
           {"mix.global_store_bytes", &m.global_store_bytes},
           {"mix.shared_atomics", &m.shared_atomics},
           {"mix.fp32", &m.fp32},
           {"mix.backward_branches", &m.backward_branches}}};
}

// A compile log kept whole, up to a size: the rationale quotes only its first lines.
constexpr std::size_t max_failure_bytes = std::size_t{8} * 1024;

std::string escape_line(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, max_failure_bytes)) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else
      out += c;
  }
  return out;
}

std::optional<std::string> unescape_line(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) return std::nullopt;
    if (text[i] == '\\')
      out += '\\';
    else if (text[i] == 'n')
      out += '\n';
    else if (text[i] == 'r')
      out += '\r';
    else
      return std::nullopt;
  }
  return out;
}

// Names are written as they are; one that would break the line format is not cached.
bool single_line(std::string_view text) { return text.find_first_of("\n\r") == std::string_view::npos; }

}  // namespace

std::string write_facts_entry(const CompilerFacts& facts) {
  CompilerFacts copy = facts;
  std::string out = fmt::format("{}\n", format_magic);
  out += fmt::format("name {}\nsource_name {}\narch {}\n", copy.resources.name, copy.resources.source_name,
                     copy.resources.arch);
  out += fmt::format("kind {}\nregisters {}\nbarriers {}\n",
                     copy.resources.kind == cuda::FunctionKind::kernel ? "kernel" : "device_function",
                     copy.resources.registers, copy.resources.barriers);
  const NumericFields fields = numeric_fields(copy);
  for (const auto& [name, value] : fields.integers) out += fmt::format("{} {}\n", name, *value);
  // fmt's shortest round-trip form: the value read back is the value written, bit for bit.
  for (const auto& [name, value] : fields.reals) out += fmt::format("{} {}\n", name, *value);
  out += "end\n";
  return out;
}

std::string write_facts_failure(std::string_view message) {
  return fmt::format("{}\nerror {}\nend\n", format_magic, escape_line(message));
}

std::optional<Result<CompilerFacts>> read_facts_entry(std::string_view text) {
  if (text.size() > max_entry_bytes) return std::nullopt;
  std::map<std::string_view, std::string_view, std::less<>> values;
  bool ended = false;
  bool first = true;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    if (newline == std::string_view::npos) return std::nullopt;  // truncated: every line ends
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline + 1);
    if (ended) return std::nullopt;  // bytes after "end"
    if (first) {
      if (line != format_magic) return std::nullopt;
      first = false;
      continue;
    }
    if (line == "end") {
      ended = true;
      continue;
    }
    const auto space = line.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    if (!values.emplace(line.substr(0, space), line.substr(space + 1)).second) return std::nullopt;  // twice
  }
  if (!ended) return std::nullopt;
  if (auto error = values.find("error"); error != values.end()) {
    if (values.size() != 1) return std::nullopt;
    auto message = unescape_line(error->second);
    if (!message || message->empty()) return std::nullopt;
    return Result<CompilerFacts>(fail(ExitCode::could_not_run, std::move(*message)));
  }

  CompilerFacts facts;
  auto take = [&](std::string_view field) -> std::optional<std::string_view> {
    auto it = values.find(field);
    if (it == values.end()) return std::nullopt;
    const std::string_view value = it->second;
    values.erase(it);
    return value;
  };
  const auto name = take("name"), source_name = take("source_name"), arch = take("arch"), kind = take("kind"),
             registers = take("registers"), barriers = take("barriers");
  if (!name || !source_name || !arch || !kind || !registers || !barriers || name->empty()) return std::nullopt;
  facts.resources.name = std::string(*name);
  facts.resources.source_name = std::string(*source_name);
  facts.resources.arch = std::string(*arch);
  if (*kind == "kernel")
    facts.resources.kind = cuda::FunctionKind::kernel;
  else if (*kind == "device_function")
    facts.resources.kind = cuda::FunctionKind::device_function;
  else
    return std::nullopt;
  if (!parse_number(*registers, facts.resources.registers) || !parse_number(*barriers, facts.resources.barriers))
    return std::nullopt;
  const NumericFields fields = numeric_fields(facts);
  for (const auto& [field, target] : fields.integers) {
    const auto value = take(field);
    if (!value || !parse_number(*value, *target)) return std::nullopt;
  }
  for (const auto& [field, target] : fields.reals) {
    const auto value = take(field);
    if (!value || !parse_number(*value, *target)) return std::nullopt;
  }
  if (!values.empty()) return std::nullopt;  // a field this version does not know
  // Only facts whose kernel was found in the PTX are ever stored (compile_facts fails otherwise).
  facts.mix.found = true;
  return Result<CompilerFacts>(std::move(facts));
}

std::string FactsCache::key(const cuda::CompileRequest& request, std::string_view kernel,
                            const cuda::NvrtcVersion& version) {
  ContentHasher hasher;
  hasher.add(format_magic);
  hasher.add(version.text());
  hasher.add(kernel);
  cuda::add_to_hash(hasher, request);
  return hasher.hex();
}

std::optional<Result<CompilerFacts>> FactsCache::find(const std::string& key) const {
  std::ifstream in(entry_path(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  text.resize(max_entry_bytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return read_facts_entry(text);
}

void FactsCache::store(const std::string& key, const CompilerFacts& facts) const {
  if (!single_line(facts.resources.name) || !single_line(facts.resources.source_name) ||
      !single_line(facts.resources.arch) || facts.resources.name.empty())
    return;
  write_entry(key, write_facts_entry(facts));
}

void FactsCache::store_failure(const std::string& key, std::string_view message) const {
  if (!message.empty()) write_entry(key, write_facts_failure(message));
}

void FactsCache::write_entry(const std::string& key, const std::string& text) const {
  std::error_code ec;
  std::filesystem::create_directories(m_directory, ec);
  const auto final_path = entry_path(key);
  // Process and thread in the name: two writers never share a temporary file.
  const auto temporary = m_directory / fmt::format("{}.{}.{:x}.tmp", key, ::getpid(),
                                                   std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!(out << redact_secrets(text)) || !out.flush()) {
      out.close();
      std::filesystem::remove(temporary, ec);
      return;
    }
  }
  std::filesystem::rename(temporary, final_path, ec);
  if (ec) std::filesystem::remove(temporary, ec);
}

}  // namespace kforecast::embedded
