// SPDX-License-Identifier: Apache-2.0
#include "policy/ptx_code.hpp"

#include <cctype>
#include <set>

namespace kforecast::policy {
namespace {

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '%' || c == '.';
}

// Debug directives carry source positions and paths: they change when unrelated lines move.
bool is_debug_line(std::string_view line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return false;
  line.remove_prefix(first);
  return line.starts_with(".loc") || line.starts_with(".file") || line.starts_with(".section .debug");
}

std::vector<std::string> tokenize(std::string_view ptx) {
  std::vector<std::string> tokens;
  std::size_t line_start = 0;
  while (line_start < ptx.size()) {
    std::size_t line_end = ptx.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = ptx.size();
    std::string_view line = ptx.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (is_debug_line(line)) continue;
    // Module directives end at the line, not at ';': give them one so statements split there.
    const auto first = line.find_first_not_of(" \t");
    const bool module_directive = first != std::string_view::npos && (line.substr(first).starts_with(".version") ||
                                                                      line.substr(first).starts_with(".target") ||
                                                                      line.substr(first).starts_with(".address_size"));
    for (std::size_t i = 0; i < line.size();) {
      const char c = line[i];
      if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
      if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        ++i;
      } else if (c == '"') {
        const std::size_t close = line.find('"', i + 1);
        const std::size_t end = close == std::string_view::npos ? line.size() : close + 1;
        tokens.emplace_back(line.substr(i, end - i));
        i = end;
      } else if (identifier_char(c)) {
        std::size_t end = i;
        while (end < line.size() && identifier_char(line[end])) ++end;
        tokens.emplace_back(line.substr(i, end - i));
        i = end;
      } else {
        tokens.emplace_back(1, c);
        ++i;
      }
    }
    if (module_directive) tokens.emplace_back(";");
  }
  return tokens;
}

bool is_name(const std::string& token) {
  return !token.empty() && token[0] != '.' && token[0] != '%' &&
         (std::isalpha(static_cast<unsigned char>(token[0])) != 0 || token[0] == '_' || token[0] == '$');
}

// The name a top-level statement defines: after .entry/.func (skipping a return-value list), or
// for a variable the first plain identifier.
std::string defined_name(const std::vector<std::string>& statement, bool& is_function, bool& is_entry) {
  for (std::size_t i = 0; i < statement.size(); ++i) {
    if (statement[i] == ".entry" || statement[i] == ".func") {
      is_function = true;
      is_entry = statement[i] == ".entry";
      std::size_t k = i + 1;
      if (k < statement.size() && statement[k] == "(") {
        for (int depth = 0; k < statement.size(); ++k) {
          if (statement[k] == "(") ++depth;
          if (statement[k] == ")" && --depth == 0) break;
        }
        ++k;
      }
      return k < statement.size() ? statement[k] : std::string();
    }
  }
  for (const auto& token : statement)
    if (is_name(token)) return token;
  return {};
}

std::string join(const std::vector<std::string>& tokens) {
  std::string text;
  for (const auto& token : tokens) text += (text.empty() ? "" : " ") + token;
  return text;
}

// Local names the compiler picks by position in the module: renamed in order of first use.
bool is_positional_local(std::string_view token) {
  return token.starts_with("$L__") || token.starts_with("__local_depot") || token.starts_with("_ZZ") ||
         token.starts_with("__cuda_local_var_");
}

class Canonicaliser {
 public:
  explicit Canonicaliser(const PtxModule& module) : m_module(module) {}

  std::string kernel(std::string_view name) {
    m_queue.push_back(std::string(name));
    m_seen.insert(std::string(name));
    std::string text = m_module.header + "\n";
    for (std::size_t next = 0; next < m_queue.size(); ++next) {
      const std::string current = m_queue[next];  // copy: m_queue grows while we render
      text += render(current, next == 0 ? "@kernel" : "@function" + std::to_string(next)) + "\n";
    }
    for (const auto& variable : m_variables) text += "var " + m_module.variables.at(variable) + "\n";
    return text;
  }

 private:
  std::string render(const std::string& name, const std::string& alias) {
    const PtxFunction& function = m_module.functions.find(name)->second;
    std::map<std::string, std::string, std::less<>> locals;
    const std::string param_prefix = name + "_param_";
    std::string text;
    for (const auto& token : function.tokens) {
      std::string out = token;
      if (token == name) {
        out = alias;
      } else if (token.starts_with(param_prefix)) {
        out = alias + "_param_" + token.substr(param_prefix.size());
      } else if (is_positional_local(token)) {
        auto [it, added] = locals.try_emplace(token, "@local" + std::to_string(locals.size()));
        out = it->second;
      } else if (m_module.functions.contains(token)) {
        if (m_seen.insert(token).second) m_queue.push_back(token);
        out = callee_alias(token);
      } else if (m_module.variables.contains(token)) {
        m_variables.insert(token);
      }
      text += (text.empty() ? "" : " ") + out;
    }
    return text;
  }

  std::string callee_alias(const std::string& name) const {
    for (std::size_t i = 0; i < m_queue.size(); ++i)
      if (m_queue[i] == name) return i == 0 ? "@kernel" : "@function" + std::to_string(i);
    return name;
  }

  const PtxModule& m_module;
  std::vector<std::string> m_queue;
  std::set<std::string> m_seen;
  std::set<std::string> m_variables;
};

}  // namespace

PtxModule parse_ptx(std::string_view ptx) {
  PtxModule module;
  const std::vector<std::string> tokens = tokenize(ptx);
  std::vector<std::string> statement;
  int depth = 0;
  bool initialiser = false;  // after '=' at depth 0, braces hold data, not a body
  for (const auto& token : tokens) {
    statement.push_back(token);
    if (token == "=" && depth == 0) initialiser = true;
    if (token == "{") ++depth;
    bool closes_brace = false;
    if (token == "}" && depth > 0) closes_brace = --depth == 0;
    const bool closes_body = closes_brace && !initialiser;
    const bool ends_statement = (token == ";" && depth == 0) || closes_body;
    if (!ends_statement) continue;
    bool is_function = false, is_entry = false;
    const std::string name = defined_name(statement, is_function, is_entry);
    if (statement.front() == ".version" || statement.front() == ".target" || statement.front() == ".address_size") {
      module.header += join(statement) + "\n";
    } else if (is_function && closes_body && !name.empty()) {
      module.functions[name] = PtxFunction{is_entry, statement};
    } else if (!is_function && !name.empty()) {
      module.variables[name] = join(statement);
    }
    statement.clear();
    initialiser = false;
  }
  return module;
}

std::optional<std::string> canonical_kernel_code(const PtxModule& module, std::string_view entry_name) {
  auto it = module.functions.find(entry_name);
  if (it == module.functions.end() || !it->second.entry) return std::nullopt;
  return Canonicaliser(module).kernel(entry_name);
}

}  // namespace kforecast::policy
