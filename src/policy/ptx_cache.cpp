// SPDX-License-Identifier: Apache-2.0
#include "policy/ptx_cache.hpp"

#include <unistd.h>

#include <array>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

namespace kforecast::policy {
namespace {

// Two independent 64-bit FNV-1a streams: a 128-bit key, stable across runs and machines (unlike
// std::hash). Every field is length-prefixed so ("ab","c") and ("a","bc") differ.
class KeyHasher {
 public:
  void add(std::string_view field) {
    const std::string length = fmt::format("{}:", field.size());
    mix(length);
    mix(field);
  }
  std::string hex() const { return fmt::format("{:016x}{:016x}", m_state[0], m_state[1]); }

 private:
  void mix(std::string_view bytes) {
    for (unsigned char byte : bytes) {
      m_state[0] = (m_state[0] ^ byte) * 0x100000001b3ULL;
      m_state[1] = (m_state[1] ^ byte) * 0x100000001b3ULL;
      m_state[1] ^= m_state[1] >> 29;
    }
  }
  std::array<std::uint64_t, 2> m_state{0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
};

}  // namespace

std::string PtxCache::key(const cuda::CompileRequest& request, const cuda::NvrtcVersion& version) {
  KeyHasher hasher;
  hasher.add("kforecast-ptx-1");
  hasher.add(version.text());
  hasher.add(request.source);
  hasher.add(request.file_name);
  hasher.add(request.arch);
  for (const auto& dir : request.include_dirs) hasher.add(dir);
  for (const auto& [name, value] : request.defines) hasher.add(name + "=" + value);
  for (const auto& option : request.options) hasher.add(option);
  for (const auto& expression : request.name_expressions) hasher.add(expression);
  for (const auto& header : request.headers) {
    hasher.add(header.include_name);
    hasher.add(header.text);
  }
  return hasher.hex();
}

std::optional<std::string> PtxCache::find(const std::string& key) const {
  std::ifstream in(m_directory / (key + ".ptx"), std::ios::binary);
  if (!in) return std::nullopt;
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void PtxCache::store(const std::string& key, const std::string& ptx) const {
  std::error_code ec;
  std::filesystem::create_directories(m_directory, ec);
  const auto final_path = m_directory / (key + ".ptx");
  const auto temporary = m_directory / fmt::format("{}.{}.tmp", key, ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!(out << ptx)) return;
  }
  std::filesystem::rename(temporary, final_path, ec);
  if (ec) std::filesystem::remove(temporary, ec);
}

std::optional<std::filesystem::path> default_ptx_cache_directory(const EnvLookup& env) {
  if (auto xdg = env("XDG_CACHE_HOME"); xdg && !xdg->empty()) return std::filesystem::path(*xdg) / "kforecast/ptx";
  if (auto home = env("HOME"); home && !home->empty()) return std::filesystem::path(*home) / ".cache/kforecast/ptx";
  return std::nullopt;
}

}  // namespace kforecast::policy
