// SPDX-License-Identifier: Apache-2.0
#include "policy/ptx_cache.hpp"

#include <unistd.h>

#include <array>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/redaction.hpp"

namespace kforecast::policy {

std::string PtxCache::key(const cuda::CompileRequest& request, const cuda::NvrtcVersion& version) {
  ContentHasher hasher;
  hasher.add("kforecast-ptx-1");
  hasher.add(version.text());
  cuda::add_to_hash(hasher, request);
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
    if (!(out << redact_secrets(ptx))) return;
  }
  std::filesystem::rename(temporary, final_path, ec);
  if (ec) std::filesystem::remove(temporary, ec);
}

std::optional<std::filesystem::path> default_ptx_cache_directory(const EnvLookup& env) { return kforecast_cache_directory(env, "ptx"); }

}  // namespace kforecast::policy
