// SPDX-License-Identifier: Apache-2.0
#include "embedded/source_features.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "kernels/call_graph.hpp"
#include "kernels/lexer.hpp"
#include "kernels/scanner.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::embedded {
namespace {

using kernels::Token;
using kernels::TokenKind;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool is_vector_type(std::string_view word) {
  static constexpr std::array<std::string_view, 12> types{"float2", "float4",  "int2",      "int4",
                                                          "uint2",  "uint4",   "double2",   "double4",
                                                          "half2",  "__half2", "longlong2", "char4"};
  return std::ranges::find(types, word) != types.end() || word == "uchar4" || word == "__nv_bfloat162";
}

bool is_math_call(std::string_view word) {
  static constexpr std::array<std::string_view, 24> names{
      "expf",  "exp",  "exp2f",  "logf",  "log",  "log2f", "tanhf", "tanh", "sinf",   "cosf",   "sin",    "cos",
      "sqrtf", "sqrt", "rsqrtf", "rsqrt", "powf", "pow",   "erff",  "erf",  "__expf", "__logf", "__sinf", "__cosf"};
  return std::ranges::find(names, word) != names.end() || word == "__fdividef" || word == "__frsqrt_rn";
}

bool is_fundamental_type(std::string_view word) {
  static constexpr std::array<std::string_view, 12> types{"float", "double", "int",  "unsigned", "char",   "short",
                                                          "long",  "bool",   "half", "__half",   "size_t", "uint32_t"};
  return std::ranges::find(types, word) != types.end() || is_vector_type(word);
}

// A floating literal without an f suffix is a double: 0.5 * x promotes x to FP64.
bool is_double_literal(std::string_view number) {
  if (starts_with(number, "0x") || starts_with(number, "0X")) return false;
  const bool floating = number.find_first_of(".eE") != std::string_view::npos;
  if (!floating) return false;
  const char last = number.back();
  return last != 'f' && last != 'F';
}

// Whether the __shared__ declaration at t[at] pads a dimension, the usual cure for bank conflicts:
// a constant added inside its brackets ("tile[TILE][TILE + 1]") or a padding macro or name
// ("temp[PAD(N)]", "[N + pad]"). Read up to the declaration's ';'.
bool padded_shared_declaration(const std::vector<Token>& t, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at + 1; i < t.size() && i < at + 64 && !t[i].is_punct(";"); ++i) {
    if (t[i].is_punct("[")) ++depth;
    if (t[i].is_punct("]")) --depth;
    if (depth <= 0) continue;
    if (t[i].is_punct("+") && i + 1 < t.size() && t[i + 1].kind == TokenKind::number) return true;
    if (t[i].is_identifier() &&
        (t[i].text().find("pad") != std::string_view::npos || t[i].text().find("PAD") != std::string_view::npos))
      return true;
  }
  return false;
}

// How a thread index takes part in an expression.
enum class ThreadUse { none, linear, strided };

// Tracks which names hold thread indices, and whether linearly (threadIdx.x + base: neighbours
// touch neighbouring elements) or multiplied (neighbours are a stride apart).
class ThreadIndexTracker {
 public:
  // The tokens [begin, end) form one expression; how does a thread index appear in it?
  ThreadUse classify(const std::vector<Token>& t, std::size_t begin, std::size_t end) const {
    ThreadUse use = ThreadUse::none;
    // Per open parenthesis: whether its group holds a thread index.
    std::vector<std::pair<std::size_t, bool>> groups;
    for (std::size_t i = begin; i < end; ++i) {
      if (t[i].is_punct("(")) {
        groups.emplace_back(i, false);
        continue;
      }
      if (t[i].is_punct(")")) {
        if (groups.empty()) continue;
        const auto [open, has_thread] = groups.back();
        groups.pop_back();
        if (has_thread) {
          if (!groups.empty()) groups.back().second = true;
          if (multiplied(t, open, i, begin, end)) use = ThreadUse::strided;
        }
        continue;
      }
      std::size_t last = i;
      const ThreadUse term = term_at(t, i, end, last);
      if (term == ThreadUse::none) continue;
      if (!groups.empty()) groups.back().second = true;
      if (term == ThreadUse::strided || multiplied(t, i, last, begin, end))
        use = ThreadUse::strided;
      else if (use == ThreadUse::none)
        use = ThreadUse::linear;
      i = last;
    }
    return use;
  }

  void assign(std::string_view name, ThreadUse use) {
    if (use == ThreadUse::none) {
      m_linear.erase(std::string(name));
      m_strided.erase(std::string(name));
    } else {
      (use == ThreadUse::linear ? m_linear : m_strided).insert(std::string(name));
      (use == ThreadUse::linear ? m_strided : m_linear).erase(std::string(name));
    }
  }

 private:
  // A thread term starting at i: threadIdx.x or a tracked name; `last` is its final token.
  ThreadUse term_at(const std::vector<Token>& t, std::size_t i, std::size_t end, std::size_t& last) const {
    if (!t[i].is_identifier()) return ThreadUse::none;
    if (t[i].text() == "threadIdx") {
      // Only x: the dimension along which a warp's threads are consecutive.
      if (i + 2 < end && t[i + 1].is_punct(".") && t[i + 2].is_identifier("x")) {
        last = i + 2;
        return ThreadUse::linear;
      }
      return ThreadUse::none;
    }
    if (i > 0 && (t[i - 1].is_punct(".") || t[i - 1].is_punct("->"))) return ThreadUse::none;  // a member
    const std::string name(t[i].text());
    if (m_strided.contains(name)) return ThreadUse::strided;
    if (m_linear.contains(name)) return ThreadUse::linear;
    return ThreadUse::none;
  }

  // Whether the tokens [first, last] stand next to a '*' or '<<' that multiplies them. A cast
  // like (size_t)r is looked through.
  static bool multiplied(const std::vector<Token>& t, std::size_t first, std::size_t last, std::size_t begin,
                         std::size_t end) {
    auto multiplies = [](const Token& tok) { return tok.is_punct("*") || tok.is_punct("<<"); };
    if (last + 1 < end && multiplies(t[last + 1])) return true;
    std::size_t before = first;
    if (before > begin && t[before - 1].is_punct(")")) {  // perhaps a cast: ( size_t ) or ( long long )
      std::size_t j = before - 1;
      while (j > begin && t[j - 1].is_identifier()) --j;
      if (j > begin && j < before - 1 && t[j - 1].is_punct("(")) before = j - 1;
    }
    return before > begin && multiplies(t[before - 1]);
  }

  std::set<std::string> m_linear;
  std::set<std::string> m_strided;
};

// The end of the expression that starts at i: the ';' or ',' or ')' at depth 0.
std::size_t expression_end(const std::vector<Token>& t, std::size_t i) {
  int depth = 0;
  for (; i < t.size(); ++i) {
    if (t[i].is_punct("(") || t[i].is_punct("[") || t[i].is_punct("{")) ++depth;
    if (t[i].is_punct(")") || t[i].is_punct("]") || t[i].is_punct("}")) {
      if (depth == 0) return i;
      --depth;
    }
    if (depth == 0 && (t[i].is_punct(";") || t[i].is_punct(","))) return i;
  }
  return t.size();
}

void count_tokens(const std::vector<Token>& t, SourceFeatures& f) {
  ThreadIndexTracker threads;
  // Loop nesting. A loop's body is a braced block or one statement, which may itself be a loop
  // ("for (i) for (j) acc += ..."): `chain` counts loops whose header has closed and whose body
  // has not started; a '{' then opens the body of all of them (its weight), a ';' ends them.
  struct LoopBlock {
    int brace_depth = 0;
    int weight = 0;
  };
  std::vector<LoopBlock> loop_blocks;
  int open_weight = 0;  // sum of the weights in loop_blocks
  int brace_depth = 0;
  int chain = 0;
  std::size_t header_end = 0;  // the ')' closing the latest loop header
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Token& tok = t[i];
    f.source_tokens += 1;
    if (tok.kind == TokenKind::directive_begin) {
      if (i + 2 < t.size() && t[i + 1].is_identifier("pragma") && t[i + 2].is_identifier("unroll"))
        f.unroll_pragmas += 1;
      continue;
    }
    if (tok.kind == TokenKind::number) {
      if (is_double_literal(tok.text())) f.fp64_code += 1;
      continue;
    }
    if (tok.is_punct("{")) {
      ++brace_depth;
      if (chain > 0 && i > header_end) {
        loop_blocks.push_back({brace_depth, chain});
        open_weight += chain;
        chain = 0;
      }
      continue;
    }
    if (tok.is_punct("}")) {
      if (!loop_blocks.empty() && loop_blocks.back().brace_depth == brace_depth) {
        open_weight -= loop_blocks.back().weight;
        loop_blocks.pop_back();
      }
      --brace_depth;
      continue;
    }
    if (tok.is_punct(";") && chain > 0 && i > header_end) chain = 0;  // one-statement bodies end
    if (tok.is_punct("?")) f.branches += 1;
    if (tok.is_punct("[")) {
      const std::size_t close = kernels::matching_close(t, i);
      const ThreadUse use = threads.classify(t, i + 1, std::min(close, t.size()));
      if (use == ThreadUse::linear) f.thread_linear_accesses += 1;
      if (use == ThreadUse::strided) {
        f.thread_strided_accesses += 1;
        // Written to when an assignment follows the subscript: out[c * rows + r] = ...
        if (close + 1 < t.size() && t[close + 1].kind == TokenKind::punctuation && t[close + 1].text().ends_with("=") &&
            t[close + 1].text() != "==" && t[close + 1].text() != "!=" && t[close + 1].text() != "<=" &&
            t[close + 1].text() != ">=")
          f.thread_strided_stores += 1;
      }
      continue;
    }
    if (!tok.is_identifier()) continue;
    const std::string_view word = tok.text();
    // The `while` of a do-while follows the body's '}' and is not a second loop.
    const bool do_while_tail = word == "while" && i > 0 && t[i - 1].is_punct("}");
    if (word == "for" || (word == "while" && !do_while_tail) || word == "do") {
      f.loops += 1;
      f.loop_depth = std::max(f.loop_depth, static_cast<double>(open_weight + chain + 1));
      if (word != "do" && i + 1 < t.size() && t[i + 1].is_punct("(")) {
        header_end = kernels::matching_close(t, i + 1);
        ++chain;
      } else if (word == "do") {
        header_end = i;
        ++chain;
      }
      continue;
    }
    if (word == "if" || word == "switch") f.branches += 1;
    if (word == "__shared__") {
      f.shared_arrays += 1;
      if (padded_shared_declaration(t, i)) f.padded_shared_arrays += 1;
    }
    if (starts_with(word, "__syncthreads") || word == "__syncwarp") f.barriers += 1;
    if (starts_with(word, "atomic") && i + 1 < t.size() && t[i + 1].is_punct("(")) f.atomics += 1;
    if (starts_with(word, "__shfl")) f.warp_shuffles += 1;
    if (is_vector_type(word)) f.vector_accesses += 1;
    if (word == "wmma" || word == "mma_sync" || word == "load_matrix_sync" || starts_with(word, "__hmma") ||
        starts_with(word, "wgmma"))
      f.tensor_core_code += 1;
    if (word == "double") f.fp64_code += 1;
    if (is_math_call(word) && i + 1 < t.size() && t[i + 1].is_punct("(")) f.math_calls += 1;
    // A declaration "T name [ N ]" outside __shared__: a per-thread array.
    if (is_fundamental_type(word) && i + 2 < t.size() && t[i + 1].is_identifier() && t[i + 2].is_punct("[") &&
        !(i > 0 && t[i - 1].is_identifier("__shared__")) && !(i > 1 && t[i - 2].is_identifier("__shared__")))
      f.local_arrays += 1;
    // An assignment or initialisation "name = expr" or "name += expr" tracks thread indices.
    if (i + 1 < t.size() && (t[i + 1].is_punct("=") || t[i + 1].is_punct("+=")) && !is_fundamental_type(word)) {
      const std::size_t end = expression_end(t, i + 2);
      const ThreadUse use = threads.classify(t, i + 2, end);
      if (t[i + 1].is_punct("=") || use != ThreadUse::none) threads.assign(word, use);
    }
  }
  // Inline PTX: tensor-core instructions written as asm strings.
  for (const Token& tok : t)
    if (tok.kind == TokenKind::string_literal &&
        (tok.text().find("mma.sync") != std::string_view::npos || tok.text().find("wgmma") != std::string_view::npos))
      f.tensor_core_code += 1;
}

void add(SourceFeatures& total, const SourceFeatures& part) {
  total.loops += part.loops;
  total.loop_depth = std::max(total.loop_depth, part.loop_depth);
  total.unroll_pragmas += part.unroll_pragmas;
  total.shared_arrays += part.shared_arrays;
  total.padded_shared_arrays += part.padded_shared_arrays;
  total.barriers += part.barriers;
  total.atomics += part.atomics;
  total.warp_shuffles += part.warp_shuffles;
  total.vector_accesses += part.vector_accesses;
  total.tensor_core_code += part.tensor_core_code;
  total.thread_linear_accesses += part.thread_linear_accesses;
  total.thread_strided_accesses += part.thread_strided_accesses;
  total.thread_strided_stores += part.thread_strided_stores;
  total.local_arrays += part.local_arrays;
  total.fp64_code += part.fp64_code;
  total.math_calls += part.math_calls;
  total.branches += part.branches;
  total.source_tokens += part.source_tokens;
}

std::string_view without_template_arguments(std::string_view name) {
  const auto angle = name.find('<');
  name = name.substr(0, angle);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  return name;
}

}  // namespace

SourceFeatures count_source_features(std::string_view code) {
  SourceFeatures f;
  f.kernel_found = true;
  const std::vector<Token> tokens = kernels::lex(code);
  count_tokens(tokens, f);
  return f;
}

SourceFeatures extract_source_features(std::string_view source, std::string_view kernel) {
  return ScannedKernelSource(source).features(kernel);
}

ScannedKernelSource::ScannedKernelSource(std::string_view source)
    : m_source(source),
      m_scanned(kernels::scan_cuda_source(source)),
      m_graph(std::make_unique<kernels::CallGraph>(m_scanned)) {}

ScannedKernelSource::~ScannedKernelSource() = default;

SourceFeatures ScannedKernelSource::features(std::string_view kernel) const {
  const kernels::CallGraph& graph = *m_graph;
  const std::string_view name = without_template_arguments(kernel);
  for (const kernels::FunctionRef ref : graph.find(name)) {
    const kernels::Function& function = graph.function(ref);
    if (function.kind != kernels::FunctionKind::global || !function.has_body) continue;
    auto body_of = [&](const kernels::Function& g) {
      // The signature counts too: __launch_bounds__ and parameters are read, loops are not.
      return m_source.substr(g.whole.begin, g.whole.end - g.whole.begin);
    };
    SourceFeatures total = count_source_features(body_of(function));
    for (const kernels::FunctionRef callee : graph.reachable_from(ref)) {
      const kernels::Function& g = graph.function(callee);
      if (g.has_body) add(total, count_source_features(body_of(g)));
    }
    // The file-scope macros the kernel uses (BLOCK, TILE) are not read: they are sizes, not code.
    return total;
  }
  return {};
}

}  // namespace kforecast::embedded
