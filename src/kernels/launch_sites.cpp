// SPDX-License-Identifier: Apache-2.0
#include "kernels/launch_sites.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "kernels/canonical_tokens.hpp"
#include "kernels/launch_reference.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

// Far more than any real launch's template arguments or configuration.
constexpr std::size_t most_tokens_per_part = 256;
// Tokens read back from a launch through a local for the body around it.
constexpr std::size_t longest_body = 8192;

// The index of the '<' that opens the template arguments closed at `close`, or nothing.
std::optional<std::size_t> template_open(std::span<const Token> tokens, std::size_t close) {
  std::size_t angles = 0;
  int brackets = 0;
  const std::size_t floor = close > most_tokens_per_part ? close - most_tokens_per_part : 0;
  for (std::size_t i = close + 1; i-- > floor;) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::punctuation) continue;
    const std::string_view p = t.text();
    if (p == ")" || p == "]") ++brackets;
    if ((p == "(" || p == "[") && --brackets < 0) return std::nullopt;
    if (brackets > 0) continue;
    if (p == ">" || p == ">>") angles += p.size();
    if (p == "<" && --angles == 0) return i;
    if (p == ";" || p == "{" || p == "}") return std::nullopt;
  }
  return std::nullopt;
}

// The end of the configuration that starts at `first`: the index of the ">>" of ">> >" or of
// ">>>", or nothing.
std::optional<std::size_t> configuration_end(std::span<const Token> tokens, std::size_t first) {
  int depth = 0;
  for (std::size_t i = first; i < tokens.size() && i < first + most_tokens_per_part; ++i) {
    const Token& t = tokens[i];
    if (t.kind != TokenKind::punctuation) continue;
    const std::string_view p = t.text();
    if (p == "(" || p == "[" || p == "{") ++depth;
    if ((p == ")" || p == "]" || p == "}") && --depth < 0) return std::nullopt;
    if (depth == 0 && (p == ">>>" || (p == ">>" && i + 1 < tokens.size() && tokens[i + 1].is_punct(">")))) return i;
    if (p == ";") return std::nullopt;
  }
  return std::nullopt;
}

std::vector<std::string> plain_names(std::span<const Token> tokens,
                                     std::span<const std::pair<std::size_t, std::size_t>> items) {
  std::vector<std::string> names;
  for (const auto& [first, last] : items)
    if (first == last && tokens[first].is_identifier() && !is_keyword(tokens[first].text()))
      names.emplace_back(tokens[first].text());
  return names;
}

class SiteReader {
 public:
  SiteReader(std::string_view text, const LaunchSiteOptions& options)
      : m_text(text), m_tokens(lex(text)), m_options(options) {}

  std::vector<LaunchSite> read() {
    for (std::size_t i = 0; i + 1 < m_tokens.size(); ++i) {
      track_definition(i);
      if (m_tokens[i].is_punct("<<") && m_tokens[i + 1].is_punct("<") && i > 0) {
        i = chevrons(i);
      } else if (m_tokens[i].is_identifier() && m_tokens[i + 1].is_punct("(")) {
        if (m_options.api_calls) api_call(i);
        wrapper_call(i);
      }
    }
    return std::move(m_sites);
  }

 private:
  // Which macro's #define the walk is in, and its parameters: a launch of a parameter there is
  // the macro's own (a wrapper), not a launch of a kernel of that name.
  void track_definition(std::size_t i) {
    const Token& t = m_tokens[i];
    if (t.kind == TokenKind::directive_end) {
      m_macro = {};
      m_macro_parameters.clear();
    }
    if (t.kind != TokenKind::directive_begin || i + 2 >= m_tokens.size() || !m_tokens[i + 1].is_identifier("define"))
      return;
    m_macro = m_tokens[i + 2].text();
    for (std::size_t k = i + 4; k < m_tokens.size() && i + 3 < m_tokens.size() && m_tokens[i + 3].is_punct("(") &&
                                !m_tokens[k].is_punct(")") && m_tokens[k].kind != TokenKind::directive_end;
         ++k)
      if (m_tokens[k].is_identifier()) m_macro_parameters.push_back(m_tokens[k].text());
  }

  bool is_macro_parameter(std::string_view name) const {
    return std::ranges::find(m_macro_parameters, name) != m_macro_parameters.end();
  }

  LaunchSite site_at(std::size_t first) const {
    LaunchSite site;
    site.in_macro = std::string(m_macro);
    site.line = m_tokens[first].line;
    site.offset = static_cast<std::size_t>(m_tokens[first].text().data() - m_text.data());
    return site;
  }

  void name_kernel(LaunchSite& site, const KernelReference& kernel) const {
    for (std::size_t k = kernel.name_first; k <= kernel.name_last; ++k) site.kernel += m_tokens[k].text();
    if (kernel.arguments_open) {
      const auto arguments =
          std::span(m_tokens).subspan(*kernel.arguments_open, kernel.arguments_close + 1 - *kernel.arguments_open);
      site.template_arguments = spaced_text(arguments);
      site.compared_template_arguments = canonical_text(arguments);
    }
  }

  // k<<<...>>>(...) at the '<<' of `at`; returns where the walk goes on.
  std::size_t chevrons(std::size_t at) {
    const auto end = configuration_end(m_tokens, at + 2);
    if (!end) return at;
    std::size_t name_last = at - 1;
    std::optional<std::size_t> arguments_open;
    if (m_tokens[name_last].is_punct(">") || m_tokens[name_last].is_punct(">>")) {
      arguments_open = template_open(m_tokens, name_last);
      if (!arguments_open || *arguments_open == 0) return at;
    }
    const std::size_t last = arguments_open ? *arguments_open - 1 : name_last;
    if (!m_tokens[last].is_identifier() || is_keyword(m_tokens[last].text())) return at;
    std::size_t first = last;
    while (first >= 2 && m_tokens[first - 1].is_punct("::") && m_tokens[first - 2].is_identifier()) first -= 2;
    const KernelReference written{first, last, arguments_open, name_last};
    LaunchSite site = site_at(first);
    site.line = m_tokens[last].line;
    site.configuration = canonical_text(std::span(m_tokens).subspan(at + 2, *end - (at + 2)));
    const std::size_t call = *end + (m_tokens[*end].is_punct(">>>") ? 1 : 2);
    if (call < m_tokens.size() && m_tokens[call].is_punct("(")) {
      const std::size_t close = matching_close(m_tokens, call);
      if (close < m_tokens.size()) site.argument_names = plain_names(m_tokens, items_between(m_tokens, call, close));
    }
    const std::string_view name = m_tokens[last].text();
    if (first == last && !arguments_open && is_macro_parameter(name)) return *end;  // a wrapper's own launch
    std::vector<KernelReference> held;
    if (first == last && !arguments_open) held = held_kernels(first);
    if (held.empty()) {
      name_kernel(site, written);
      m_sites.push_back(std::move(site));
      return *end;
    }
    for (const KernelReference& kernel : held) {
      LaunchSite through = site;
      through.through = std::string(name);
      name_kernel(through, kernel);
      m_sites.push_back(std::move(through));
    }
    return *end;
  }

  // The kernels a local holds where it is launched at `at`: its declaration's initializer
  // (`auto kernel = &k<T>;`, `void (*kernel)(P) = k<T>;`) in the block around the launch or one
  // enclosing it, and each assignment to it between there and the launch. None where no such
  // declaration is found (a parameter) or it holds no kernel reference.
  std::vector<KernelReference> held_kernels(std::size_t at) const {
    const std::string_view name = m_tokens[at].text();
    std::optional<std::size_t> declared;
    int depth = 0;
    for (std::size_t back = 1; back + 2 <= at && back < longest_body && !declared; ++back) {
      const std::size_t i = at - back;
      const Token& t = m_tokens[i];
      if (t.is_punct("}")) ++depth;
      if (t.is_punct("{") && --depth < 0) {
        const Token& before = m_tokens[i - 1];
        // The body of a function or a lambda: the local is declared within it or not at all.
        if ((before.is_punct(")") && !opens_control(i - 1)) || before.is_punct("]") || before.is_identifier("mutable"))
          break;
        depth = 0;
      }
      if (depth == 0 && t.is_identifier() && t.text() == name && declares(i)) declared = i;
    }
    std::vector<KernelReference> held;
    if (!declared) return held;
    for (std::size_t i = *declared; i < at; ++i) {
      if (!m_tokens[i].is_identifier() || m_tokens[i].text() != name) continue;
      std::size_t equals = i + 1;
      if (i == *declared && m_tokens[i + 1].is_punct(")")) {  // void (*kernel)(P) = k<T>;
        const std::size_t parameters = i + 2;
        if (parameters >= at || !m_tokens[parameters].is_punct("(")) continue;
        equals = matching_close(m_tokens, parameters) + 1;
      }
      if (equals >= at || !m_tokens[equals].is_punct("=")) continue;
      std::size_t semicolon = equals + 1;
      while (semicolon < at && !m_tokens[semicolon].is_punct(";")) ++semicolon;
      if (const auto kernel = kernel_reference(m_tokens, equals + 1, semicolon))
        if (std::ranges::none_of(held, [&](const KernelReference& k) { return same_reference(k, *kernel); }))
          held.push_back(*kernel);
    }
    return held;
  }

  // Whether the name at `i` is declared there: `auto kernel =`, `const auto* kernel =`,
  // `void (*kernel)(P) =`.
  bool declares(std::size_t i) const {
    const Token& before = m_tokens[i - 1];
    const Token& after = m_tokens[i + 1];
    if (before.is_punct("*") && m_tokens[i - 2].is_punct("(") && after.is_punct(")")) return true;
    const bool after_type = (before.is_identifier() && !before.is_identifier("return")) || before.is_punct("*") ||
                            before.is_punct("&") || before.is_punct(">");
    return after_type && after.is_punct("=");
  }

  bool same_reference(const KernelReference& a, const KernelReference& b) const {
    const auto text = [&](std::size_t first, std::size_t last) {
      return canonical_text(std::span(m_tokens).subspan(first, last + 1 - first));
    };
    const std::size_t a_last = a.arguments_open ? a.arguments_close : a.name_last;
    const std::size_t b_last = b.arguments_open ? b.arguments_close : b.name_last;
    return text(a.name_first, a_last) == text(b.name_first, b_last);
  }

  // Whether the ')' at `close` ends the condition of an if, for, while or switch.
  bool opens_control(std::size_t close) const {
    int depth = 0;
    for (std::size_t back = 0; back <= close && back < most_tokens_per_part; ++back) {
      const std::size_t i = close - back;
      if (m_tokens[i].is_punct(")")) ++depth;
      if (m_tokens[i].is_punct("(") && --depth == 0)
        return i > 0 && (m_tokens[i - 1].is_identifier("if") || m_tokens[i - 1].is_identifier("for") ||
                         m_tokens[i - 1].is_identifier("while") || m_tokens[i - 1].is_identifier("switch") ||
                         m_tokens[i - 1].is_identifier("constexpr"));
    }
    return false;
  }

  // cudaLaunchKernelEx(&cfg, k<T>, args...), cudaLaunchKernel(k, grid, block, args, smem, stream).
  void api_call(std::size_t at) {
    const std::string_view function = m_tokens[at].text();
    const bool ex = function == "cudaLaunchKernelEx" || function == "cudaLaunchKernelExC";
    const bool classic = function == "cudaLaunchKernel" || function == "cudaLaunchCooperativeKernel";
    if (!ex && !classic) return;
    if (at > 0 && (m_tokens[at - 1].is_punct(".") || m_tokens[at - 1].is_punct("->"))) return;
    const std::size_t close = matching_close(m_tokens, at + 1);
    if (close >= m_tokens.size()) return;
    const auto items = items_between(m_tokens, at + 1, close);
    const std::size_t kernel_item = ex ? 1 : 0;
    if (items.size() <= kernel_item) return;
    const auto kernel = kernel_reference(m_tokens, items[kernel_item].first, items[kernel_item].second + 1);
    if (!kernel || (kernel->name_first == kernel->name_last && is_macro_parameter(m_tokens[kernel->name_first].text())))
      return;
    LaunchSite site = site_at(at);
    site.through = std::string(function);
    name_kernel(site, *kernel);
    if (ex) {
      site.configuration =
          canonical_text(std::span(m_tokens).subspan(items[0].first, items[0].second + 1 - items[0].first));
      site.argument_names = plain_names(m_tokens, std::span(items).subspan(2));
    } else {
      // grid, block, (the argument array), shared memory, stream.
      for (std::size_t k = 1; k < items.size(); ++k) {
        if (k == 3) continue;
        if (!site.configuration.empty()) site.configuration += " , ";
        site.configuration +=
            canonical_text(std::span(m_tokens).subspan(items[k].first, items[k].second + 1 - items[k].first));
      }
    }
    m_sites.push_back(std::move(site));
  }

  void wrapper_call(std::size_t at) {
    const auto wrapper = std::ranges::find(m_options.wrappers, m_tokens[at].text(), &LaunchWrapper::name);
    if (wrapper == m_options.wrappers.end() || m_tokens[at].text() == m_macro) return;
    const std::size_t close = matching_close(m_tokens, at + 1);
    if (close >= m_tokens.size()) return;
    const auto items = items_between(m_tokens, at + 1, close);
    if (items.size() <= wrapper->kernel_parameter) return;
    const auto [kernel_first, kernel_last] = items[wrapper->kernel_parameter];
    const auto kernel = kernel_reference(m_tokens, kernel_first, kernel_last + 1);
    if (!kernel) return;
    LaunchSite site = site_at(at);
    site.through = wrapper->name;
    name_kernel(site, *kernel);
    site.configuration = substituted(*wrapper, items);
    for (std::size_t k = wrapper->kernel_parameter + 1; k < items.size(); ++k)
      if (items[k].first == items[k].second && m_tokens[items[k].first].is_identifier())
        site.argument_names.emplace_back(m_tokens[items[k].first].text());
    m_sites.push_back(std::move(site));
  }

  // The wrapper's configuration with each parameter replaced by the argument given for it.
  std::string substituted(const LaunchWrapper& wrapper,
                          std::span<const std::pair<std::size_t, std::size_t>> items) const {
    std::string configuration;
    for (const Token& t : lex(wrapper.configuration)) {
      if (!configuration.empty()) configuration += ' ';
      const auto parameter = std::ranges::find(wrapper.parameters, t.text());
      const auto index = static_cast<std::size_t>(parameter - wrapper.parameters.begin());
      if (t.is_identifier() && parameter != wrapper.parameters.end() && index < items.size())
        configuration += canonical_text(
            std::span(m_tokens).subspan(items[index].first, items[index].second + 1 - items[index].first));
      else
        configuration += t.text();
    }
    return configuration;
  }

  std::string_view m_text;
  std::vector<Token> m_tokens;
  const LaunchSiteOptions& m_options;
  std::vector<LaunchSite> m_sites;
  std::string_view m_macro;  // the macro whose #define the walk is in
  std::vector<std::string_view> m_macro_parameters;
};

}  // namespace

std::vector<LaunchSite> launch_sites(std::string_view text, const LaunchSiteOptions& options) {
  return SiteReader(text, options).read();
}

bool may_launch(std::string_view text, const LaunchSiteOptions& options) {
  if (text.find("<<<") != std::string_view::npos) return true;
  if (options.api_calls && text.find("cudaLaunch") != std::string_view::npos) return true;
  return std::ranges::any_of(options.wrappers,
                             [&](const LaunchWrapper& w) { return text.find(w.name) != std::string_view::npos; });
}

std::vector<LaunchSite> changed_launches(std::string_view base_text, std::string_view head_text) {
  return changed_launches(launch_sites(base_text), launch_sites(head_text));
}

std::vector<LaunchSite> changed_launches(std::span<const LaunchSite> base_launches,
                                         std::span<const LaunchSite> head_launches) {
  using Launch = std::tuple<std::string_view, std::string_view, std::string_view>;  // kernel, arguments, configuration
  std::map<Launch, std::size_t> before;
  std::set<std::string_view> launched_before;
  for (const LaunchSite& site : base_launches) {
    launched_before.insert(site.kernel);
    ++before[{site.kernel, site.compared_template_arguments, site.configuration}];
  }
  std::vector<LaunchSite> changed;
  for (const LaunchSite& site : head_launches) {
    if (!launched_before.contains(site.kernel)) continue;
    const auto found = before.find({site.kernel, site.compared_template_arguments, site.configuration});
    if (found != before.end() && found->second > 0) {
      --found->second;
      continue;
    }
    changed.push_back(site);
  }
  return changed;
}

}  // namespace kforecast::kernels
