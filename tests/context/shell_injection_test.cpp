// SPDX-License-Identifier: Apache-2.0
// Property: whatever text a revision puts into a define or a flag, in any source of flags (CMake,
// setup.py, a compile database's arguments or command, the config), what reaches nvcc holds
// nothing its shell acts on, and each hostile define is refused with a note naming it and the
// file. Values are generated from every shell metacharacter, quote and newline. The nvcc test
// (tests/context/shell_injection_nvcc_test.cpp) runs the real compiler on what passes.
#include <cctype>
#include <random>

#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/shell_text.hpp"
#include "config/config.hpp"
#include "context/build_file_defines.hpp"
#include "context/compile_database.hpp"
#include "context/configured_context.hpp"
#include "context/context_for.hpp"
#include "support/shell_payloads.hpp"

using namespace kforecast;
using namespace kforecast::context;

namespace {

const FolderLookup no_folders{[](const std::filesystem::path&) { return std::optional<std::filesystem::path>(); }};

// What nvcc would get from `context` holds nothing a shell acts on (defines may hold quotes).
void check_safe_for_nvcc(const CompileContext& context) {
  for (const auto& [name, value] : context.defines) {
    INFO("define " << name << "=" << value);
    CHECK_FALSE(define_refusal(name, value).has_value());
  }
  for (const auto& folder : context.include_dirs) CHECK_FALSE(shell_active_or_quote(folder).has_value());
  for (const auto& flag : context.flags) CHECK_FALSE(shell_active_or_quote(flag).has_value());
  for (const auto& argument : nvcc_arguments(context)) {
    const bool define = argument.starts_with("-D");
    CHECK_FALSE((define ? shell_active_character(argument) : shell_active_or_quote(argument)).has_value());
  }
}

bool mentioned(const std::vector<std::string>& notes, std::string_view text) {
  return std::ranges::any_of(notes, [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

// Whether a note names define KF_P<index> (and not KF_P<index>0).
bool names_define(const std::vector<std::string>& notes, std::size_t index) {
  const std::string name = fmt::format("KF_P{}", index);
  return std::ranges::any_of(notes, [&](const std::string& note) {
    for (std::size_t at = note.find(name); at != std::string::npos; at = note.find(name, at + 1)) {
      const std::size_t end = at + name.size();
      if (end == note.size() || std::isdigit(static_cast<unsigned char>(note[end])) == 0) return true;
    }
    return false;
  });
}

// A value in CMake's quoted-argument spelling.
std::string cmake_quoted(std::string_view value) {
  std::string out = "\"";
  for (const char c : value) {
    if (c == '\\' || c == '"' || c == '$' || c == ';') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// A value in Python's double-quoted string spelling.
std::string python_quoted(std::string_view value) {
  std::string out = "\"";
  for (const char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// A word in a POSIX shell command line, single-quoted.
std::string shell_quoted(std::string_view value) {
  std::string out = "'";
  for (const char c : value) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST_CASE("shell injection: generated define values from every source reach nvcc only when inert") {
  const auto values = kforecast::testing::shell_payloads(7, 120);
  std::size_t hostile = 0;
  for (const auto& value : values) hostile += shell_active_character(value) ? 1 : 0;
  REQUIRE(hostile > 60);  // the generator gives both kinds
  REQUIRE(values.size() - hostile > 10);

  SECTION("CMakeLists.txt") {
    std::string cmake = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n";
    for (std::size_t i = 0; i < values.size(); ++i)
      cmake += fmt::format("add_compile_definitions({})\n", cmake_quoted(fmt::format("KF_P{}={}", i, values[i])));
    const auto settled = read_build_file_defines(
        [&](const std::string& path) { return path == "CMakeLists.txt" ? std::optional(cmake) : std::nullopt; }, 90);
    CompileContext context;
    context.defines = settled.defines;
    check_safe_for_nvcc(context);
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!shell_active_character(values[i])) continue;
      INFO("value " << values[i]);
      CHECK(names_define(settled.left_out, i));
      CHECK(mentioned(settled.left_out, fmt::format("CMakeLists.txt:{})", i + 3)));
    }
    CHECK(settled.defines.size() >= (values.size() - hostile) / 2);  // harmless values keep compiling
  }

  SECTION("setup.py") {
    std::string setup = "from torch.utils.cpp_extension import CUDAExtension\nnvcc_flags = [\n";
    for (std::size_t i = 0; i < values.size(); ++i)
      setup += fmt::format("    {},\n", python_quoted(fmt::format("-DKF_P{}={}", i, values[i])));
    setup += "]\next = CUDAExtension('x', ['a.cu'], extra_compile_args={'nvcc': nvcc_flags})\n";
    const auto settled = read_build_file_defines(
        [&](const std::string& path) { return path == "setup.py" ? std::optional(setup) : std::nullopt; }, 90);
    CompileContext context;
    context.defines = settled.defines;
    check_safe_for_nvcc(context);
    std::size_t refused = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (shell_active_character(values[i]) && names_define(settled.left_out, i)) ++refused;
    CHECK(refused > 0);
  }

  SECTION("a compile database's arguments and command") {
    nlohmann::json database = nlohmann::json::array();
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string define = fmt::format("-DKF_P{}={}", i, values[i]);
      database.push_back({{"directory", "/repo"},
                          {"file", fmt::format("a{}.cu", i)},
                          {"arguments", {"nvcc", define, "-I" + values[i], "-O3", "-c", fmt::format("a{}.cu", i)}}});
      database.push_back({{"directory", "/repo"},
                          {"file", fmt::format("b{}.cu", i)},
                          {"command", fmt::format("nvcc {} -c b{}.cu", shell_quoted(define), i)}});
    }
    auto parsed = parse_compile_database(database.dump(), "compile_commands.json", {"/repo", "/repo"});
    REQUIRE(parsed);
    const ContextSources sources{"/repo", no_folders, &*parsed, nullptr, nullptr};
    for (const auto& [file, entry] : parsed->entries) {
      const auto context = database_context(entry, sources);
      check_safe_for_nvcc(context);
      const std::size_t index = std::stoul(file.substr(1));
      if (shell_active_character(values[index])) {
        INFO(file << ": " << values[index]);
        CHECK(names_define(context.refused, index));
      }
    }
  }

  SECTION("the config's compile.defines and compile.flags") {
    std::string toml = "[compile]\ndefines = [\n";
    for (std::size_t i = 0; i < values.size(); ++i)
      toml += fmt::format("  {},\n", nlohmann::json(fmt::format("KF_P{}={}", i, values[i])).dump());
    toml += "]\nflags = [\n";
    for (const auto& value : values) toml += fmt::format("  {},\n", nlohmann::json("-Xptxas=" + value).dump());
    toml += "]\n";
    auto config = config::parse_config(toml, ".kforecast.toml");
    REQUIRE(config);
    auto contexts = read_configured_contexts(*config);
    REQUIRE(contexts);
    const auto context = configured_context(*contexts, "src/a.cu", FolderPlace{"/repo", "/repo"}, no_folders);
    REQUIRE(context);
    check_safe_for_nvcc(*context);
    for (std::size_t i = 0; i < values.size(); ++i)
      if (shell_active_character(values[i])) CHECK(names_define(context->refused, i));
  }
}
