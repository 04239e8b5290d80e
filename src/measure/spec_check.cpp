// SPDX-License-Identifier: Apache-2.0
#include "measure/spec_check.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::measure {
namespace {

// Files larger than this are not read for comment specs (a generated file holds none).
constexpr std::uintmax_t max_source_bytes = std::uintmax_t{4} << 20;

// A regular file only: a symbolic link in a pull request could point outside the repository, and
// a spec's problems quote its text.
std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) return std::nullopt;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > max_source_bytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

void split_into(const std::string& message, std::vector<std::string>& lines) {
  std::istringstream in(message);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
}

// Each size of `spec` bound to the kernel's parameters, as `bench` binds it: an argument naming
// no parameter, an expression naming no size variable, a buffer too large. A template's
// instantiation is chosen at compile time, so its parameters are taken as written.
void check_binding(const bench::LaunchSpec& spec, const kernels::Function& kernel, SpecCheck& check) {
  for (const auto& size : spec.sizes)
    if (auto launch = bench::resolve_launch(spec, size, kernel.parameters); !launch) {
      split_into(launch.error().message, check.problems);  // it names the spec's place and key
      return;
    }
}

bool is_kernel_with_body(const kernels::Function& function) {
  return function.kind == kernels::FunctionKind::global && function.has_body && !function.from_macro;
}

// The comment specs of one source file, read and bound as `bench` reads and binds them.
void check_comment_specs(const std::string& path, const std::string& text, SpecCheck& check) {
  if (text.find("kforecast:") == std::string::npos) return;
  const auto scanned = kernels::scan_cuda_source(text);
  for (const auto& function : scanned.functions) {
    if (!is_kernel_with_body(function)) continue;
    auto spec = bench::read_comment_spec(text, function.signature.first_line, function.qualified_name, path);
    if (!spec) {
      split_into(spec.error().message, check.problems);
    } else if (*spec) {
      ++check.comment_specs;
      check_binding(**spec, function, check);
    }
  }
}

// A [[kernel]] table naming a file: the kernel must be defined there.
void check_config_spec_target(const bench::LaunchSpec& spec, const git::Repository& repository, SpecCheck& check) {
  if (spec.file.empty()) return;
  const std::filesystem::path file(spec.file);
  if (file.is_absolute() || std::ranges::any_of(file, [](const auto& part) { return part == ".."; })) {
    check.problems.push_back(fmt::format("{}: [[kernel]] '{}': file '{}' is outside the repository; name it relative "
                                         "to the repository's root",
                                         spec.origin, spec.name, spec.file));
    return;
  }
  const auto text = read_text(repository.root() / file);
  if (!text) {
    check.problems.push_back(fmt::format("{}: [[kernel]] '{}': file '{}' cannot be read in {}", spec.origin,
                                         spec.name, spec.file, repository.root().string()));
    return;
  }
  const auto scanned = kernels::scan_cuda_source(*text);
  for (const auto& function : scanned.functions)
    if (is_kernel_with_body(function) &&
        (function.qualified_name == spec.base_name() || function.name == spec.base_name())) {
      check_binding(spec, function, check);
      return;
    }
  check.problems.push_back(
      fmt::format("{}: [[kernel]] '{}': {} defines no kernel named '{}'", spec.origin, spec.name, spec.file,
                  spec.base_name()));
}

}  // namespace

bool holds_cuda_kernels(std::string_view path) {
  static constexpr std::array endings{".cu", ".cuh", ".h", ".hpp", ".hh", ".inl", ".cpp", ".cc"};
  return std::ranges::any_of(endings, [&](std::string_view ending) { return path.ends_with(ending); });
}

SpecCheck check_launch_specs(const config::Config& config, const git::Repository* repository) {
  SpecCheck check;
  std::vector<bench::LaunchSpec> config_specs;
  if (!config.source_text().empty()) {
    auto specs = bench::read_config_specs(config.source_text(), config.source_name());
    if (specs)
      config_specs = std::move(*specs);
    else
      split_into(specs.error().message, check.problems);
  }
  check.config_specs = static_cast<int>(config_specs.size());
  if (repository == nullptr) {
    check.notes.push_back("`// kforecast:` blocks not checked: not in a git repository");
    return check;
  }
  auto files = repository->list_files("");
  if (!files) {
    check.notes.push_back(fmt::format("`// kforecast:` blocks not checked: {}", files.error().message));
    return check;
  }
  for (const auto& spec : config_specs) check_config_spec_target(spec, *repository, check);
  for (const auto& path : *files) {
    if (!holds_cuda_kernels(path)) continue;
    if (auto text = read_text(repository->root() / path)) check_comment_specs(path, *text, check);
  }
  return check;
}

}  // namespace kforecast::measure
