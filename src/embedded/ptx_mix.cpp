// SPDX-License-Identifier: Apache-2.0
#include "embedded/ptx_mix.hpp"

#include <cctype>
#include <charconv>
#include <functional>
#include <set>
#include <string>

namespace kforecast::embedded {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }
bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '.';
}

// Where the body of `.entry NAME(` starts (its '{'), or npos.
std::size_t entry_body(std::string_view ptx, std::string_view entry) {
  if (entry.empty()) return std::string_view::npos;
  for (std::size_t at = ptx.find(".entry"); at != std::string_view::npos; at = ptx.find(".entry", at + 1)) {
    std::size_t name = at + 6;
    while (name < ptx.size() && (ptx[name] == ' ' || ptx[name] == '\t')) ++name;
    if (ptx.substr(name, entry.size()) != entry) continue;
    const std::size_t after = name + entry.size();
    if (after < ptx.size() && is_name_char(ptx[after])) continue;  // a longer name
    const std::size_t brace = ptx.find('{', after);
    return brace;
  }
  return std::string_view::npos;
}

void count(std::string_view opcode, PtxMix& mix) {
  mix.instructions += 1;
  const bool load = starts_with(opcode, "ld.") || starts_with(opcode, "ldu.");
  const bool store = starts_with(opcode, "st.");
  if (load || store) {
    const bool global = contains(opcode, ".global");
    const bool shared = contains(opcode, ".shared");
    const bool local = contains(opcode, ".local");
    const int whole_bytes = access_bits(opcode) / 8;
    if (global && load) {
      mix.global_loads += 1;
      if (access_bits(opcode) >= 128) mix.global_loads_128 += 1;
      mix.global_load_bytes += whole_bytes;
    }
    if (global && store) {
      mix.global_stores += 1;
      mix.global_store_bytes += whole_bytes;
    }
    if (shared && load) mix.shared_loads += 1;
    if (shared && store) mix.shared_stores += 1;
    if (local) mix.local_accesses += 1;
    return;
  }
  if (starts_with(opcode, "fma.") || starts_with(opcode, "mad.")) mix.fma += 1;
  if (starts_with(opcode, "mma.") || starts_with(opcode, "wmma.") || starts_with(opcode, "wgmma.")) mix.tensor += 1;
  if (starts_with(opcode, "atom.") || starts_with(opcode, "red.")) {
    mix.atomics += 1;
    if (contains(opcode, ".shared")) mix.shared_atomics += 1;
  }
  if (opcode == "bra" || starts_with(opcode, "bra.") || starts_with(opcode, "brx.")) mix.branches += 1;
  if (starts_with(opcode, "shfl.")) mix.shuffles += 1;
  if (starts_with(opcode, "bar.") || starts_with(opcode, "barrier.")) mix.barriers += 1;
  const std::string_view root = opcode.substr(0, opcode.find('.'));
  if (root == "ex2" || root == "lg2" || root == "sin" || root == "cos" || root == "rsqrt" || root == "rcp" ||
      root == "sqrt" || root == "tanh")
    mix.special += 1;
  const bool arithmetic = root == "add" || root == "sub" || root == "mul" || root == "fma" || root == "div" ||
                          root == "mad" || root == "rcp" || root == "sqrt" || root == "rsqrt" || root == "min" ||
                          root == "max" || root == "neg" || root == "abs";
  if (arithmetic && contains(opcode, ".f64")) mix.fp64 += 1;
  if (arithmetic && contains(opcode, ".f32")) mix.fp32 += 1;
}

// The statement's branch target ("bra.uni $L__BB0_2"), or empty.
std::string_view branch_target(std::string_view statement) {
  const auto end = statement.find_last_not_of(" \t\r\n");
  if (end == std::string_view::npos) return {};
  statement = statement.substr(0, end + 1);
  const auto start = statement.find_last_of(" \t\r\n,");
  return start == std::string_view::npos ? std::string_view() : statement.substr(start + 1);
}

// One statement without its ';': labels and a predicate are skipped, directives are not
// instructions.
// `labels` collects the labels seen so far: a branch to one of them goes backwards (a loop).
void count_statement(std::string_view statement, PtxMix& mix, std::set<std::string, std::less<>>& labels) {
  while (true) {
    const auto first = statement.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return;
    statement.remove_prefix(first);
    const std::string_view word = statement.substr(0, statement.find_first_of(" \t\r\n"));
    if (word.back() == ':' || word.front() == '@') {  // "$L__BB0_2:", "@%p1", "@!%p1"
      if (word.back() == ':') labels.emplace(word.substr(0, word.size() - 1));
      statement.remove_prefix(word.size());
      continue;
    }
    break;
  }
  if (statement.front() == '.') return;  // a directive: .reg, .shared, .loc, .pragma
  const std::string_view opcode = statement.substr(0, statement.find_first_of(" \t\r\n"));
  if (std::isalpha(static_cast<unsigned char>(opcode.front())) == 0) return;
  count(opcode, mix);
  if ((opcode == "bra" || starts_with(opcode, "bra.")) && labels.contains(branch_target(statement)))
    mix.backward_branches += 1;
}

}  // namespace

int access_bits(std::string_view opcode) {
  int lanes = 1;
  if (contains(opcode, ".v2")) lanes = 2;
  if (contains(opcode, ".v4")) lanes = 4;
  if (contains(opcode, ".v8")) lanes = 8;
  // The last component that is a type: .f32, .b64, .u8, .s16, .b128 ...
  int bits = 0;
  std::size_t at = 0;
  while ((at = opcode.find('.', at)) != std::string_view::npos) {
    ++at;
    if (at >= opcode.size()) break;
    const char kind = opcode[at];
    if (kind != 'f' && kind != 'b' && kind != 'u' && kind != 's') continue;
    int value = 0;
    const char* first = opcode.data() + at + 1;
    const char* last = opcode.data() + opcode.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error != std::errc() || end == first || (end != last && *end != '.')) continue;
    if (value == 8 || value == 16 || value == 32 || value == 64 || value == 128) bits = value;
  }
  return bits * lanes;
}

PtxMix ptx_instruction_mix(std::string_view ptx, std::string_view entry) {
  PtxMix mix;
  const std::size_t open = entry_body(ptx, entry);
  if (open == std::string_view::npos) return mix;
  mix.found = true;
  // Statements end with ';' and may span lines; braces open and close scopes; comments are
  // skipped wherever they stand.
  // A brace inside a statement groups vector operands ("ld.global.v4.f32 {%f1, %f2, %f3, %f4}, ...").
  int depth = 0;
  int operand_depth = 0;
  std::set<std::string, std::less<>> labels;
  std::string statement;
  for (std::size_t i = open; i < ptx.size(); ++i) {
    const char c = ptx[i];
    if (c == '/' && i + 1 < ptx.size() && ptx[i + 1] == '/') {
      const std::size_t eol = ptx.find('\n', i);
      i = eol == std::string_view::npos ? ptx.size() : eol;
      statement += ' ';
      continue;
    }
    if (c == '/' && i + 1 < ptx.size() && ptx[i + 1] == '*') {
      const std::size_t close = ptx.find("*/", i + 2);
      i = close == std::string_view::npos ? ptx.size() : close + 1;
      statement += ' ';
      continue;
    }
    const bool in_statement = statement.find_first_not_of(" \t\r\n") != std::string::npos;
    if ((c == '{' && in_statement) || (c == '}' && operand_depth > 0)) {
      operand_depth += c == '{' ? 1 : -1;
      statement += c;
      continue;
    }
    if (c != '{' && c != '}' && c != ';') {
      statement += c;
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}' && --depth <= 0) return mix;
    if (c == ';') count_statement(statement, mix, labels);
    statement.clear();
  }
  return mix;
}

}  // namespace kforecast::embedded
