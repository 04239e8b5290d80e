// SPDX-License-Identifier: Apache-2.0
// Matchers that ask which threads differ: barriers under divergent conditions, atomics every
// thread aims at the same address, global accesses strided across a warp, and shared tiles read
// by column.

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

constexpr std::array<std::string_view, 4> default_barriers{"__syncthreads", "__syncthreads_count", "__syncthreads_and",
                                                           "__syncthreads_or"};
constexpr std::array<std::string_view, 11> default_atomics{"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                                                           "atomicMax", "atomicInc", "atomicDec",  "atomicCAS",
                                                           "atomicAnd", "atomicOr",  "atomicXor"};
constexpr std::array<std::string_view, 6> default_word_types{"float", "int", "unsigned", "uint32_t", "int32_t", "uint"};

bool named(const Rule& rule, std::span<const std::string_view> defaults, std::string_view text) {
  if (rule.match.names.empty()) return std::ranges::find(defaults, text) != defaults.end();
  return std::ranges::find(rule.match.names, text) != rule.match.names.end();
}

bool calls_at(std::span<const Token> tokens, std::size_t at) {
  return at + 1 < tokens.size() && tokens[at].is_identifier() && tokens[at + 1].is_punct("(") &&
         (at == 0 || (!tokens[at - 1].is_punct(".") && !tokens[at - 1].is_punct("->")));
}

// threadIdx . x starting at `at`.
bool thread_x_at(std::span<const Token> tokens, std::size_t at) {
  return at + 2 < tokens.size() && tokens[at].is_identifier("threadIdx") && tokens[at + 1].is_punct(".") &&
         tokens[at + 2].is_identifier("x");
}

}  // namespace

// A barrier under a thread-dependent condition, told apart by what the threads that skip it do
// next. In a kernel, when no other barrier follows the outermost such branch or loop (nor sits
// in its else), those threads leave the kernel: a barrier waits only for threads that have not
// exited (PTX ISA, bar.sync), so the block does not hang, but the guide leaves it undefined and
// shared data those threads should store before it is missing. Otherwise they reach a different
// barrier, and the block's barriers pair up out of step.
void match_barrier_in_divergent_branch(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto tokens = unit.body;
  const bool kernel = unit.function.kind == kernels::FunctionKind::global;
  const auto is_barrier = [&](std::size_t at) {
    return calls_at(tokens, at) && named(rule, default_barriers, tokens[at].text());
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!is_barrier(i)) continue;
    const ControlRegion* region = unit.analysis.outermost_divergent(i);
    if (region == nullptr) continue;
    bool others_reach_barrier = !kernel;
    for (std::size_t k = region->header_begin; k < tokens.size() && !others_reach_barrier; ++k)
      if ((k < region->begin || k >= region->end) && is_barrier(k)) others_reach_barrier = true;
    const bool exit_shape = !others_reach_barrier;
    if (exit_shape != (rule.match.skipping_threads == "exit")) continue;
    const std::string_view keyword = region->header_begin >= 2 && tokens[region->header_begin - 2].is_identifier()
                                         ? tokens[region->header_begin - 2].text()
                                         : "do";
    const std::string header = clipped(unit.view.text_of(tokens, region->header_begin, region->header_end), 30);
    const std::string where = region->else_branch ? fmt::format("the else of 'if ({})'", header)
                              : keyword == "do"   ? std::string("a do loop")
                                                  : fmt::format("'{} ({})'", keyword, header);
    out.push_back({unit.view.offset(tokens[i]), fmt::format("'{}()' under {}", tokens[i].text(), where)});
  }
}

// An atomic whose address is the same for every thread of the block. Not where the address is
// not known here: in a __device__ helper whose address comes from a pointer parameter (each
// caller passes its own), or one that reads a per-thread local array (&out[ids[p]]); nor in a
// branch that elects one thread or lane.
void match_atomic_uniform_address(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto tokens = unit.body;
  const auto& variables = unit.analysis.variables();
  const bool kernel = unit.function.kind == kernels::FunctionKind::global;
  const auto pointer_parameter = [&](std::string_view name) {
    return std::ranges::any_of(unit.function.parameters, [&](const kernels::Parameter& p) {
      return p.name == name && (p.type.find('*') != std::string::npos || p.type.find('&') != std::string::npos);
    });
  };
  // Whether [begin, end) reads a pointer parameter, directly or through locals set from one.
  const auto from_parameter = [&](auto&& self, std::size_t begin, std::size_t end, int depth) -> bool {
    for (std::size_t k = begin; k < end; ++k) {
      const std::size_t id = variables.at(k);
      if (id == Variables::none) continue;
      if (variables[id].free() && pointer_parameter(variables[id].name)) return true;
      if (!variables[id].free() && depth < 3)
        for (const auto& r : variables.assigned(id))
          if (!r.compound && self(self, r.begin, r.end, depth + 1)) return true;
    }
    return false;
  };
  const auto per_thread_array = [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k + 1 < end; ++k) {
      const std::size_t id = variables.at(k);
      if (id == Variables::none || variables[id].free() || !variables[id].array || !tokens[k + 1].is_punct("["))
        continue;
      bool shared = false;
      for (std::size_t t = variables[id].type_begin; t < variables[id].type_end; ++t)
        shared = shared || tokens[t].is_identifier("__shared__");
      if (!shared) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!calls_at(tokens, i) || !named(rule, default_atomics, tokens[i].text())) continue;
    const std::size_t end = expression_end(tokens, i + 2);
    if (unit.analysis.thread_dependent(i + 2, end) || unit.analysis.in_elected_branch(i)) continue;
    if ((!kernel && from_parameter(from_parameter, i + 2, end, 0)) || per_thread_array(i + 2, end)) continue;
    out.push_back({unit.view.offset(tokens[i]),
                   fmt::format("{}({}, ...)", tokens[i].text(), clipped(unit.view.text_of(tokens, i + 2, end)))});
  }
}

// A store when an assignment follows the subscript (out[i] = v, out[i] += v), or the vector cast
// of its address (reinterpret_cast<float4*>(&out[i])[0] = v), else a load.
std::string_view access_kind(std::span<const Token> tokens, std::size_t at, std::size_t close) {
  if (at >= 2 && tokens[at - 1].is_punct("&") && tokens[at - 2].is_punct("(")) {
    close = closing(tokens, at - 2);
    if (close + 1 < tokens.size() && tokens[close + 1].is_punct("[")) close = closing(tokens, close + 1);
  }
  if (close + 1 >= tokens.size()) return "read";
  const Token& next = tokens[close + 1];
  if (next.is_punct("=")) return "write";
  for (std::string_view op : {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"})
    if (next.is_punct(op)) return "read and write";
  return "read";
}

// The bytes of the vector type an access is cast to, where it is `reinterpret_cast<V*>(&p[i])`
// (float4 loads and stores), else 0.
std::int64_t vector_bytes_at(std::span<const Token> tokens, std::size_t at) {
  if (at < 4 || !tokens[at - 1].is_punct("&") || !tokens[at - 2].is_punct("(") || !tokens[at - 3].is_punct(">"))
    return 0;
  for (std::size_t k = at - 3; k > 0 && !tokens[k - 1].is_punct("<"); --k) {
    const std::string_view type = tokens[k - 1].text();
    for (auto [name, bytes] : {std::pair<std::string_view, std::int64_t>{"float4", 16}, {"int4", 16}, {"uint4", 16},
                               {"double2", 16}, {"float2", 8}, {"int2", 8}, {"uint2", 8}, {"half2", 4},
                               {"__half2", 4}, {"__nv_bfloat162", 4}})
      if (type == name) return bytes;
  }
  return 0;
}

// The bytes of the vector type named in a text (a macro's body), else 0.
std::int64_t vector_bytes_in(std::string_view text) {
  for (auto [name, bytes] : {std::pair<std::string_view, std::int64_t>{"float4", 16},
                             {"int4", 16},
                             {"uint4", 16},
                             {"double2", 16},
                             {"float2", 8},
                             {"int2", 8},
                             {"uint2", 8},
                             {"half2", 4},
                             {"__half2", 4},
                             {"__nv_bfloat162", 4}}) {
    const std::size_t at = text.find(name);
    if (at != std::string_view::npos &&
        (at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')))
      return bytes;
  }
  return 0;
}

// The bytes of the vector an access is moved as when it is the argument of a function-like
// macro of this file that casts its argument's address (FLOAT4(x[i]) with #define FLOAT4(v)
// (reinterpret_cast<float4*>(&(v))[0])), else 0.
std::int64_t vector_bytes_through_macro(const SourceView& view, std::span<const Token> tokens, std::size_t at) {
  std::size_t k = at;
  while (k > 0 && (tokens[k - 1].is_punct("(") || tokens[k - 1].is_punct("&"))) --k;
  if (k == 0 || k == at || !tokens[k - 1].is_identifier()) return 0;
  for (const auto& macro : view.scanned().macros)
    if (macro.function_like && macro.name == tokens[k - 1].text() && macro.body.find("cast") != std::string::npos)
      return vector_bytes_in(macro.body);
  return 0;
}

// The bytes of one element a pointer parameter's type points to, 0 where not known.
std::int64_t element_bytes(std::string_view type) {
  if (type.find("double") != std::string_view::npos) return 8;
  if (type.find("half") != std::string_view::npos || type.find("bfloat16") != std::string_view::npos) return 2;
  for (std::string_view word : {"float", "int", "unsigned", "uint"})
    if (type.find(word) != std::string_view::npos) return 4;
  return 0;
}

// Coalescing is judged on the index that steps lane by lane (threadIdx.x, or a name stepping
// with it): scaled by a stride, neighbouring lanes touch addresses a stride apart. A name derived
// from threadIdx.x only through / or >> (the row of a thread in a tile) is the same for
// neighbouring lanes, so a stride on it is not uncoalesced.
void match_strided_thread_index(const Rule&, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  std::vector<std::string_view> pointers;
  std::vector<std::int64_t> pointee_bytes;
  for (const auto& parameter : unit.function.parameters)
    if (parameter.type.find('*') != std::string::npos && !parameter.name.empty()) {
      pointers.push_back(parameter.name);
      pointee_bytes.push_back(element_bytes(parameter.type));
    }
  const auto tokens = unit.body;
  const auto& analysis = unit.analysis;
  // A stride no wider than the vector each lane moves leaves the lanes' vectors side by side
  // (reinterpret_cast<float4*>(&a[lane * 4])): contiguous, so coalesced.
  const auto vector_wide = [&](std::size_t at, std::int64_t element, const Token& stride_token) {
    const std::int64_t vector =
        std::max(vector_bytes_at(tokens, at), vector_bytes_through_macro(unit.view, tokens, at));
    auto stride = integer_literal(stride_token);
    if (!stride && stride_token.is_identifier()) stride = unit.view.macro_number(stride_token.text());
    return vector > 0 && element > 0 && stride && *stride * element <= vector;
  };
  const auto lane_left = [&](std::size_t j) {  // the operand ending just before token j
    // A member (the x of blockIdx.x, v.x) is not the local of the same name.
    const bool member = j >= 2 && (tokens[j - 2].is_punct(".") || tokens[j - 2].is_punct("->") ||
                                   tokens[j - 2].is_punct("::"));
    return (tokens[j - 1].is_identifier() && !member && analysis.lane_stepping_at(j - 1)) ||
           (j >= 3 && thread_x_at(tokens, j - 3));
  };
  const auto lane_right = [&](std::size_t j) {  // the operand starting just after token j
    const bool name = tokens[j + 1].is_identifier() && analysis.lane_stepping_at(j + 1);
    const std::size_t after = name ? j + 2 : j + 4;
    const bool divided =
        after < tokens.size() && (tokens[after].is_punct("/") || tokens[after].is_punct(">>"));
    return (name || thread_x_at(tokens, j + 1)) && !divided;
  };
  const auto stride = [&](std::size_t at) {
    const Token& token = tokens[at];
    if (auto value = integer_literal(token)) return *value > 1;
    return token.is_identifier() && !analysis.lane_dependent_at(at) && token.text() != "threadIdx";
  };
  // Whether the '*' at j lies in a parenthesised group that is then divided or shifted right:
  // absmax[(i + threadIdx.x * 4) >> 6] is the same entry for neighbouring lanes.
  const auto divided_group = [&](std::size_t begin, std::size_t j) {
    int depth = 0;
    for (std::size_t k = j; k-- > begin;) {
      if (tokens[k].is_punct(")")) ++depth;
      if (tokens[k].is_punct("(") && depth-- == 0) {
        const std::size_t group_end = closing(tokens, k);
        if (group_end + 1 < tokens.size() &&
            (tokens[group_end + 1].is_punct(">>") || tokens[group_end + 1].is_punct("/")))
          return true;
        depth = 0;
      }
    }
    return false;
  };
  // The index without a trailing "+ constant": two accesses with the same base and different
  // offsets are fields of one small record per lane (p[i * 2], p[i * 2 + 1]).
  // (or "+ k" with k a counter of a loop over the fields: p[i * 6 + k]).
  const auto record_base = [&](std::size_t begin, std::size_t end) {
    if (end >= begin + 2 && (tokens[end - 2].is_punct("+")) &&
        (integer_literal(tokens[end - 1]) ||
         (tokens[end - 1].is_identifier() && analysis.in_loop(end - 1) && !analysis.lane_dependent_at(end - 1))))
      end -= 2;
    return unit.view.text_of(tokens, begin, end);
  };
  std::vector<std::pair<std::string_view, std::string>> bases;  // pointer, index base of every access
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
    if (tokens[i].is_identifier() && tokens[i + 1].is_punct("[") &&
        std::ranges::find(pointers, tokens[i].text()) != pointers.end())
      bases.emplace_back(tokens[i].text(), record_base(i + 2, closing(tokens, i + 1)));
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].is_identifier() || !tokens[i + 1].is_punct("[") ||
        std::ranges::find(pointers, tokens[i].text()) == pointers.end())
      continue;
    if (const std::size_t id = analysis.variables().at(i); id == Variables::none || !analysis.variables()[id].free())
      continue;  // a local of the same name, not the parameter
    const std::size_t close = closing(tokens, i + 1);
    for (std::size_t j = i + 3; j + 1 < close; ++j) {
      if (!tokens[j].is_punct("*") || divided_group(i + 2, j)) continue;
      const bool left = lane_left(j), right = lane_right(j);
      const Token* scale = left && !right && stride(j + 1)   ? &tokens[j + 1]
                           : right && !left && stride(j - 1) ? &tokens[j - 1]
                                                             : nullptr;
      const auto element = pointee_bytes[static_cast<std::size_t>(std::ranges::find(pointers, tokens[i].text()) -
                                                                  pointers.begin())];
      if (scale != nullptr && !vector_wide(i, element, *scale)) {
        Finding finding{unit.view.offset(tokens[i]),
                        fmt::format("{} '{}[{}]'", access_kind(tokens, i, close), tokens[i].text(),
                                    clipped(unit.view.text_of(tokens, i + 2, close), 30))};
        // A small record per lane: a literal stride of at most 32 bytes whose other fields this
        // kernel also accesses (p[i * 6 + k]). Every byte is used, in several transactions
        // instead of one.
        const auto small = integer_literal(*scale);
        const std::string base = record_base(i + 2, close);
        const auto fields = std::ranges::count_if(
            bases, [&](const auto& b) { return b.first == tokens[i].text() && b.second == base; });
        const std::int64_t record_bytes = small ? *small * (element > 0 ? element : 4) : 0;
        if (small && *small >= 2 && record_bytes <= 32 && fields >= 2) {
          finding.variant = "record";
          finding.fix = fmt::format("move each lane's {} fields as one {}-byte vector", *small, *small * element);
        }
        out.push_back(std::move(finding));
        break;
      }
    }
  }
}

void match_shared_array_stride(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto tokens = unit.body;
  const auto value_of = [&](const Token& token) -> std::optional<std::int64_t> {
    if (auto literal = integer_literal(token)) return literal;
    return token.is_identifier() ? unit.view.macro_number(token.text()) : std::nullopt;
  };
  std::vector<std::string_view> tiles;  // 2-D shared arrays of words whose rows are a multiple of 32 words
  std::vector<std::string> padded;      // each one's declaration with its rows padded: tile[32][32 + 1]
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].is_identifier("__shared__")) continue;
    const std::size_t end = expression_end(tokens, i);
    bool word = false;
    for (std::size_t j = i + 1; j + 1 < end; ++j) {
      if (tokens[j].is_identifier() && named(rule, default_word_types, tokens[j].text())) word = true;
      if (!tokens[j].is_identifier() || !tokens[j + 1].is_punct("[")) continue;
      // NAME [ A ] [ B ] with B a known multiple
      const std::size_t first_close = closing(tokens, j + 1);
      if (first_close + 3 < end && tokens[first_close + 1].is_punct("[") && tokens[first_close + 3].is_punct("]")) {
        const auto columns = value_of(tokens[first_close + 2]);
        if (word && columns && *columns > 0 && *columns % rule.match.multiple == 0) {
          tiles.push_back(tokens[j].text());
          padded.push_back(fmt::format("{}[{}][{} + 1]", tokens[j].text(),
                                       unit.view.text_of(tokens, j + 2, first_close), tokens[first_close + 2].text()));
        }
      }
      break;
    }
  }
  if (tiles.empty()) return;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].is_identifier() || !tokens[i + 1].is_punct("[") ||
        std::ranges::find(tiles, tokens[i].text()) == tiles.end())
      continue;
    if (i > 0 && (tokens[i - 1].is_identifier() || tokens[i - 1].is_identifier("__shared__")))
      continue;  // a declaration
    const std::size_t row_close = closing(tokens, i + 1);
    if (row_close + 1 >= tokens.size() || !tokens[row_close + 1].is_punct("[")) continue;
    const std::size_t column_close = closing(tokens, row_close + 1);
    if (unit.analysis.lane_dependent(i + 2, row_close) && !unit.analysis.lane_dependent(row_close + 2, column_close)) {
      Finding finding{unit.view.offset(tokens[i]), std::string(tokens[i].text()) + "[" +
                                                       unit.view.text_of(tokens, i + 2, row_close) + "][" +
                                                       unit.view.text_of(tokens, row_close + 2, column_close) + "]"};
      finding.fix = padded[static_cast<std::size_t>(std::ranges::find(tiles, tokens[i].text()) - tiles.begin())];
      out.push_back(std::move(finding));
    }
  }
}

}  // namespace kforecast::lint
