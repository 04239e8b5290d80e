// SPDX-License-Identifier: Apache-2.0
#include "cubin/cubin_kernel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <iterator>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "cubin/little_endian.hpp"
#include "cubin/module_index.hpp"
#include "cubin/nv_info.hpp"
#include "cubin/symbol_name.hpp"

namespace kforecast::cubin {

namespace {

// `name` with every occurrence of the kernel's own symbol replaced by "<self>".
std::string self_relative(std::string name, const std::string& self) {
  if (self.empty()) return name;
  for (auto at = name.find(self); at != std::string::npos; at = name.find(self, at + 6)) name.replace(at, self.size(), "<self>");
  return name;
}

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

// Bounds the work of following calls: a step is one relocation or call graph edge looked at
// for one kernel, and each may add one shared callee to it. Real cubins stay far below (2,000
// kernels reaching 20 functions of 50 relocations each is 2 million); a hostile file of a few
// MB could otherwise ask for billions of steps and gigabytes of callee lists.
constexpr std::size_t max_call_steps = 16'000'000;

struct CodeRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

class KernelReader {
 public:
  KernelReader(const ModuleIndex& index, const ModuleAddresses& addresses,
               std::shared_ptr<const std::vector<CubinData>> module_data)
      : m_index(index), m_addresses(addresses), m_module_data(std::move(module_data)) {}

  Result<CubinKernel> read(std::uint32_t symbol) {
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
              [](const auto& a, const auto& b) { return a->name < b->name; });
    read_sections(elf_symbol.name, kernel);
    kernel.module_data = m_module_data;
    read_facts(kernel);
    return kernel;
  }

 private:
  // The callees nvcc cloned into a kernel's text section: FUNC symbols other than the kernel,
  // sorted by where they start. They must not overlap (nvcc's never do), which also keeps the
  // bytes copied for them within the section's size.
  Result<std::vector<std::pair<std::uint32_t, CodeRange>>> clone_ranges(std::uint32_t kernel,
                                                                        const ElfSection& section) const {
    std::vector<std::pair<std::uint32_t, CodeRange>> clones;
    for (const auto function : m_index.functions_in(m_index.file().symbols()[kernel].section)) {
      if (function == kernel) continue;
      const auto& clone = m_index.file().symbols()[function];
      if (clone.other & entry_point_flag)
        return malformed(fmt::format("kernels {} and {} share the text section {}",
                                     m_index.file().symbols()[kernel].name, clone.name, section.name));
      if (!byte_range(section.bytes, clone.value, clone.size))
        return malformed(fmt::format("function {} ({} bytes at {}) lies outside its section {} ({} bytes)", clone.name,
                                     clone.size, clone.value, section.name, section.bytes.size()));
      clones.push_back({function, CodeRange{clone.value, clone.value + clone.size}});
    }
    std::sort(clones.begin(), clones.end(),
              [](const auto& a, const auto& b) { return a.second.begin < b.second.begin; });
    for (std::size_t i = 1; i < clones.size(); ++i)
      if (clones[i].second.begin < clones[i - 1].second.end)
        return malformed(fmt::format("functions {} and {} overlap in section {}",
                                     m_index.file().symbols()[clones[i - 1].first].name,
                                     m_index.file().symbols()[clones[i].first].name, section.name));
    return clones;
  }

  // The kernel's text section: its own code, and the callees nvcc cloned into it.
  Result<void> read_code(std::uint32_t symbol, CubinKernel& kernel) {
    const auto section_index = m_index.file().symbols()[symbol].section;
    const auto& section = m_index.file().sections()[section_index];
    kernel.instructions = section.bytes.size() / instruction_bytes;
    auto clones = clone_ranges(symbol, section);
    if (!clones) return std::unexpected(clones.error());
    std::vector<CubinFunction> cloned;
    std::uint64_t copied = 0;
    for (const auto& [function, range] : *clones) {
      kernel.body.code.insert(kernel.body.code.end(), section.bytes.begin() + static_cast<std::ptrdiff_t>(copied),
                              section.bytes.begin() + static_cast<std::ptrdiff_t>(range.begin));
      copied = range.end;
      auto attributes = m_index.attributes_of(function);
      if (!attributes) return std::unexpected(attributes.error());
      const auto code = section.bytes.subspan(range.begin, range.end - range.begin);
      cloned.push_back(CubinFunction{.name = clone_callee_name(m_index.file().symbols()[function].name, kernel.symbol),
                                     .code = copy_of(code),
                                     .module_references = m_addresses.references_in(code),
                                     .relocations = {},
                                     .attributes = std::move(*attributes)});
    }
    kernel.body.code.insert(kernel.body.code.end(), section.bytes.begin() + static_cast<std::ptrdiff_t>(copied),
                            section.bytes.end());
    kernel.body.module_references = m_addresses.references_in(kernel.body.code);
    // Each relocation belongs to the function whose code it patches, its offset made relative.
    for (auto relocation : m_index.named_relocations(section_index)) {
      const auto after =
          std::upper_bound(clones->begin(), clones->end(), relocation.offset,
                           [](std::uint64_t offset, const auto& clone) { return offset < clone.second.begin; });
      if (after != clones->begin() && relocation.offset < std::prev(after)->second.end) {
        const auto clone = static_cast<std::size_t>(std::prev(after) - clones->begin());
        relocation.offset -= (*clones)[clone].second.begin;
        cloned[clone].relocations.push_back(std::move(relocation));
      } else {
        kernel.body.relocations.push_back(std::move(relocation));
      }
    }
    for (auto& function : cloned) kernel.callees.push_back(std::make_shared<const CubinFunction>(std::move(function)));
    kernel.body.name = kernel.normalized_symbol;
    kernel.body.section_flags = section.flags;
    kernel.body.section_info_top = static_cast<std::uint8_t>(section.info >> 24);
    auto attributes = m_index.attributes_of(symbol);
    if (!attributes) return std::unexpected(attributes.error());
    kernel.body.attributes = std::move(*attributes);
    // What the kernel's own records name of itself (its parameter bank's section, its own text)
    // holds its name: said as "<self>", so that a kernel renamed with its code unchanged compares
    // as the same.
    for (auto& attribute : kernel.body.attributes)
      for (auto& name : attribute.symbols) name = self_relative(name, kernel.normalized_symbol);
    for (auto& relocation : kernel.body.relocations)
      relocation.target = self_relative(relocation.target, kernel.normalized_symbol);
    return {};
  }

  // A function in a section of its own, read once however many kernels call it.
  Result<std::shared_ptr<const CubinFunction>> separate_function(std::uint32_t symbol) {
    const auto section = m_index.file().symbols()[symbol].section;
    if (const auto known = m_separate_functions.find(section); known != m_separate_functions.end())
      return known->second;
    auto attributes = m_index.attributes_of(symbol);
    if (!attributes) return std::unexpected(attributes.error());
    const auto& text = m_index.file().sections()[section];
    auto function = std::make_shared<const CubinFunction>(
        CubinFunction{.name = m_index.symbol_name(symbol),
                      .code = copy_of(text.bytes),
                      .module_references = m_addresses.references_in(text.bytes),
                      .relocations = m_index.named_relocations(section),
                      .attributes = std::move(*attributes),
                      .section_flags = text.flags,
                      .section_info_top = static_cast<std::uint8_t>(text.info >> 24)});
    m_separate_functions.emplace(section, function);
    return function;
  }

  // Functions in sections of their own that the kernel reaches through relocations (calls in
  // relocatable code) or the call graph, transitively; each section once, however reached.
  Result<void> read_separate_callees(std::uint32_t symbol, CubinKernel& kernel) {
    const auto& symbols = m_index.file().symbols();
    const auto kernel_section = symbols[symbol].section;
    std::unordered_set<std::uint32_t> visited_sections{kernel_section};
    std::deque<std::uint32_t> pending_sections{kernel_section};
    const auto reach = [&](std::uint32_t callee) -> Result<void> {
      if (++m_call_steps > max_call_steps)
        return fail(ExitCode::could_not_run,
                    fmt::format("cubin too complex to compare: following its kernels' calls took more than {} steps",
                                max_call_steps));
      const auto& target = symbols[callee];
      if (target.type != symbol_type_function || target.section == ElfSymbol::no_section) return {};
      if (!visited_sections.insert(target.section).second) return {};
      pending_sections.push_back(target.section);
      auto function = separate_function(callee);
      if (!function) return std::unexpected(function.error());
      kernel.callees.push_back(std::move(*function));
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
    std::optional<int> barrier_record;
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
      if (attribute.id == static_cast<std::uint8_t>(AttributeId::max_register_count))
        if (const auto limit = read_u16(attribute.value, 0)) kernel.register_limit = *limit;
      if (attribute.id == static_cast<std::uint8_t>(AttributeId::min_stack_size))
        kernel.min_stack_bytes = read_u32(attribute.value, 0);
      if (attribute.id == static_cast<std::uint8_t>(AttributeId::num_barriers))
        if (const auto barriers = read_u16(attribute.value, 0)) barrier_record = *barriers;
    }
    kernel.barriers = barrier_record ? *barrier_record : static_cast<int>((kernel.body.section_flags >> 20) & 0x7f);
  }

  const ModuleIndex& m_index;
  const ModuleAddresses& m_addresses;
  std::shared_ptr<const std::vector<CubinData>> m_module_data;
  std::unordered_map<std::uint32_t, std::shared_ptr<const CubinFunction>> m_separate_functions;  // by section
  std::size_t m_call_steps = 0;
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
  const auto addresses = ModuleAddresses::build(*index);
  KernelReader reader(*index, addresses, std::make_shared<const std::vector<CubinData>>(read_module_data(*index)));
  std::vector<CubinKernel> kernels;
  // nvcc names each kernel once; a name twice would let one kernel claim the other's sections.
  std::unordered_set<std::string_view> names;
  const auto& symbols = file->symbols();
  for (std::uint32_t i = 0; i < symbols.size(); ++i) {
    if (!is_kernel(symbols[i])) continue;
    if (!names.insert(symbols[i].name).second)
      return malformed(fmt::format("two kernels are named {}", symbols[i].name));
    auto kernel = reader.read(i);
    if (!kernel) return std::unexpected(kernel.error());
    kernels.push_back(std::move(*kernel));
  }
  return kernels;
}

}  // namespace kforecast::cubin
