// SPDX-License-Identifier: Apache-2.0
#include "context/cmake_defines.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "context/cmake_condition.hpp"
#include "context/cmake_script.hpp"
#include "context/cmake_values.hpp"
#include "context/cmake_variables.hpp"

namespace kforecast::context {
namespace {

using Commands = std::vector<CMakeCommand>;

// Commands that open and close blocks; the reader walks them, never runs them.
bool closes_block(const std::string& name) {
  return name == "elseif" || name == "else" || name == "endif" || name == "endforeach" || name == "endwhile" ||
         name == "endfunction" || name == "endmacro";
}

class Reader {
 public:
  Reader(const BuildFileReader& read, std::optional<int> arch, const CMakeLimits& limits)
      : m_read(read), m_arch(arch), m_variables(arch, limits.max_value_bytes), m_limits(limits) {}

  void read_directory(const std::string& folder, Variables variables, std::size_t depth) {
    const std::string file = folder.empty() ? "CMakeLists.txt" : folder + "/CMakeLists.txt";
    if (m_result.files.size() == m_limits.max_files) {
      m_result.notes.push_back(fmt::format("{} not read: more than {} CMakeLists.txt files", file, m_limits.max_files));
      return;
    }
    auto text = m_read(file);
    if (!text) {
      if (!folder.empty()) m_result.notes.push_back(fmt::format("{} not read: not found in the repository", file));
      return;
    }
    auto commands = parse_cmake_script(*text);
    if (!commands) {
      m_result.notes.push_back(fmt::format("{} not read: {}", file, commands.error()));
      return;
    }
    m_result.files.push_back(file);
    const Place place{file, folder, depth};
    const std::size_t end = run(*commands, 0, variables, true, place, 0);
    if (end < commands->size())
      m_result.notes.push_back(fmt::format("{}:{}: {}() without its block; the rest of the file not read", file,
                                           (*commands)[end].line, (*commands)[end].name));
    for (const char* flags : {"CMAKE_CUDA_FLAGS", "CUDA_NVCC_FLAGS"})
      if (auto value = variables.find(flags); value != variables.end())
        add_define_words(flag_words(value->second), fmt::format("{} ({})", file, flags));
    for (const char* separable : {"CMAKE_CUDA_SEPARABLE_COMPILATION", "CUDA_SEPARABLE_COMPILATION"})  // FindCUDA's
      if (auto value = variables.find(separable); value != variables.end())
        add_separable(value->second, variables, fmt::format("{} ({})", file, separable));
    // The language standard CMake passes as -std= for the CUDA files, the C++ one standing in.
    for (const char* standard : {"CMAKE_CUDA_STANDARD", "CMAKE_CXX_STANDARD"})
      if (auto value = variables.find(standard); value != variables.end() && is_standard_number(value->second)) {
        m_result.flags.push_back({"-std=c++" + value->second, fmt::format("{} ({})", file, standard)});
        break;
      }
  }

  CMakeDefines result() && { return std::move(m_result); }

 private:
  struct Place {
    std::string file;
    std::string folder;
    std::size_t depth;
  };

  // Runs commands from `at` up to the one that closes the enclosing block (or the end), which
  // it returns. With `execute` false it only walks past nested blocks.
  std::size_t run(const Commands& commands, std::size_t at, Variables& variables, bool execute, const Place& place,
                  std::size_t block_depth) {
    while (at < commands.size()) {
      const CMakeCommand& command = commands[at];
      if (closes_block(command.name)) return at;
      if (block_depth >= m_limits.max_block_depth || m_steps >= m_limits.max_steps || m_work > m_limits.max_work) {
        if (!m_stopped)
          m_result.notes.push_back(
              fmt::format("{}:{}: blocks nested too deep, too many commands or too much to expand; the rest not read",
                          place.file, command.line));
        m_stopped = true;
        return commands.size();
      }
      ++m_steps;
      if (command.name == "if") {
        at = run_if(commands, at, variables, execute, place, block_depth + 1);
      } else if (command.name == "foreach" || command.name == "while") {
        Variables body = execute ? copy(variables) : Variables{};
        if (command.name == "foreach" && !command.arguments.empty())
          body[command.arguments.front().text] = m_variables.computed(command.arguments.front().text);
        at = past_end(commands, run(commands, at + 1, body, execute, place, block_depth + 1));
      } else if (command.name == "function" || command.name == "macro") {
        ++m_definitions;
        at = past_end(commands, run(commands, at + 1, variables, false, place, block_depth + 1));
        --m_definitions;
      } else {
        if (execute) run_command(command, variables, place);
        // A helper that adds the project's libraries states their properties in its body, which
        // is not run: a literal separable-compilation value there is the project's.
        else if (m_definitions > 0 && (command.name == "set_target_properties" || command.name == "set_property"))
          read_target_properties(literal_words(command), {}, fmt::format("{}:{}", place.file, command.line));
        ++at;
      }
    }
    return at;
  }

  static std::size_t past_end(const Commands& commands, std::size_t at) { return at < commands.size() ? at + 1 : at; }

  std::size_t run_if(const Commands& commands, std::size_t at, Variables& variables, bool execute, const Place& place,
                     std::size_t block_depth) {
    // Walking past a block that does not run copies nothing and works nothing out.
    const Variables before = execute ? copy(variables) : Variables{};
    std::optional<Variables> after;
    bool decided = false;  // a branch known to run came
    Truth truth = execute ? evaluate(commands[at], before) : Truth::no;
    while (true) {
      const bool runs = execute && !decided && truth != Truth::no;
      Variables branch = runs ? copy(before) : Variables{};
      const std::size_t end = run(commands, at + 1, branch, runs, place, block_depth);
      if (runs && !after) after = std::move(branch);
      if (truth == Truth::yes) decided = true;
      if (end >= commands.size()) {
        if (after) variables = std::move(*after);
        return end;
      }
      const std::string& name = commands[end].name;
      if (name == "elseif") {
        truth = execute ? evaluate(commands[end], before) : Truth::no;
      } else if (name == "else") {
        truth = Truth::yes;
      } else {
        if (after) variables = std::move(*after);
        return name == "endif" ? end + 1 : end;
      }
      at = end;
    }
  }

  Truth evaluate(const CMakeCommand& command, const Variables& variables) {
    std::vector<std::string> words;
    for (const auto& argument : command.arguments)
      for (auto& word : expand_argument(argument, variables)) words.push_back(std::move(word));
    return evaluate_condition(words, variables, m_arch);
  }

  // `text` with ${VAR}, $ENV{VAR} and $CACHE{VAR} expanded, from `at` to the '}' that closes
  // the reference being expanded (or the end); `at` is left past it.
  std::string expand(std::string_view text, std::size_t& at, const Variables& variables, bool in_reference,
                     std::size_t depth) {
    std::string out;
    while (at < text.size()) {
      if (in_reference && text[at] == '}') {
        ++at;
        return out;
      }
      std::size_t brace = std::string_view::npos;
      std::string_view kind;
      if (text[at] == '$') {
        for (std::string_view prefix : {"${", "$ENV{", "$CACHE{"})
          if (text.substr(at).starts_with(prefix)) {
            brace = at + prefix.size();
            kind = prefix;
            break;
          }
      }
      if (brace == std::string_view::npos || depth > 8) {
        out += text[at++];
        continue;
      }
      at = brace;
      const std::string name = expand(text, at, variables, true, depth + 1);
      out += kind == "$ENV{" ? unknown_reference("ENV{" + name + "}") : variable_value(name, variables);
      m_work += out.size();
      if (out.size() > m_limits.max_value_bytes) return unknown_reference("a value too long");
    }
    return out;
  }

  // A copy of a scope, its size counted against CMakeLimits::max_work: a file of many if()s over
  // many long variables would otherwise copy without bound.
  Variables copy(const Variables& variables) {
    for (const auto& [name, value] : variables) m_work += name.size() + value.size();
    return variables;
  }

  std::string variable_value(const std::string& name, const Variables& variables) const {
    if (auto value = variables.find(name); value != variables.end()) return value->second;
    if (auto known = platform_variable(name)) return *known == Truth::yes ? "1" : "";
    return m_variables.computed(name);
  }

  // The words an argument gives: an unquoted one splits at ';' once expanded.
  std::vector<std::string> expand_argument(const CMakeArgument& argument, const Variables& variables) {
    if (argument.kind == CMakeArgument::Kind::bracket) return {argument.text};
    std::size_t at = 0;
    std::string value = expand(argument.text, at, variables, false, 0);
    if (argument.kind == CMakeArgument::Kind::quoted) return {std::move(value)};
    return list_items(value);
  }

  std::vector<std::string> expand_arguments(const CMakeCommand& command, const Variables& variables) {
    std::vector<std::string> words;
    for (const auto& argument : command.arguments)
      for (auto& word : expand_argument(argument, variables)) words.push_back(std::move(word));
    return words;
  }

  void add_define(std::string text, const std::string& where) {
    if (text.empty() || text.find("$<") != std::string::npos) return;
    if (m_result.defines.size() == m_limits.max_defines) {
      if (!m_too_many_defines)
        m_result.notes.push_back(
            fmt::format("{}: more than {} defines; the rest not read", where, m_limits.max_defines));
      m_too_many_defines = true;
      return;
    }
    m_result.defines.push_back({std::move(text), where});
  }

  // -DNAME words (and "-D NAME") of a flags list, and its code flags (code_flag()).
  void add_define_words(const std::vector<std::string>& words, const std::string& where) {
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i] == "-D" && i + 1 < words.size())
        add_define(words[++i], where);
      else if (words[i].starts_with("-D"))
        add_define(words[i].substr(2), where);
      else if (words[i] == "-dc" || words[i] == "--device-c")
        add_flag("-rdc=true", where);
      else if (code_flag(words[i]))
        add_flag(words[i], where);
    }
  }

  void add_flag(const std::string& flag, const std::string& where) {
    if (m_result.flags.size() >= m_limits.max_defines) return;
    if (std::ranges::find(m_result.flags, flag, &FoundDefine::text) == m_result.flags.end())
      m_result.flags.push_back({flag, where});
  }

  // CUDA_SEPARABLE_COMPILATION (a target's, or CMAKE_'s default) compiles with -rdc=true, so a
  // kernel may call another file's device function. One context serves the project: one such
  // target makes every unit relocatable, which compiles the rest too, alike at both revisions.
  void add_separable(const std::string& value, const Variables& variables, const std::string& where) {
    if (evaluate_condition({value}, variables, m_arch) == Truth::yes) add_flag("-rdc=true", where);
  }

  static std::vector<std::string> literal_words(const CMakeCommand& command) {
    std::vector<std::string> words;
    for (const auto& argument : command.arguments) words.push_back(argument.text);
    return words;
  }

  // set_target_properties(T... PROPERTIES NAME VALUE ...), set_property(TARGET T... PROPERTY NAME VALUE).
  void read_target_properties(const std::vector<std::string>& words, const Variables& variables,
                              const std::string& where) {
    for (std::size_t i = 0; i + 1 < words.size(); ++i)
      if (words[i] == "CUDA_SEPARABLE_COMPILATION") add_separable(words[i + 1], variables, where);
  }

  static bool is_standard_number(const std::string& value) {
    return value == "11" || value == "14" || value == "17" || value == "20" || value == "23";
  }

  void run_command(const CMakeCommand& command, Variables& variables, const Place& place) {
    const std::string where = fmt::format("{}:{}", place.file, command.line);
    const std::string& name = command.name;
    std::vector<std::string> words = expand_arguments(command, variables);
    if (name == "set") {
      m_variables.set(words, variables);
    } else if (name == "option") {
      if (!words.empty() && !variables.contains(words[0]))
        m_variables.set_variable(variables, words[0], words.size() > 2 ? words[2] : "OFF");
    } else if (name == "unset") {
      if (!words.empty()) variables.erase(words[0]);
    } else if (name == "list") {
      m_variables.list(words, variables);
    } else if (name == "string") {
      m_variables.string(words, variables);
    } else if (name == "add_definitions" || name == "add_compile_options") {
      add_define_words(words, where);
    } else if (name == "target_compile_options") {
      if (!words.empty()) add_define_words(std::vector(words.begin() + 1, words.end()), where);
    } else if (name == "add_compile_definitions" || name == "target_compile_definitions") {
      static constexpr std::array<std::string_view, 3> scopes{"PUBLIC", "PRIVATE", "INTERFACE"};
      for (std::size_t i = name == "target_compile_definitions" ? 1 : 0; i < words.size(); ++i) {
        if (std::ranges::find(scopes, words[i]) != scopes.end()) continue;
        add_define(words[i].starts_with("-D") ? words[i].substr(2) : words[i], where);
      }
    } else if (name == "set_target_properties" || name == "set_property") {
      read_target_properties(words, variables, where);
    } else if (name == "add_subdirectory") {
      add_subdirectory(command, variables, place);
    } else if (auto output = computed_variable(name, words)) {
      variables[*output] = m_variables.computed(*output);
    }
  }

  void add_subdirectory(const CMakeCommand& command, const Variables& variables, const Place& place) {
    if (command.arguments.empty()) return;
    std::string folder = command.arguments.front().text;
    for (std::string_view prefix : {"${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/"})
      if (folder.starts_with(prefix)) folder.erase(0, prefix.size());
    const std::string where = fmt::format("{}:{}", place.file, command.line);
    std::size_t at = 0;
    folder = expand(folder, at, variables, false, 0);
    const auto path = (std::filesystem::path(place.folder) / folder).lexically_normal();
    const std::string relative = path.generic_string();
    const bool inside = !folder.empty() && !path.is_absolute() && !relative.starts_with("..") &&
                        relative.find_first_of("\x01\x02\x03\x04") == std::string::npos;
    if (!inside) {
      m_result.notes.push_back(fmt::format("{}: add_subdirectory({}) not followed: not a folder of the repository",
                                           where, command.arguments.front().text));
      return;
    }
    if (place.depth + 1 > m_limits.max_depth) {
      m_result.notes.push_back(fmt::format("{}: add_subdirectory({}) not followed: nested too deep", where, folder));
      return;
    }
    read_directory(relative == "."           ? std::string()
                   : relative.ends_with('/') ? relative.substr(0, relative.size() - 1)
                                             : relative,
                   copy(variables), place.depth + 1);
  }

  const BuildFileReader& m_read;
  std::optional<int> m_arch;
  VariableCommands m_variables;
  CMakeLimits m_limits;
  CMakeDefines m_result;
  std::size_t m_steps = 0;
  std::size_t m_definitions = 0;  // function() and macro() bodies being walked
  bool m_stopped = false;
  bool m_too_many_defines = false;
  std::size_t m_work = 0;  // bytes expanded and copied, over all files
};

}  // namespace

CMakeDefines read_cmake_defines(const BuildFileReader& read, std::optional<int> arch, const CMakeLimits& limits) {
  Reader reader(read, arch, limits);
  reader.read_directory("", {}, 0);
  return std::move(reader).result();
}

}  // namespace kforecast::context
