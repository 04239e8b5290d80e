// SPDX-License-Identifier: Apache-2.0
#include "cuda/toolkit_locator.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "base/text_file.hpp"
#include "cuda/library_search.hpp"

namespace kforecast::cuda {

namespace fs = std::filesystem;

namespace {

// One place that may hold a toolkit: where it came from, its root and its nvcc.
struct Place {
  std::string origin;
  std::string root;
  std::string nvcc;
};

std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

Place place_at_root(std::string origin, const std::string& root) {
  const std::string clean = without_trailing_slashes(root);
  return {std::move(origin), clean, clean + "/bin/nvcc"};
}

// An nvcc named by its own path: its toolkit is two folders up from where the file really is,
// so a link such as /usr/local/bin/nvcc -> /usr/local/cuda/bin/nvcc finds the toolkit it belongs to.
Place place_of_nvcc(std::string origin, const std::string& nvcc) {
  std::error_code ec;
  const fs::path real = fs::canonical(nvcc, ec);
  const fs::path root = (ec ? fs::path(nvcc) : real).parent_path().parent_path();
  return {std::move(origin), root.string(), nvcc};
}

bool is_executable_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

// VERSION from the nvidia_cuda_nvcc-VERSION.dist-info in `folder` (pip keeps one per package
// in an environment), or "".
std::string dist_info_version(const fs::path& folder) {
  constexpr std::string_view prefix = "nvidia_cuda_nvcc-";
  constexpr std::string_view suffix = ".dist-info";
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(suffix) && name.size() > prefix.size() + suffix.size())
      return name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  }
  return {};
}

// The version the toolkit's files state, so no nvcc process (about 0.1 s) is started: a CUDA
// installer's version.json; the wheel's dist-info in the site-packages folder two levels above
// nvidia/cu13; or a dist-info/ folder in a toolkit assembled from the wheels.
std::string version_from_files(const std::string& root) {
  if (auto json = read_text_file(root + "/version.json", "version.json", std::size_t{1} << 20))
    if (auto version = nvcc_version_from_version_json(*json); !version.empty()) return version;
  std::error_code ec;
  const fs::path real = fs::canonical(root, ec);
  if (!ec)
    if (auto version = dist_info_version(real.parent_path().parent_path()); !version.empty()) return version;
  return dist_info_version(fs::path(root) / "dist-info");
}

// `nvcc --version`'s version, or why there is none.
std::expected<std::string, std::string> version_from_nvcc(const std::string& nvcc) {
  auto ran = run_process({nvcc, "--version"}, {.timeout = std::chrono::seconds(30), .max_output_bytes = 1 << 16});
  if (!ran) return std::unexpected(fmt::format("'nvcc --version' could not run: {}", ran.error().message));
  if (ran->exit_status != 0) return std::unexpected(fmt::format("'nvcc --version' exited with {}", ran->exit_status));
  auto version = nvcc_version_from_output(ran->out);
  if (version.empty()) return std::unexpected("'nvcc --version' printed no version");
  return version;
}

// The toolkit at `place`, or why it does not serve.
std::expected<Toolkit, std::string> toolkit_at(const Place& place) {
  std::error_code ec;
  if (!fs::exists(place.nvcc, ec)) return std::unexpected(fmt::format("no {}", place.nvcc));
  if (!is_executable_file(place.nvcc)) return std::unexpected(fmt::format("{} is not an executable file", place.nvcc));
  Toolkit toolkit{.nvcc = place.nvcc, .root = place.root, .include_dirs = {}, .version = {}, .origin = place.origin};
  toolkit.version = version_from_files(place.root);
  if (toolkit.version.empty()) {
    auto version = version_from_nvcc(place.nvcc);
    if (!version) return std::unexpected(fmt::format("{}: {}", place.nvcc, version.error()));
    toolkit.version = std::move(*version);
  }
  if (const std::string include = place.root + "/include"; fs::is_directory(include, ec))
    toolkit.include_dirs = toolkit_header_dirs(include);
  return toolkit;
}

std::optional<std::string> set_value(const EnvLookup& env, std::string_view name) {
  if (!env) return std::nullopt;
  auto value = env(name);
  if (!value || value->empty()) return std::nullopt;
  return value;
}

// The first nvcc in $PATH's folders that is an executable file, or "".
std::string nvcc_on_path(const std::string& path) {
  for (std::size_t start = 0; start <= path.size();) {
    const auto colon = std::min(path.find(':', start), path.size());
    const std::string folder = path.substr(start, colon - start);
    if (!folder.empty())
      if (const std::string nvcc = without_trailing_slashes(folder) + "/nvcc"; is_executable_file(nvcc)) return nvcc;
    start = colon + 1;
  }
  return {};
}

Unavailable not_found(std::vector<LoadAttempt> tried) {
  Unavailable missing;
  missing.what = "no CUDA toolkit with nvcc found";
  missing.consequence = "nvcc compiles unavailable";
  missing.fix =
      "run scripts/setup.sh (it installs NVIDIA's compiler wheels under ~/.cache/kforecast where no toolkit exists), "
      "or set cuda.nvcc or CUDA_HOME";
  missing.tried = std::move(tried);
  return missing;
}

}  // namespace

std::string nvcc_version_from_output(std::string_view output) {
  // "Cuda compilation tools, release 13.0, V13.0.88": the V-version is nvcc's own, full one.
  for (auto at = output.find(", V"); at != std::string_view::npos; at = output.find(", V", at + 1)) {
    const auto start = at + 3;
    auto end = start;
    while (end < output.size() && (std::isdigit(static_cast<unsigned char>(output[end])) != 0 || output[end] == '.'))
      ++end;
    if (end > start && std::isdigit(static_cast<unsigned char>(output[start])) != 0)
      return std::string(output.substr(start, end - start));
  }
  return {};
}

std::string nvcc_version_from_version_json(std::string_view json) {
  // The installer writes {"cuda_nvcc" : {"name" : "CUDA NVCC", "version" : "13.0.88"}, ...}: the
  // version is the first "version" string inside the object after the "cuda_nvcc" key.
  const auto key = json.find("\"cuda_nvcc\"");
  if (key == std::string_view::npos) return {};
  const auto open = json.find('{', key);
  const auto close = json.find('}', open);
  if (open == std::string_view::npos || close == std::string_view::npos) return {};
  const auto object = json.substr(open, close - open);
  const auto field = object.find("\"version\"");
  if (field == std::string_view::npos) return {};
  const auto colon = object.find(':', field);
  const auto first = object.find('"', colon);
  const auto last = object.find('"', first + 1);
  if (colon == std::string_view::npos || first == std::string_view::npos || last == std::string_view::npos) return {};
  return std::string(object.substr(first + 1, last - first - 1));
}

std::expected<Toolkit, Unavailable> locate_toolkit(std::string_view configured_nvcc, const EnvLookup& env,
                                                   const ToolkitPlaces& places) {
  if (!configured_nvcc.empty()) {
    const std::string path(configured_nvcc);
    std::error_code ec;
    const Place place = fs::is_directory(path, ec) ? place_at_root("cuda.nvcc = " + path, path)
                                                   : place_of_nvcc("cuda.nvcc = " + path, path);
    auto toolkit = toolkit_at(place);
    if (toolkit) return std::move(*toolkit);
    Unavailable missing = not_found({{place.origin, toolkit.error()}});
    missing.what = "the nvcc that cuda.nvcc names cannot be used";
    missing.fix = "correct cuda.nvcc, or set it to \"\" to search the usual places";
    return std::unexpected(std::move(missing));
  }

  std::vector<LoadAttempt> tried{{"cuda.nvcc", "not set"}};
  const auto at = [&tried](const Place& place) -> std::optional<Toolkit> {
    auto toolkit = toolkit_at(place);
    if (toolkit) return std::move(*toolkit);
    tried.push_back({place.origin, toolkit.error()});
    return std::nullopt;
  };

  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (auto root = set_value(env, variable)) {
      if (auto found = at(place_at_root(fmt::format("{}={}", variable, *root), *root))) return std::move(*found);
    } else {
      tried.push_back({variable, "not set"});
    }
  }

  if (auto path = set_value(env, "PATH")) {
    if (const std::string nvcc = nvcc_on_path(*path); nvcc.empty())
      tried.push_back({"nvcc on PATH", "none in " + *path});
    else if (auto found = at(place_of_nvcc("nvcc on PATH", nvcc)))
      return std::move(*found);
  } else {
    tried.push_back({"nvcc on PATH", "PATH not set"});
  }

  if (auto found = at(place_at_root(places.system_root, places.system_root))) return std::move(*found);

  const std::string parent = private_toolkit_parent(env);
  const auto roots = private_toolkit_roots(env);
  for (const auto& root : roots) {
    const std::string folder = fs::path(root).parent_path().string();
    if (auto found = at(place_at_root(fmt::format("private toolkit {} (scripts/setup.sh)", folder), root)))
      return std::move(*found);
  }
  if (parent.empty())
    tried.push_back({"private toolkit", "neither XDG_CACHE_HOME nor HOME is set"});
  else if (roots.empty())
    tried.push_back(
        {fmt::format("private toolkit {}/cuda-*", parent), "none installed (scripts/setup.sh installs one)"});
  return std::unexpected(not_found(std::move(tried)));
}

std::vector<StatusLine> describe_toolkit(const std::expected<Toolkit, Unavailable>& toolkit) {
  if (toolkit) return {{"nvcc", fmt::format("{} at {}, from {}", toolkit->version, toolkit->nvcc, toolkit->origin)}};
  std::vector<StatusLine> lines{{"nvcc", "not available: " + toolkit.error().message()}};
  for (const auto& attempt : toolkit.error().tried) lines.push_back({"", attempt.path + ": " + attempt.error});
  return lines;
}

}  // namespace kforecast::cuda
