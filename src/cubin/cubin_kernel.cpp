// SPDX-License-Identifier: Apache-2.0
#include "cubin/cubin_kernel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_set>

#include "cubin/little_endian.hpp"
#include "cubin/module_index.hpp"
#include "cubin/nv_info.hpp"
#include "cubin/symbol_name.hpp"

namespace kforecast::cubin {

namespace {

constexpr std::uint8_t entry_point_flag = 0x10;  // st_other of a kernel (CUDA's STO_ENTRY)
constexpr std::uint64_t instruction_bytes = 16;  // every SASS instruction since sm_70
constexpr std::string_view shared_memory_prefix = ".nv.shared";
constexpr std::string_view parameter_bank_prefix = ".nv.constant0";

std::unexpected<Error> malformed(std::string what) {
  return fail(ExitCode::could_not_run, "malformed cubin: " + std::move(what));
}

bool is_kernel(const ElfSymbol& symbol) {
  return symbol.type == symbol_type_function && (symbol.other & entry_point_flag) != 0 &&
         symbol.section != ElfSymbol::no_section;
}

std::vector<std::byte> copy_of(std::span<const std::byte> bytes) { return {bytes.begin(), bytes.end()}; }

// A callee nvcc cloned into the kernel's text section is named `$<kernel>$<callee>`.
std::string clone_callee_name(const std::string& clone, const std::string& kernel) {
  const auto prefix = "$" + kernel + "$";
  return normalize_symbol(clone.starts_with(prefix) ? std::string_view(clone).substr(prefix.size()) : clone);
}

class KernelReader {
 public:
  explicit KernelReader(const ModuleIndex& index) : m_index(index) {}

  Result<CubinKernel> read(std::uint32_t symbol, const std::vector<CubinData>& module_data) const {
    const auto& elf_symbol = m_index.file().symbols()[symbol];
    CubinKernel kernel;
    kernel.symbol = elf_symbol.name;
    kernel.normalized_symbol = normalize_symbol(elf_symbol.name);
    kernel.signature = demangle(kernel.normalized_symbol);
    auto name = split_signature(kernel.signature);
    kernel.name = std::move(name.name);
    kernel.template_arguments = std::move(name.template_arguments);
    if (auto done = read_code(symbol, kernel); !done) return std::unexpected(done.error());
    if (auto done = read_separate_callees(symbol, kernel); !done) return std::unexpected(done.error());
    std::sort(kernel.callees.begin(), kernel.callees.end(),
              [](const CubinFunction& a, const CubinFunction& b) { return a.name < b.name; });
    read_sections(elf_symbol.name, kernel);
    kernel.module_data = module_data;
    read_facts(kernel);
    return kernel;
  }

 private:
  // The kernel's text section: its own code, and the callees nvcc cloned into it, each a FUNC
  // symbol covering part of the section.
  Result<void> read_code(std::uint32_t symbol, CubinKernel& kernel) const {
    const auto section_index = m_index.file().symbols()[symbol].section;
    const auto& section = m_index.file().sections()[section_index];
    kernel.instructions = section.bytes.size() / instruction_bytes;
    std::vector<bool> in_clone(section.bytes.size(), false);
    struct Range {
      std::uint64_t begin, end;
    };
    std::vector<Range> clones;
    for (const auto function : m_index.functions_in(section_index)) {
      if (function == symbol) continue;
      const auto& clone = m_index.file().symbols()[function];
      const auto code = byte_range(section.bytes, clone.value, clone.size);
      if (!code)
        return malformed(fmt::format("function {} ({} bytes at {}) lies outside its section {} ({} bytes)", clone.name,
                                     clone.size, clone.value, section.name, section.bytes.size()));
      auto attributes = m_index.attributes_of(function);
      if (!attributes) return std::unexpected(attributes.error());
      kernel.callees.push_back(CubinFunction{.name = clone_callee_name(clone.name, kernel.symbol),
                                             .code = copy_of(*code),
                                             .relocations = {},
                                             .attributes = std::move(*attributes)});
      clones.push_back({clone.value, clone.value + clone.size});
      std::fill(in_clone.begin() + static_cast<std::ptrdiff_t>(clone.value),
                in_clone.begin() + static_cast<std::ptrdiff_t>(clone.value + clone.size), true);
    }
    for (std::size_t i = 0; i < section.bytes.size(); ++i)
      if (!in_clone[i]) kernel.body.code.push_back(section.bytes[i]);
    // Each relocation belongs to the function whose code it patches, its offset made relative.
    for (auto relocation : m_index.named_relocations(section_index)) {
      const auto clone = std::find_if(clones.begin(), clones.end(), [&](const Range& range) {
        return relocation.offset >= range.begin && relocation.offset < range.end;
      });
      if (clone == clones.end()) {
        kernel.body.relocations.push_back(std::move(relocation));
        continue;
      }
      relocation.offset -= clone->begin;
      kernel.callees[static_cast<std::size_t>(clone - clones.begin())].relocations.push_back(std::move(relocation));
    }
    kernel.body.name = kernel.normalized_symbol;
    auto attributes = m_index.attributes_of(symbol);
    if (!attributes) return std::unexpected(attributes.error());
    kernel.body.attributes = std::move(*attributes);
    return {};
  }

  // Functions in sections of their own that the kernel reaches through relocations (calls in
  // relocatable code) or the call graph, transitively; each section once, however reached.
  Result<void> read_separate_callees(std::uint32_t symbol, CubinKernel& kernel) const {
    const auto& symbols = m_index.file().symbols();
    const auto& sections = m_index.file().sections();
    const auto kernel_section = symbols[symbol].section;
    std::unordered_set<std::uint32_t> visited_sections{kernel_section};
    std::deque<std::uint32_t> pending_sections{kernel_section};
    const auto reach = [&](std::uint32_t callee) -> Result<void> {
      const auto& target = symbols[callee];
      if (target.type != symbol_type_function || target.section == ElfSymbol::no_section) return {};
      if (!visited_sections.insert(target.section).second) return {};
      pending_sections.push_back(target.section);
      auto attributes = m_index.attributes_of(callee);
      if (!attributes) return std::unexpected(attributes.error());
      kernel.callees.push_back(CubinFunction{.name = m_index.symbol_name(callee),
                                             .code = copy_of(sections[target.section].bytes),
                                             .relocations = m_index.named_relocations(target.section),
                                             .attributes = std::move(*attributes)});
      return {};
    };
    while (!pending_sections.empty()) {
      const auto section = pending_sections.front();
      pending_sections.pop_front();
      for (const auto* relocation : m_index.relocations_of(section))
        if (auto done = reach(relocation->symbol); !done) return done;
      for (const auto function : m_index.functions_in(section))
        for (const auto callee : m_index.callgraph_callees(function))
          if (auto done = reach(callee); !done) return done;
    }
    return {};
  }

  void read_sections(const std::string& symbol, CubinKernel& kernel) const {
    for (const auto index : m_index.sections_of(symbol)) {
      const auto& section = m_index.file().sections()[index];
      const auto prefix = section.name.substr(0, section.name.size() - symbol.size() - 1);
      kernel.sections.push_back(CubinData{.name = prefix,
                                          .size = section.size,
                                          .bytes = copy_of(section.bytes),
                                          .relocations = m_index.named_relocations(index)});
    }
    std::sort(kernel.sections.begin(), kernel.sections.end(),
              [](const CubinData& a, const CubinData& b) { return a.name < b.name; });
  }

  static void read_facts(CubinKernel& kernel) {
    for (const auto& data : kernel.sections) {
      if (data.name == shared_memory_prefix) kernel.static_shared_bytes = data.size;
      if (data.name == parameter_bank_prefix) kernel.parameter_bank_bytes = data.size;
    }
    for (const auto& attribute : kernel.body.attributes) {
      if (attribute.id == static_cast<std::uint8_t>(AttributeId::register_count))
        if (const auto registers = read_u32(attribute.value, 0)) kernel.registers = static_cast<int>(*registers);
      if (attribute.id == static_cast<std::uint8_t>(AttributeId::max_threads)) {
        const auto x = read_u32(attribute.value, 0), y = read_u32(attribute.value, 4), z = read_u32(attribute.value, 8);
        if (x && y && z) kernel.max_threads = static_cast<std::uint32_t>(std::uint64_t{*x} * *y * *z);
      }
    }
  }

  const ModuleIndex& m_index;
};

// Sections any kernel may read: everything that is not code, a function's own (.nv.X.<function>,
// .nv.info.<function>), a relocation section (folded into what it patches), or ignored.
std::vector<CubinData> read_module_data(const ModuleIndex& index) {
  const auto& file = index.file();
  std::set<std::uint32_t> owned;
  for (const auto& symbol : file.symbols())
    if (symbol.type == symbol_type_function)
      for (const auto section : index.sections_of(symbol.name)) owned.insert(section);
  std::vector<CubinData> data;
  for (std::uint32_t i = 0; i < file.sections().size(); ++i) {
    const auto& section = file.sections()[i];
    if (section.type == 0 || is_ignored_section(section.name) || owned.contains(i)) continue;
    if (section.type == section_type_rel || section.type == section_type_rela) continue;
    if (section.type == section_type_symbol_table || section.type == section_type_string_table) continue;
    if (section.name.starts_with(".text") || section.name.starts_with(".nv.info")) continue;
    data.push_back(CubinData{.name = normalize_symbol(section.name),
                             .size = section.size,
                             .bytes = copy_of(section.bytes),
                             .relocations = index.named_relocations(i)});
  }
  if (!index.module_attributes().empty()) {
    // The global .nv.info records about no function, kept as one pseudo-section.
    CubinData records{.name = ".nv.info (module)", .size = 0, .bytes = {}, .relocations = {}};
    for (const auto& attribute : index.module_attributes()) {
      records.bytes.push_back(static_cast<std::byte>(attribute.id));
      records.bytes.insert(records.bytes.end(), attribute.value.begin(), attribute.value.end());
      for (const auto& symbol : attribute.symbols)
        records.relocations.push_back(CubinRelocation{.offset = 0, .type = 0, .target = symbol, .addend = 0});
    }
    records.size = records.bytes.size();
    data.push_back(std::move(records));
  }
  return data;
}

}  // namespace

Result<std::vector<CubinKernel>> read_cubin_kernels(std::span<const std::byte> cubin) {
  auto file = ElfFile::parse(cubin);
  if (!file) return std::unexpected(file.error());
  if (file->type() != elf_type_executable && file->type() != elf_type_relocatable)
    return malformed(fmt::format("ELF type {} is neither ET_EXEC (2) nor ET_REL (1)", file->type()));
  auto index = ModuleIndex::build(*file);
  if (!index) return std::unexpected(index.error());
  const auto module_data = read_module_data(*index);
  const KernelReader reader(*index);
  std::vector<CubinKernel> kernels;
  const auto& symbols = file->symbols();
  for (std::uint32_t i = 0; i < symbols.size(); ++i) {
    if (!is_kernel(symbols[i])) continue;
    auto kernel = reader.read(i, module_data);
    if (!kernel) return std::unexpected(kernel.error());
    kernels.push_back(std::move(*kernel));
  }
  return kernels;
}

}  // namespace kforecast::cubin
