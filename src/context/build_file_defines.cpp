// SPDX-License-Identifier: Apache-2.0
#include "context/build_file_defines.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "context/flag_filter.hpp"
#include "context/makefile_flags.hpp"
#include "context/setup_py_build.hpp"

namespace kforecast::context {
namespace {

std::string define_text(const std::pair<std::string, std::string>& define) {
  return define.second.empty() ? define.first : fmt::format("{}={}", define.first, define.second);
}

// The first reference in `value` (between `open` and `close`), or nullopt.
std::optional<std::string> first_reference(std::string_view value, char open, char close) {
  const auto begin = value.find(open);
  if (begin == std::string_view::npos) return std::nullopt;
  const auto end = value.find(close, begin);
  return std::string(value.substr(begin + 1, end == std::string_view::npos ? std::string_view::npos : end - begin - 1));
}

// `value` with each architecture reference made `arch`.
std::string with_arch(std::string value, int arch) {
  for (auto open = value.find(arch_open); open != std::string::npos; open = value.find(arch_open)) {
    const auto close = value.find(arch_close, open);
    value.replace(open, close == std::string::npos ? std::string::npos : close - open + 1, std::to_string(arch));
  }
  return value;
}

// The build file a `where` names: "CMakeLists.txt" for "src/CMakeLists.txt:3" too.
std::string source_file(std::string_view where) {
  const std::string_view file = where.substr(0, where.find_first_of(": "));
  const auto slash = file.rfind('/');
  return std::string(slash == std::string_view::npos ? file : file.substr(slash + 1));
}

// find_package(Torch ...) in a CMake file's text, in any case of the command's name.
bool finds_torch(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (auto at = lower.find("find_package"); at != std::string::npos; at = lower.find("find_package", at + 1)) {
    auto open = text.find_first_not_of(" \t", at + 12);
    if (open == std::string_view::npos || text[open] != '(') continue;
    const auto name = text.find_first_not_of(" \t\n", open + 1);
    if (name != std::string_view::npos && text.substr(name, 5) == "Torch" &&
        (name + 5 == text.size() || std::string_view(" \t\n)").find(text[name + 5]) != std::string_view::npos))
      return true;
  }
  return false;
}

}  // namespace

std::string BuildFileDefines::summary() const {
  if (defines.empty() && left_out.empty() && flags.empty() && undefines.empty()) return {};
  const std::string undefined =
      undefines.empty() ? std::string() : fmt::format("; undefined: {}", fmt::join(undefines, ", "));
  if (defines.empty() && left_out.empty())
    return fmt::format("flags from {}: {}{}", fmt::join(sources, " and "), fmt::join(flags, ", "), undefined);
  std::vector<std::string> texts;
  for (const auto& define : defines) texts.push_back(define_text(define));
  std::string text = defines.empty()
                         ? std::string()
                         : fmt::format("defines from {}: {}", fmt::join(sources, " and "), fmt::join(texts, ", "));
  if (!left_out.empty()) {
    // The first few, then a count: a setup.py's ROCm branch alone can leave out twenty.
    constexpr std::size_t shown = 3;
    const auto end = left_out.begin() + static_cast<std::ptrdiff_t>(std::min(shown, left_out.size()));
    text += fmt::format("{}left out: {}", text.empty() ? "" : "; ", fmt::join(left_out.begin(), end, ", "));
    if (left_out.size() > shown) text += fmt::format(" (and {} more)", left_out.size() - shown);
  }
  if (!flags.empty()) text += fmt::format("; flags from {}: {}", fmt::join(sources, " and "), fmt::join(flags, ", "));
  return text + undefined;
}

BuildFileDefines settle_defines(const std::vector<FoundDefine>& found, std::optional<int> arch) {
  BuildFileDefines result;
  std::vector<std::string> seen;  // names settled or left out, so that the first decides
  for (const FoundDefine& define : found) {
    const auto equals = define.text.find('=');
    const std::string name = define.text.substr(0, equals);
    std::string value = equals == std::string::npos ? std::string() : define.text.substr(equals + 1);
    if (name.find_first_of("\x01\x02\x03\x04") != std::string::npos) {
      result.notes.push_back(fmt::format("a define whose name is not known left out ({})", define.where));
      continue;
    }
    if (const auto variable = first_reference(value, arch_open, arch_close); variable && !arch) {
      value = unknown_reference(*variable);
    } else if (variable) {
      value = with_arch(std::move(value), *arch);
      result.notes.push_back(
          fmt::format("{}={}: {} is computed from the GPU the build configures on; kforecast's "
                      "target architecture taken ({})",
                      name, value, *variable, define.where));
    }
    if (const auto unknown = first_reference(value, unknown_open, unknown_close)) {
      if (arch && names_an_architecture(name)) {
        value = std::to_string(*arch);
        result.notes.push_back(
            fmt::format("{}={}: its value {} is not known, and it names a GPU architecture: "
                        "kforecast's target architecture taken ({})",
                        name, value, *unknown, define.where));
      } else if (std::ranges::find(seen, name) == seen.end()) {
        seen.push_back(name);
        result.left_out.push_back(fmt::format("{} (its value {} is not known; {})", name, *unknown, define.where));
        continue;
      } else {
        continue;
      }
    }
    if (value.find_first_of("\x01\x02\x03\x04") != std::string::npos) continue;
    const auto same = std::ranges::find(result.defines, name, &std::pair<std::string, std::string>::first);
    if (same != result.defines.end() || std::ranges::find(seen, name) != seen.end()) {
      if (same != result.defines.end() && same->second != value)
        result.notes.push_back(fmt::format("{} also given as {} ({}); the first, {}, kept", name,
                                           define_text({name, value}), define.where, define_text(*same)));
      continue;
    }
    seen.push_back(name);
    CompileContext checked;
    const std::array<std::string, 1> argument{"-D" + define.text.substr(0, equals) +
                                              (equals == std::string::npos ? "" : "=" + value)};
    add_arguments(argument, FolderPlace{"/", "/"}, FolderLookup{}, checked);
    if (!checked.refused.empty()) {
      result.left_out.push_back(fmt::format("{} ({})", checked.refused.front(), define.where));
      continue;
    }
    for (auto& settled : checked.defines) result.defines.push_back(std::move(settled));
    const std::string source = source_file(define.where);
    if (std::ranges::find(result.sources, source) == result.sources.end()) result.sources.push_back(source);
  }
  return result;
}

BuildFileDefines read_build_file_defines(const BuildFileReader& read, std::optional<int> arch) {
  // Every CMake file the reader opens is also looked at for find_package(Torch).
  std::optional<std::string> torch_cmake;
  const BuildFileReader watching = [&](const std::string& path) {
    auto text = read(path);
    if (text && !torch_cmake && finds_torch(*text)) torch_cmake = path;
    return text;
  };
  CMakeDefines cmake = read_cmake_defines(watching, arch);
  std::vector<FoundDefine> found = std::move(cmake.defines);
  std::vector<FoundDefine> flags = std::move(cmake.flags);
  std::optional<SetupPyBuild> python;
  if (auto setup = read("setup.py")) {
    python = read_setup_py(*setup, "setup.py");
    found.insert(found.end(), python->defines.begin(), python->defines.end());
  }
  BuildFileDefines result = settle_defines(found, arch);
  result.notes.insert(result.notes.begin(), cmake.notes.begin(), cmake.notes.end());
  if (python) {
    flags.insert(flags.end(), python->flags.begin(), python->flags.end());
    for (const FoundDefine& undefine : python->undefines)
      if (std::ranges::find(result.undefines, undefine.text) == result.undefines.end())
        result.undefines.push_back(undefine.text);
    for (const std::string& skipped : python->not_taken) result.left_out.push_back(skipped);
    if (python->torch_extension) result.torch = TorchBuild{TorchBuild::Kind::setuptools, python->extension_name, "setup.py"};
  }
  if (!result.torch && torch_cmake) result.torch = TorchBuild{TorchBuild::Kind::cmake, "", *torch_cmake};
  for (const std::string_view name : makefile_names)
    if (auto makefile = read(std::string(name))) {
      auto rdc = read_makefile_flags(*makefile, name);
      flags.insert(flags.end(), rdc.begin(), rdc.end());
      break;  // make reads the first it finds
    }
  // Each flag once; a value known only in part (a ${VAR} no command set) is not a flag to pass.
  for (const FoundDefine& flag : flags)
    if (flag.text.find_first_of(std::string{unknown_open, arch_open}) == std::string::npos &&
        std::ranges::find(result.flags, flag.text) == result.flags.end()) {
      result.flags.push_back(flag.text);
      const std::string source = source_file(flag.where);
      if (std::ranges::find(result.sources, source) == result.sources.end()) result.sources.push_back(source);
    }
  return result;
}

BuildFileReader repository_file_reader(const std::filesystem::path& root, std::size_t max_bytes) {
  return [root, max_bytes](const std::string& path) -> std::optional<std::string> {
    std::error_code error;
    const auto real_root = std::filesystem::canonical(root, error);
    if (error) return std::nullopt;
    const auto real = std::filesystem::canonical(root / path, error);
    if (error || !std::filesystem::is_regular_file(real, error)) return std::nullopt;
    const auto inside = real.lexically_relative(real_root);
    if (inside.empty() || *inside.begin() == ".." || *inside.begin() == ".git") return std::nullopt;
    if (std::filesystem::file_size(real, error) > max_bytes || error) return std::nullopt;
    std::ifstream in(real, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
}

std::optional<int> architecture_number(std::string_view arch) {
  for (std::string_view prefix : {"sm_", "compute_"})
    if (arch.starts_with(prefix)) {
      int number = 0;
      const auto digits = arch.substr(prefix.size());
      const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
      if (error == std::errc() && end != digits.data() && number > 0) return number;
    }
  return std::nullopt;
}

}  // namespace kforecast::context
