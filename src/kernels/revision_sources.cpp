// SPDX-License-Identifier: Apache-2.0
#include "kernels/revision_sources.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "kernels/fingerprint.hpp"
#include "kernels/lexer.hpp"

namespace kforecast::kernels {
namespace {

std::string normalised(const std::filesystem::path& path) { return path.lexically_normal().generic_string(); }

// A bound on the declarations pulled in through one another (a type naming a constant naming a
// type ...): far above real code, and it keeps hostile input from running long.
constexpr int max_declaration_rounds = 16;

}  // namespace

bool is_cuda_source_path(std::string_view path) {
  for (std::string_view extension : {".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".cuinl"})
    if (path.ends_with(extension)) return true;
  return false;
}

namespace {

// Line ends of a lone CR (classic Mac OS, some generators) become LF, byte for byte, so offsets
// and lengths stay as they were: the lexer ends lines at LF alone, and a `//` comment would
// otherwise swallow the rest of such a file, its kernels read as removed.
bool lone_cr_at(const std::string& text, std::size_t at) { return at + 1 == text.size() || text[at + 1] != '\n'; }

std::unique_ptr<const SourceFiles> with_lf_line_ends(const SourceFiles& files) {
  const auto has_lone_cr = [](const std::string& text) {
    for (std::size_t at = text.find('\r'); at != std::string::npos; at = text.find('\r', at + 1))
      if (lone_cr_at(text, at)) return true;
    return false;
  };
  if (std::ranges::none_of(files, [&](const auto& file) { return has_lone_cr(file.second); })) return nullptr;
  auto copy = std::make_unique<SourceFiles>(files);
  for (auto& [path, text] : *copy)
    for (std::size_t at = text.find('\r'); at != std::string::npos; at = text.find('\r', at + 1))
      if (lone_cr_at(text, at)) text[at] = '\n';
  return copy;
}

}  // namespace

RevisionSources::RevisionSources(const SourceFiles& files)
    : m_lf_files(with_lf_line_ends(files)), m_files(m_lf_files ? *m_lf_files : files) {
  std::vector<Token> tokens;  // each file lexed once, for the scan and its declarations
  for (const auto& [path, text] : m_files) {
    lex(text, tokens);
    m_scanned.emplace(path, scan_cuda_source(text, {.tokens = &tokens}));
    m_declarations.emplace(path, file_scope_declarations(text, tokens));
  }
  for (const auto& [path, text] : m_files)
    m_by_file_name[std::filesystem::path(path).filename().string()].push_back(path);
  for (const auto& [path, scanned] : m_scanned) {
    std::vector<std::string> resolved;
    for (const Include& include : scanned.includes)
      if (auto header = resolve_include(path, include);
          header && std::ranges::find(resolved, *header) == resolved.end())
        resolved.push_back(std::move(*header));
    m_includes.emplace(path, std::move(resolved));
  }
  rescan_with_header_macros();
  for (const auto& [path, scanned] : m_scanned)
    for (const Macro& macro : scanned.macros) m_statement_macros.add(macro);
}

// A kernel-defining macro (or one that stands for __device__) lives in a header more often than
// not: a file that uses one its headers define is scanned again, knowing them. Only such files
// are, so most files are scanned once.
void RevisionSources::rescan_with_header_macros() {
  const auto means_something = [](const Macro& macro) {
    return macro.body.find("__global__") != std::string::npos || macro.body.find("__device__") != std::string::npos ||
           macro.body.find("__host__") != std::string::npos;
  };
  std::vector<Token> tokens;
  for (auto& [path, scanned] : m_scanned) {
    std::vector<const Macro*> candidates;
    for (const auto& header : closure(path)) {
      if (header == path) continue;
      for (const Macro& macro : m_scanned.at(header).macros)
        if (means_something(macro)) candidates.push_back(&macro);
    }
    if (candidates.empty()) continue;
    const std::string& text = m_files.at(path);
    // A search of the text per name is fast for a few names; for many, one pass over the tokens.
    constexpr std::size_t most_names_searched = 16;
    std::vector<Macro> known;
    tokens.clear();
    if (candidates.size() <= most_names_searched) {
      for (const Macro* macro : candidates)
        if (text.find(macro->name) != std::string::npos) known.push_back(*macro);
    } else {
      lex(text, tokens);
      std::set<std::string_view> used;
      for (const Token& t : tokens)
        if (t.is_identifier()) used.insert(t.text());
      for (const Macro* macro : candidates)
        if (used.contains(macro->name)) known.push_back(*macro);
    }
    if (known.empty()) continue;
    if (tokens.empty()) lex(text, tokens);
    // The file's own definitions come after the headers', as the preprocessor would see them.
    scanned = scan_cuda_source(text, {.known_macros = known, .tokens = &tokens});
  }
}

std::optional<std::string> RevisionSources::resolve_include(const std::string& includer, const Include& include) const {
  const std::filesystem::path directory = std::filesystem::path(includer).parent_path();
  // A file never includes itself: <cuda.h> inside a wrapper named cuda.h (ggml's vendors/cuda.h)
  // is the toolkit's. Taken for the wrapper, its folder became an -I that hid the toolkit header.
  for (const std::string& candidate : {normalised(directory / include.path), normalised(include.path)})
    if (candidate != includer && m_files.contains(candidate)) return candidate;
  const std::string name = normalised(include.path);
  // <cuda_runtime.h> and the like stay the toolkit's even where a repository carries a file of
  // that name; only a name with a folder, or a quoted one, is searched for in the tree.
  if (name.empty() || name.starts_with("..") || (include.angled && name.find('/') == std::string::npos))
    return std::nullopt;
  const auto same_name = m_by_file_name.find(std::filesystem::path(name).filename().string());
  if (same_name == m_by_file_name.end()) return std::nullopt;
  const auto shared_prefix = [&](const std::string& path) {
    const auto a = directory.generic_string(), b = std::filesystem::path(path).parent_path().generic_string();
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return n;
  };
  std::optional<std::string> best;
  std::size_t best_prefix = 0;
  bool tie = false;
  for (const auto& path : same_name->second) {
    if (path == includer || (path != name && !path.ends_with("/" + name))) continue;
    const std::size_t prefix = shared_prefix(path);
    if (!best || prefix > best_prefix) {
      best = path, best_prefix = prefix, tie = false;
    } else if (prefix == best_prefix) {
      tie = true;
    }
  }
  if (tie) return std::nullopt;
  return best;
}

std::vector<std::string> RevisionSources::closure(const std::string& path) const {
  std::vector<std::string> order{path};
  for (std::size_t next = 0; next < order.size(); ++next)
    for (const auto& header : m_includes.at(order[next]))
      if (std::ranges::find(order, header) == order.end()) order.push_back(header);
  return order;
}

const RevisionSources::ClosureGraph& RevisionSources::closure_graph(const std::string& path) const {
  auto& slot = m_graphs[path];
  if (!slot) {
    slot = std::make_unique<ClosureGraph>();
    slot->files = closure(path);
    for (const auto& file : slot->files) slot->sources.push_back(m_scanned.at(file));
    slot->graph = std::make_unique<CallGraph>(slot->sources);
    for (const auto& file : slot->files)
      for (const auto& declaration : m_declarations.at(file))
        slot->class_names.insert(declaration.classes.begin(), declaration.classes.end());
  }
  return *slot;
}

const std::vector<FunctionRef>& RevisionSources::address_taken(const ClosureGraph& closure) const {
  if (closure.address_taken) return *closure.address_taken;
  // A name not followed by '(' outside the member functions of a class: `= relu`, `{relu,
  // leaky}`, `&relu`; a member's own declaration or a call is not taking an address.
  std::vector<FunctionRef> found;
  std::vector<Token> tokens;
  for (const auto& file : closure.files) {
    const std::string_view text = m_files.at(file);
    const auto& functions = m_scanned.at(file).functions;
    for (const auto& declaration : m_declarations.at(file)) {
      const Span span = declaration.span;
      lex(text.substr(span.begin, span.end - span.begin), tokens);
      auto member =
          std::ranges::lower_bound(functions, span.begin, {}, [](const Function& f) { return f.whole.begin; });
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        const auto at = span.begin + static_cast<std::size_t>(tokens[i].text().data() - (text.data() + span.begin));
        while (member != functions.end() && member->whole.end <= at) ++member;
        if (member != functions.end() && member->whole.begin <= at) continue;
        if (!tokens[i].is_identifier() || (i + 1 < tokens.size() && tokens[i + 1].is_punct("("))) continue;
        // A name after a type is what a declarator declares (`Activation activation;`, a field
        // or template parameter that shares a function's name), not an address taken.
        if (i > 0 && ((tokens[i - 1].is_identifier() && !tokens[i - 1].is_identifier("return")) ||
                      tokens[i - 1].is_punct(">") || tokens[i - 1].is_punct(">>")))
          continue;
        for (FunctionRef ref : closure.graph->find(tokens[i].text()))
          if (closure.graph->function(ref).kind == FunctionKind::device) found.push_back(ref);
      }
    }
  }
  std::ranges::sort(found);
  found.erase(std::unique(found.begin(), found.end()), found.end());
  // Filled once per closure, on the one thread that uses this RevisionSources (as m_graphs is).
  closure.address_taken = std::move(found);
  return *closure.address_taken;
}

std::vector<ReachedPiece> RevisionSources::reach(const std::string& path, std::size_t function_index) const {
  using Kind = ReachedPiece::Kind;
  const ClosureGraph& cached = closure_graph(path);
  const std::vector<std::string>& files = cached.files;
  const CallGraph& graph = *cached.graph;
  const FunctionRef kernel{0, function_index};

  std::vector<ReachedPiece> pieces;
  std::set<std::string> names;  // identifiers the kernel's code names, for declarations
  std::set<FunctionRef> reached{kernel};
  bool dispatches = graph.dispatches(kernel, cached.class_names);
  auto add_function = [&](FunctionRef ref, Kind kind) {
    const Function& function = graph.function(ref);
    pieces.push_back({kind, function.qualified_name, files[ref.source], function.whole});
    names.insert(function.referenced_identifiers.begin(), function.referenced_identifiers.end());
  };
  add_function(kernel, Kind::kernel);
  auto add_reached_from = [&](FunctionRef root) {
    for (FunctionRef callee : graph.reachable_from(root)) {
      if (!reached.insert(callee).second) continue;
      add_function(callee, Kind::device_function);
      dispatches = dispatches || graph.dispatches(callee, cached.class_names);
    }
  };
  add_reached_from(kernel);
  // Declarations the code names, and those their own text names in turn.
  std::set<std::pair<std::size_t, std::size_t>> taken;
  std::vector<ReachedPiece> declarations;
  auto add_declarations = [&] {
    for (int round = 0; round < max_declaration_rounds; ++round) {
      bool added = false;
      for (std::size_t f = 0; f < files.size(); ++f) {
        const auto& in_file = m_declarations.at(files[f]);
        for (std::size_t d = 0; d < in_file.size(); ++d) {
          const auto& declaration = in_file[d];
          const bool named = std::ranges::any_of(declaration.names, [&](const auto& n) { return names.contains(n); });
          if (!named || !taken.insert({f, d}).second) continue;
          declarations.push_back({Kind::declaration, declaration.names.front(), files[f], declaration.span});
          // What a class's member functions name is theirs, reached where they are called: a
          // kernel that names the class depends on its layout, not on every name its methods use
          // (else one enum named in one method reaches every kernel of every including file).
          for (auto& name : identifiers_outside_function_bodies(m_files.at(files[f]), declaration.span,
                                                                member_functions(files[f], declaration.span)))
            names.insert(std::move(name));
          added = true;
        }
      }
      if (!added) break;
    }
  };
  std::set<MacroRef> macros_taken;
  std::vector<ReachedPiece> macros;
  auto add_macros = [&](FunctionRef root) {
    for (MacroRef ref : graph.macros_used(root, MacroReach::with_callees)) {
      if (!macros_taken.insert(ref).second) continue;
      const Macro& macro = graph.macro(ref);
      macros.push_back({Kind::macro, macro.name, files[ref.source], macro.span});
      for (auto& name : identifiers_in(macro.body)) names.insert(std::move(name));
    }
  };
  add_macros(kernel);
  add_declarations();
  // A call through a value (a table of function pointers, a function returning one) may land on
  // any device function whose name the reached code or declarations mention without calling it:
  // those are reached too, with what they reach, until nothing new comes.
  // So may the functions whose address a file-scope declaration of the closure takes, which a
  // kernel may be handed as an argument: __device__ unary_fn d_relu = relu, copied out by host code.
  for (int round = 0; dispatches && round < max_declaration_rounds; ++round) {
    std::vector<FunctionRef> taken_address;
    if (round == 0)
      for (FunctionRef ref : address_taken(cached))
        if (!reached.contains(ref)) taken_address.push_back(ref);
    for (const std::string& name : names)
      for (FunctionRef ref : graph.find(name))
        if (graph.function(ref).kind == FunctionKind::device && !reached.contains(ref)) taken_address.push_back(ref);
    if (taken_address.empty()) break;
    for (FunctionRef ref : taken_address) {
      if (!reached.insert(ref).second) continue;
      add_function(ref, Kind::device_function);
      dispatches = dispatches || graph.dispatches(ref, cached.class_names);
      add_reached_from(ref);
      add_macros(ref);
    }
    add_declarations();
  }
  pieces.insert(pieces.end(), std::make_move_iterator(macros.begin()), std::make_move_iterator(macros.end()));
  pieces.insert(pieces.end(), std::make_move_iterator(declarations.begin()),
                std::make_move_iterator(declarations.end()));
  return pieces;
}

std::vector<Span> RevisionSources::member_functions(const std::string& path, Span declaration) const {
  // Functions are in source order; a member's nested functions (a lambda's) are inside it.
  const auto& functions = m_scanned.at(path).functions;
  std::vector<Span> members;
  for (auto f =
           std::ranges::lower_bound(functions, declaration.begin, {}, [](const Function& g) { return g.whole.begin; });
       f != functions.end() && f->whole.begin < declaration.end; ++f)
    if (f->has_body && f->whole.end <= declaration.end && (members.empty() || members.back().end <= f->whole.begin))
      members.push_back(f->whole);
  return members;
}

const std::vector<LaunchSite>& RevisionSources::launches(const std::string& path) const {
  auto [slot, fresh] = m_launches.try_emplace(path);
  if (!fresh) return slot->second;
  std::vector<LaunchWrapper> wrappers;
  for (const std::string& file : closure(path))
    for (LaunchWrapper& wrapper : launch_wrappers(m_scanned.at(file).macros))
      if (std::ranges::none_of(wrappers, [&](const LaunchWrapper& w) { return w.name == wrapper.name; }))
        wrappers.push_back(std::move(wrapper));
  const LaunchSiteOptions options{.api_calls = true, .wrappers = wrappers};
  const std::string& text = m_files.at(path);
  if (may_launch(text, options)) slot->second = launch_sites(text, options);
  return slot->second;
}

std::uint64_t RevisionSources::cached_fingerprint(const ReachedPiece& piece, bool without_members) const {
  // A header's device functions and declarations are reached by every kernel of every file that
  // includes it: each is fingerprinted once.
  auto [slot, fresh] = m_fingerprints.try_emplace({piece.file, piece.span.begin, piece.span.end, without_members});
  if (!fresh) return slot->second;
  const std::vector<Span> members = without_members ? member_functions(piece.file, piece.span) : std::vector<Span>{};
  slot->second = token_fingerprint(m_files.at(piece.file), piece.span, members, {.macros = &m_statement_macros});
  return slot->second;
}

Dependencies RevisionSources::dependencies(const std::string& path, std::size_t function_index) const {
  using Kind = ReachedPiece::Kind;
  Dependencies found;
  for (const ReachedPiece& piece : reach(path, function_index)) {
    const std::uint64_t fingerprint = cached_fingerprint(piece, false);
    switch (piece.kind) {
      case Kind::kernel:
        found["kernel"] = fingerprint;
        break;
      case Kind::device_function:
        found[fmt::format("device function {}", piece.name)] = fingerprint;
        break;
      case Kind::macro:
        found[fmt::format("macro {}", piece.name)] = fingerprint;
        break;
      case Kind::declaration: {
        // A class's member functions are functions of their own, reached (and fingerprinted)
        // where called: a kernel that names the class is not changed by a member it never calls.
        const std::uint64_t without_members = cached_fingerprint(piece, true);
        // Several declarations may share a first name (a forward declaration and the definition).
        std::uint64_t& slot = found[fmt::format("declaration {}", piece.name)];
        slot = slot * 0x9E3779B97F4A7C15ULL + without_members;
        break;
      }
    }
  }
  return found;
}

}  // namespace kforecast::kernels
