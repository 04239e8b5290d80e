// SPDX-License-Identifier: Apache-2.0
#include "context/flag_filter.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include <fmt/format.h>

#include "base/shell_text.hpp"

namespace kforecast::context {
namespace {

enum class Rule {
  include_folder,  // -I: checked by admit_include_folder
  define,
  undefine,
  standard,
  allow,  // passed as "-name" or "-name=value"
  ptxas,  // -Xptxas: passed where every ptxas option in it is harmless
  relocatable,  // -dc: relocatable device code, passed as -rdc=true (kforecast picks the output)
  drop,   // not passed, harmless: the reason says why kforecast does not need it
  refuse  // not passed, and the reason says what it would have done
};

// What an option's value must look like, for options that are passed.
enum class ValueShape { none, any, boolean, count, level, diagnostics };

struct OptionSpec {
  std::string_view name;
  ValueShape value;
  Rule rule;
  std::string_view reason = {};  // for drop and refuse
  // Whether the value may follow with nothing between (-Iinclude, -DNAME, -O3): one-letter options.
  bool joined = false;
};

constexpr std::string_view picks_arch = "kforecast picks the architecture";
constexpr std::string_view picks_output = "kforecast picks the output";
constexpr std::string_view host_only = "a host compiler option: kforecast compiles device code";
constexpr std::string_view runs_program = "runs a program";
constexpr std::string_view reads_file = "reads a file";

using enum Rule;
using enum ValueShape;

// nvcc's spellings of each option (nvcc accepts "-name value", "-name=value" and, for one-letter
// options, "-Nvalue"). To extend: add a row; an option not here is refused.
constexpr std::array options{
    OptionSpec{"-I", any, include_folder, {}, true},
    OptionSpec{"--include-path", any, include_folder},
    OptionSpec{"-isystem", any, include_folder, {}, true},
    OptionSpec{"--system-include", any, include_folder},
    OptionSpec{"-D", any, define, {}, true},
    OptionSpec{"--define-macro", any, define},
    OptionSpec{"-U", any, undefine, {}, true},
    OptionSpec{"--undefine-macro", any, undefine},
    OptionSpec{"-std", any, standard},
    OptionSpec{"--std", any, standard},
    // Code generation and language extensions.
    OptionSpec{"-O", level, allow, {}, true},
    OptionSpec{"--optimize", level, allow},
    OptionSpec{"-use_fast_math", none, allow},
    OptionSpec{"--use_fast_math", none, allow},
    OptionSpec{"-extended-lambda", none, allow},
    OptionSpec{"--extended-lambda", none, allow},
    OptionSpec{"-expt-extended-lambda", none, allow},
    OptionSpec{"--expt-extended-lambda", none, allow},
    OptionSpec{"-expt-relaxed-constexpr", none, allow},
    OptionSpec{"--expt-relaxed-constexpr", none, allow},
    OptionSpec{"-ftz", boolean, allow},
    OptionSpec{"--ftz", boolean, allow},
    OptionSpec{"-prec-div", boolean, allow},
    OptionSpec{"--prec-div", boolean, allow},
    OptionSpec{"-prec-sqrt", boolean, allow},
    OptionSpec{"--prec-sqrt", boolean, allow},
    OptionSpec{"-fmad", boolean, allow},
    OptionSpec{"--fmad", boolean, allow},
    OptionSpec{"-maxrregcount", count, allow},
    OptionSpec{"--maxrregcount", count, allow},
    OptionSpec{"-rdc", boolean, allow},
    OptionSpec{"--relocatable-device-code", boolean, allow},
    OptionSpec{"-lineinfo", none, allow},
    OptionSpec{"--generate-line-info", none, allow},
    OptionSpec{"-default-device", none, allow},
    OptionSpec{"--default-device", none, allow},
    OptionSpec{"-extra-device-vectorization", none, allow},
    OptionSpec{"--extra-device-vectorization", none, allow},
    OptionSpec{"-restrict", none, allow},
    OptionSpec{"--restrict", none, allow},
    OptionSpec{"-w", none, allow},
    OptionSpec{"--disable-warnings", none, allow},
    OptionSpec{"-diag-suppress", diagnostics, allow},
    OptionSpec{"--diag-suppress", diagnostics, allow},
    OptionSpec{"-Xptxas", any, ptxas},
    OptionSpec{"--ptxas-options", any, ptxas},
    // Architecture: kforecast compiles for the GPU it compares on.
    OptionSpec{"-arch", any, drop, picks_arch},
    OptionSpec{"--gpu-architecture", any, drop, picks_arch},
    OptionSpec{"-gencode", any, drop, picks_arch},
    OptionSpec{"--generate-code", any, drop, picks_arch},
    OptionSpec{"-code", any, drop, picks_arch},
    OptionSpec{"--gpu-code", any, drop, picks_arch},
    // Mode, output and dependency files: kforecast asks for device code of its own.
    OptionSpec{"-c", none, drop, picks_output},
    OptionSpec{"--compile", none, drop, picks_output},
    OptionSpec{"-x", any, drop, picks_output},
    OptionSpec{"--x", any, drop, picks_output},
    OptionSpec{"-o", any, drop, picks_output},
    OptionSpec{"--output-file", any, drop, picks_output},
    OptionSpec{"-odir", any, drop, picks_output},
    OptionSpec{"--output-directory", any, drop, picks_output},
    OptionSpec{"-cubin", none, drop, picks_output},
    OptionSpec{"-ptx", none, drop, picks_output},
    OptionSpec{"-fatbin", none, drop, picks_output},
    OptionSpec{"-dc", none, relocatable},
    OptionSpec{"--device-c", none, relocatable},
    OptionSpec{"-dw", none, drop, picks_output},
    OptionSpec{"-dlink", none, drop, picks_output},
    OptionSpec{"-E", none, drop, picks_output},
    OptionSpec{"-M", none, drop, picks_output},
    OptionSpec{"-MM", none, drop, picks_output},
    OptionSpec{"-MD", none, drop, picks_output},
    OptionSpec{"-MMD", none, drop, picks_output},
    OptionSpec{"-MP", none, drop, picks_output},
    OptionSpec{"--generate-dependencies-with-compile", none, drop, picks_output},
    OptionSpec{"--generate-nonsystem-dependencies-with-compile", none, drop, picks_output},
    OptionSpec{"-MF", any, drop, picks_output},
    OptionSpec{"--dependency-output", any, drop, picks_output},
    OptionSpec{"-MT", any, drop, picks_output},
    OptionSpec{"--dependency-target-name", any, drop, picks_output},
    OptionSpec{"-keep", none, drop, picks_output},
    OptionSpec{"--keep", none, drop, picks_output},
    OptionSpec{"-keep-dir", any, drop, picks_output},
    OptionSpec{"--keep-dir", any, drop, picks_output},
    // Harmless and not needed to compile device code.
    OptionSpec{"--threads", any, drop, "kforecast sets its own parallelism"},
    OptionSpec{"-t", any, drop, "kforecast sets its own parallelism", true},
    OptionSpec{"-Xcompiler", any, drop, host_only},
    OptionSpec{"--compiler-options", any, drop, host_only},
    OptionSpec{"-forward-unknown-to-host-compiler", none, drop, host_only},
    OptionSpec{"--forward-unknown-to-host-compiler", none, drop, host_only},
    OptionSpec{"-g", none, drop, host_only},
    OptionSpec{"--debug", none, drop, host_only},
    OptionSpec{"-Xcudafe", any, drop, "a front-end option kforecast does not pass"},
    OptionSpec{"--cudafe-options", any, drop, "a front-end option kforecast does not pass"},
    OptionSpec{"-Xnvlink", any, drop, "a device linker option: kforecast does not link"},
    OptionSpec{"--nvlink-options", any, drop, "a device linker option: kforecast does not link"},
    OptionSpec{"-v", none, drop, "verbose output"},
    OptionSpec{"--verbose", none, drop, "verbose output"},
    OptionSpec{"-time", any, drop, "writes timing to a file"},
    OptionSpec{"--time", any, drop, "writes timing to a file"},
    // What would run a program, read a file or link.
    OptionSpec{"-ccbin", any, refuse, runs_program},
    OptionSpec{"--compiler-bindir", any, refuse, runs_program},
    OptionSpec{"-run", none, refuse, runs_program},
    OptionSpec{"--run", none, refuse, runs_program},
    OptionSpec{"-run-args", any, refuse, runs_program},
    OptionSpec{"--run-args", any, refuse, runs_program},
    OptionSpec{"-optf", any, refuse, reads_file},
    OptionSpec{"--options-file", any, refuse, reads_file},
    OptionSpec{"-include", any, refuse, reads_file},
    OptionSpec{"--pre-include", any, refuse, reads_file},
    OptionSpec{"-Xlinker", any, refuse, "passes options to the linker"},
    OptionSpec{"--linker-options", any, refuse, "passes options to the linker"},
    OptionSpec{"-Xarchive", any, refuse, "passes options to the archiver"},
    OptionSpec{"--archive-options", any, refuse, "passes options to the archiver"},
    OptionSpec{"-l", any, refuse, "links a library", true},
    OptionSpec{"--library", any, refuse, "links a library"},
    OptionSpec{"-L", any, refuse, "reads libraries from a folder", true},
    OptionSpec{"--library-path", any, refuse, "reads libraries from a folder"},
};

// ptxas options that change only what ptxas reports or how hard it optimises.
constexpr std::array<std::string_view, 12> harmless_ptxas{"-v",
                                                          "--verbose",
                                                          "-warn-spills",
                                                          "--warn-on-spills",
                                                          "-warn-lmem-usage",
                                                          "--warn-on-local-memory-usage",
                                                          "-O0",
                                                          "-O1",
                                                          "-O2",
                                                          "-O3",
                                                          "-suppress-stack-size-warning",
                                                          "--suppress-stack-size-warning"};

bool all_digits(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  return std::ranges::all_of(text, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool value_fits(ValueShape shape, std::string_view value) {
  switch (shape) {
    case none:
      return value.empty();
    case any:
      return true;
    case boolean:
      return value == "true" || value == "false";
    case count:
      return all_digits(value) && value.size() <= 4;
    case level:
      return value.size() == 1 && value[0] >= '0' && value[0] <= '3';
    case diagnostics:
      return !value.empty() && std::ranges::all_of(value, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ',';
      });
  }
  return false;
}

// nvcc's -std values: c++03, c++11, c++14, c++17, c++20 (and later years); no gnu++ dialects.
bool is_standard(std::string_view value) {
  return value.starts_with("c++") && value.size() == 5 && all_digits(value.substr(3));
}

bool harmless_ptxas_options(std::string_view value) {
  if (value.empty()) return false;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    if (std::ranges::find(harmless_ptxas, value.substr(start, comma - start)) == harmless_ptxas.end()) return false;
    start = comma + 1;
  }
  return true;
}

// One option and its value, found at arguments[index].
struct Match {
  const OptionSpec* spec = nullptr;
  std::string value;
  bool value_given = false;
  std::size_t used = 1;  // arguments consumed
  std::string written;   // as the project wrote it, for notes: "-ccbin g++"
};

std::optional<Match> match_option(std::span<const std::string> arguments, std::size_t index) {
  const std::string_view argument = arguments[index];
  // An exact name or name=value, in the table's order, before any joined form: "-default-device"
  // is not "-D" with "efault-device".
  for (const OptionSpec& spec : options) {
    if (argument == spec.name) {
      if (spec.value == none || index + 1 >= arguments.size()) return Match{&spec, {}, false, 1, arguments[index]};
      return Match{&spec, arguments[index + 1], true, 2, fmt::format("{} {}", argument, arguments[index + 1])};
    }
    if (spec.value != none && argument.size() > spec.name.size() + 1 && argument.starts_with(spec.name) &&
        argument[spec.name.size()] == '=')
      return Match{&spec, std::string(argument.substr(spec.name.size() + 1)), true, 1, arguments[index]};
  }
  for (const OptionSpec& spec : options)
    if (spec.joined && argument.size() > spec.name.size() && argument.starts_with(spec.name))
      return Match{&spec, std::string(argument.substr(spec.name.size())), true, 1, arguments[index]};
  return std::nullopt;
}

std::string spelled(const Match& match) {
  if (!match.value_given) return std::string(match.spec->name);
  if (match.spec->joined) return fmt::format("{}{}", match.spec->name, match.value);
  return fmt::format("{}={}", match.spec->name, match.value);
}

template <class T>
void add_once(std::vector<T>& items, T item) {
  if (std::ranges::find(items, item) == items.end()) items.push_back(std::move(item));
}

void add_define(CompileContext& context, std::pair<std::string, std::string> define) {
  // A later definition of the same name replaces an earlier one, as it does on nvcc's command line.
  auto same = std::ranges::find(context.defines, define.first, &std::pair<std::string, std::string>::first);
  if (same != context.defines.end())
    *same = std::move(define);
  else
    context.defines.push_back(std::move(define));
}

void apply(const Match& match, const FolderPlace& place, const FolderLookup& lookup, CompileContext& context) {
  const OptionSpec& spec = *match.spec;
  const auto refuse_with = [&](std::string_view reason) {
    context.refused.push_back(fmt::format("{} ({})", match.written, reason));
  };
  const auto drop_with = [&](std::string_view reason) {
    context.dropped.push_back(fmt::format("{} ({})", match.written, reason));
  };
  if (spec.value != none && !match.value_given) return refuse_with("its value is missing");
  // nvcc hands every argument to a shell (base/shell_text.hpp); a define may hold quotes, which
  // nvcc escapes, and real projects define string values ("-DNAME=\"{...}\"").
  const auto active = spec.rule == define ? shell_active_character(match.value) : shell_active_or_quote(match.value);
  if (active)
    return refuse_with(
        fmt::format("it holds {}, which the shell nvcc runs its steps in would act on", describe_character(*active)));
  switch (spec.rule) {
    case include_folder: {
      auto folder = admit_include_folder(match.value, place, lookup);
      if (!folder) return refuse_with(folder.error());
      return add_once(context.include_dirs, std::move(*folder));
    }
    case define: {
      auto parsed = parse_define(match.value);
      if (!parsed) return refuse_with("not NAME or NAME=VALUE");
      if (auto why = define_refusal(parsed->first, parsed->second)) return refuse_with(*why);
      return add_define(context, std::move(*parsed));
    }
    case undefine:
      if (!is_identifier(match.value)) return refuse_with("not a macro name");
      return add_once(context.undefines, match.value);
    case standard:
      if (!is_standard(match.value)) return refuse_with("not a C++ standard nvcc knows");
      context.standard = match.value;
      return;
    case allow:
      if (!value_fits(spec.value, match.value)) return refuse_with("an unexpected value");
      return add_once(context.flags, spelled(match));
    case ptxas:
      if (!harmless_ptxas_options(match.value)) return refuse_with("a ptxas option not on kforecast's allow-list");
      return add_once(context.flags, spelled(match));
    case relocatable:
      // Without it, a kernel that calls a device function of another file stops ptxas.
      return add_once(context.flags, std::string("-rdc=true"));
    case drop:
      return drop_with(spec.reason);
    case refuse:
      return refuse_with(spec.reason);
  }
}

}  // namespace

std::optional<std::pair<std::string, std::string>> parse_define(std::string_view text) {
  const std::size_t equals = text.find('=');
  const std::string_view name = text.substr(0, equals);
  const std::string value = equals == std::string_view::npos ? std::string() : std::string(text.substr(equals + 1));
  // A function-like macro, NAME(a,b)=body, keeps its parameter list in the name.
  const std::string_view bare = name.substr(0, name.find('('));
  if (!is_identifier(bare)) return std::nullopt;
  if (bare.size() != name.size() && !name.ends_with(')')) return std::nullopt;
  return std::pair{std::string(name), value};
}

void add_arguments(std::span<const std::string> arguments, const FolderPlace& place, const FolderLookup& lookup,
                   CompileContext& context) {
  std::size_t index = 0;
  while (index < arguments.size()) {
    const std::string& argument = arguments[index];
    if (argument.starts_with('@')) {
      context.refused.push_back(fmt::format("{} (reads a response file)", argument));
      ++index;
      continue;
    }
    if (!argument.starts_with('-') || argument == "-") {  // an input file
      ++index;
      continue;
    }
    const auto match = match_option(arguments, index);
    if (!match && (argument.starts_with("-W") || argument.starts_with("--W"))) {
      context.dropped.push_back(fmt::format("{} (a warning option kforecast does not pass)", argument));
      ++index;
      continue;
    }
    if (!match) {
      context.refused.push_back(fmt::format("{} (not on kforecast's allow-list)", argument));
      ++index;
      continue;
    }
    apply(*match, place, lookup, context);
    index += match->used;
  }
}

}  // namespace kforecast::context
