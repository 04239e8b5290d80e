// SPDX-License-Identifier: Apache-2.0
#include "builds/unit_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "base/content_hash.hpp"

namespace kforecast::builds {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view entry_magic = "kforecast-unit-cache 1\n";

std::string text_hash(std::string_view text) {
  ContentHasher hasher;
  hasher.add(text);
  return hasher.hex();
}

// The entry's file: the magic line, then "compiled|failed\n", the header count, one
// "<hash> <path>\n" per header, and the log and the cubin each as "<size>\n<bytes>".
std::string encode(const CachedUnit& unit, const kernels::SourceFiles& files) {
  std::string out(entry_magic);
  out += unit.compiled ? "compiled\n" : "failed\n";
  out += fmt::format("{}\n", unit.headers.size());
  for (const auto& header : unit.headers) {
    const auto file = files.find(header);
    out += fmt::format("{} {}\n", file == files.end() ? "absent" : text_hash(file->second), header);
  }
  out += fmt::format("{}\n", unit.log.size());
  out += unit.log;
  out += fmt::format("{}\n", unit.cubin.size());
  out.append(reinterpret_cast<const char*>(unit.cubin.data()), unit.cubin.size());
  return out;
}

// Reads an entry written by encode, and answers it only where every header still matches.
class EntryReader {
 public:
  explicit EntryReader(std::string_view bytes) : m_rest(bytes) {}

  std::optional<CachedUnit> read(const kernels::SourceFiles& files) {
    if (!m_rest.starts_with(entry_magic)) return std::nullopt;
    m_rest.remove_prefix(entry_magic.size());
    CachedUnit unit;
    const auto status = line();
    if (!status || (*status != "compiled" && *status != "failed")) return std::nullopt;
    unit.compiled = *status == "compiled";
    const auto count = number();
    if (!count || *count > files.size() + 1) return std::nullopt;
    for (std::size_t i = 0; i < *count; ++i) {
      const auto entry = line();
      if (!entry) return std::nullopt;
      const std::size_t space = entry->find(' ');
      if (space == std::string_view::npos) return std::nullopt;
      const std::string_view hash = entry->substr(0, space);
      const std::string_view path = entry->substr(space + 1);
      const auto file = files.find(path);
      if ((file == files.end() ? std::string("absent") : text_hash(file->second)) != hash) return std::nullopt;
      unit.headers.emplace_back(path);
    }
    auto log = block();
    auto cubin = block();
    if (!log || !cubin) return std::nullopt;
    unit.log = std::string(*log);
    // A failed unit has no cubin, and memcpy may not be handed a null pointer even for 0 bytes.
    unit.cubin.resize(cubin->size());
    if (!cubin->empty()) std::memcpy(unit.cubin.data(), cubin->data(), cubin->size());
    return unit;
  }

 private:
  std::optional<std::string_view> line() {
    const std::size_t end = m_rest.find('\n');
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view text = m_rest.substr(0, end);
    m_rest.remove_prefix(end + 1);
    return text;
  }
  std::optional<std::size_t> number() {
    const auto text = line();
    if (!text) return std::nullopt;
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error != std::errc() || end != text->data() + text->size()) return std::nullopt;
    return value;
  }
  std::optional<std::string_view> block() {
    const auto size = number();
    if (!size || *size > m_rest.size()) return std::nullopt;
    const std::string_view bytes = m_rest.substr(0, *size);
    m_rest.remove_prefix(*size);
    return bytes;
  }

  std::string_view m_rest;
};

// One read of the size the file has: a warm run reads every unit's entry, cubins of megabytes
// among them, and a character at a time that was most of its time.
std::string read_whole(const fs::path& path) {
  std::error_code error;
  const auto size = fs::file_size(path, error);
  if (error) return {};
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  bytes.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return bytes;
}

}  // namespace

std::string UnitCache::unit_key(const std::string& compiler, const cuda::UnitBuildRequest& request,
                                std::string_view unit_text) {
  ContentHasher hasher;
  hasher.add("kforecast-unit-1");
  hasher.add(compiler);
  hasher.add(request.arch);
  for (const auto& argument : request.arguments) hasher.add(argument);
  hasher.add(request.unit);
  hasher.add(unit_text);
  return hasher.hex();
}

std::optional<CachedUnit> UnitCache::find(const std::string& unit_key, const kernels::SourceFiles& files) const {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(m_directory / unit_key, ec)) {
    if (entry.path().extension() != ".entry") continue;
    const std::string bytes = read_whole(entry.path());
    if (auto unit = EntryReader(bytes).read(files)) return unit;
  }
  return std::nullopt;
}

void UnitCache::store(const std::string& unit_key, const CachedUnit& unit, const kernels::SourceFiles& files) const {
  // A header named with a line break cannot be written as one line: such a unit is not kept.
  if (std::ranges::any_of(unit.headers, [](const std::string& header) { return header.find('\n') != std::string::npos; }))
    return;
  const std::string bytes = encode(unit, files);
  std::error_code ec;
  const fs::path folder = m_directory / unit_key;
  fs::create_directories(folder, ec);
  // Named after its contents: two runs storing the same answer write the same file.
  const fs::path final_path = folder / (text_hash(bytes) + ".entry");
  const fs::path temporary = folder / fmt::format("{}.{}.tmp", final_path.stem().string(), ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      fs::remove(temporary, ec);
      return;
    }
  }
  fs::rename(temporary, final_path, ec);
  if (ec) fs::remove(temporary, ec);
}

std::optional<fs::path> default_unit_cache_directory(const EnvLookup& env) { return kforecast_cache_directory(env, "units"); }

}  // namespace kforecast::builds
