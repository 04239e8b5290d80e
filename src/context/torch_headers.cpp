// SPDX-License-Identifier: Apache-2.0
#include "context/torch_headers.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/subprocess.hpp"

namespace kforecast::context {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view install_hint =
    "install the torch wheel without its dependencies in this job (pip install --no-deps torch: no GPU or "
    "CUDA libraries needed), or set compile.torch_include to a torch/include folder";

// find_spec locates the package without running its __init__ (which a wheel installed without its
// dependencies cannot); sysconfig gives the folder Python.h is installed in.
// The nvidia namespace package's folders hold pip's CUDA libraries (nvidia/nccl, nvidia/nvshmem).
constexpr std::string_view locate_script =
    "import importlib.util as u, json, sysconfig\n"
    "s = u.find_spec('torch')\n"
    "p = list(s.submodule_search_locations or []) if s else []\n"
    "n = u.find_spec('nvidia')\n"
    "v = list(n.submodule_search_locations or []) if n else []\n"
    "print(json.dumps({'torch': p[0] if p else None, 'include': sysconfig.get_paths().get('include'), "
    "'nvidia': v}))\n";

// <location>/<library>/include of each library folder that holds none of the toolkit's headers.
std::vector<fs::path> library_include_folders(const std::vector<std::string>& locations) {
  std::vector<fs::path> folders;
  for (const std::string& location : locations) {
    std::error_code error;
    std::vector<fs::path> libraries;
    for (const auto& entry : fs::directory_iterator(location, error))
      if (entry.is_directory(error)) libraries.push_back(entry.path());
    std::ranges::sort(libraries);
    for (const fs::path& library : libraries) {
      const fs::path include = library / "include";
      // The toolkit's own headers, in one bundle (nvidia/cu13) or split (CUDA 12's cuda_runtime,
      // cuda_cccl, cuda_nvcc): of another version than the compiler's, they would shadow its own.
      const bool toolkit = std::ranges::any_of(std::array{"cuda_runtime.h", "cuda.h", "cub", "thrust", "crt", "cuda"},
                                               [&](const char* name) { return fs::exists(include / name, error); });
      if (!fs::is_directory(include, error) || toolkit) continue;
      if (folders.size() < 32) folders.push_back(fs::canonical(include, error));
    }
  }
  return folders;
}

std::string read_small(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error) || fs::file_size(path, error) > 65536) return {};
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool holds_torch_headers(const fs::path& include) {
  std::error_code error;
  return fs::is_regular_file(include / "torch" / "extension.h", error) || fs::is_directory(include / "c10", error);
}

fs::path python_include_folder(const std::string& folder) {
  std::error_code error;
  if (!folder.empty() && fs::is_regular_file(fs::path(folder) / "Python.h", error)) return fs::canonical(folder, error);
  return {};
}

std::expected<TorchHeaders, std::string> from_folder(const std::string& folder) {
  std::error_code error;
  const fs::path include = fs::canonical(folder, error);
  if (error || !holds_torch_headers(include))
    return std::unexpected(fmt::format("compile.torch_include = \"{}\" is not a torch/include folder (no "
                                       "torch/extension.h or c10/ in it); give the include folder of an installed "
                                       "torch package",
                                       folder));
  TorchHeaders headers;
  headers.include = include;
  headers.version = torch_version(read_small(include.parent_path() / "version.py"));
  headers.found_by = fmt::format("compile.torch_include ({})", include.string());
  return headers;
}

struct PythonAnswer {
  std::string torch;    // the package folder, or "" where none is installed
  std::string include;  // sysconfig's include folder
  std::vector<std::string> nvidia;  // the nvidia namespace package's folders
};

std::expected<PythonAnswer, std::string> ask(const std::string& python) {
  ProcessOptions options;
  options.working_directory = "/";  // nothing of the repository on the module path
  options.timeout = std::chrono::seconds(20);
  options.max_output_bytes = 1 << 20;
  const auto ran = run_process({python, "-E", "-c", std::string(locate_script)}, options);
  if (!ran)
    return std::unexpected(fmt::format("{} could not be run to find torch ({}); {}", python, ran.error().message,
                                       install_hint));
  if (ran->exit_status != 0)
    return std::unexpected(
        fmt::format("{} could not look for torch (exit status {}); {}", python, ran->exit_status, install_hint));
  const auto answer = nlohmann::json::parse(ran->out, nullptr, false);
  if (!answer.is_object() || !answer.contains("torch"))
    return std::unexpected(fmt::format("{} gave no answer kforecast could read; {}", python, install_hint));
  PythonAnswer found;
  if (const auto& torch = answer["torch"]; torch.is_string()) found.torch = torch.get<std::string>();
  if (const auto& include = answer.value("include", nlohmann::json()); include.is_string())
    found.include = include.get<std::string>();
  if (const auto& nvidia = answer.value("nvidia", nlohmann::json()); nvidia.is_array())
    for (const auto& location : nvidia)
      if (location.is_string()) found.nvidia.push_back(location.get<std::string>());
  return found;
}

}  // namespace

std::string torch_version(std::string_view version_py) {
  for (std::size_t at = version_py.find("__version__"); at != std::string_view::npos;
       at = version_py.find("__version__", at + 1)) {
    const auto quote = version_py.find_first_of("'\"", at);
    const auto line_end = version_py.find('\n', at);
    if (quote == std::string_view::npos || quote > line_end) continue;
    const auto close = version_py.find(version_py[quote], quote + 1);
    if (close == std::string_view::npos || close > line_end) continue;
    std::string_view version = version_py.substr(quote + 1, close - quote - 1);
    version = version.substr(0, version.find('+'));
    if (!version.empty() && version.size() < 32 &&
        version.find_first_not_of("0123456789.abrcdevpost") == std::string_view::npos)
      return std::string(version);
  }
  return {};
}

bool torch_at_least(std::string_view version, int major, int minor) {
  int found_major = 0, found_minor = 0;
  const std::string text(version);
  const char* end = text.c_str() + text.size();
  auto [dot, error] = std::from_chars(text.c_str(), end, found_major);
  if (error != std::errc() || dot == end || *dot != '.') return false;
  if (std::from_chars(dot + 1, end, found_minor).ec != std::errc()) return false;
  return found_major > major || (found_major == major && found_minor >= minor);
}

std::expected<TorchHeaders, std::string> find_torch_headers(const TorchSearch& search) {
  const bool ask_python = !search.python.empty() && search.python != "off";
  if (!search.include.empty()) {
    auto headers = from_folder(search.include);
    if (headers && ask_python)
      if (auto answer = ask(search.python)) {
        headers->python_include = python_include_folder(answer->include);
        headers->library_includes = library_include_folders(answer->nvidia);
      }
    return headers;
  }
  if (!ask_python)
    return std::unexpected(fmt::format("compile.python is \"off\" and compile.torch_include is not set; {}", install_hint));
  auto answer = ask(search.python);
  if (!answer) return std::unexpected(answer.error());
  if (answer->torch.empty())
    return std::unexpected(fmt::format("{} has no torch package installed; {}", search.python, install_hint));
  std::error_code error;
  const fs::path package = fs::canonical(answer->torch, error);
  if (error || !holds_torch_headers(package / "include"))
    return std::unexpected(fmt::format("{}'s torch package at {} has no C++ headers (a CPU-only build has none); {}",
                                       search.python, answer->torch, install_hint));
  TorchHeaders headers;
  headers.include = package / "include";
  headers.version = torch_version(read_small(package / "version.py"));
  headers.python_include = python_include_folder(answer->include);
  headers.library_includes = library_include_folders(answer->nvidia);
  headers.found_by = fmt::format("{}'s torch{}{} at {}", search.python, headers.version.empty() ? "" : " ",
                                 headers.version, package.string());
  return headers;
}

}  // namespace kforecast::context
