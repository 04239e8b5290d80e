// SPDX-License-Identifier: Apache-2.0
#include "cubin/nv_info.hpp"

#include <fmt/format.h>

#include <array>

#include "cubin/little_endian.hpp"

namespace kforecast::cubin {

namespace {

// Names of the ids 0x00 to 0x40 as NVIDIA's tools print them (public cubin-reading code lists
// them); newer ids print as numbers.
constexpr std::array<std::string_view, 0x41> attribute_names = {
    "ERROR",
    "PAD",
    "IMAGE_SLOT",
    "JUMPTABLE_RELOCS",
    "CTAIDZ_USED",
    "MAX_THREADS",
    "IMAGE_OFFSET",
    "IMAGE_SIZE",
    "TEXTURE_NORMALIZED",
    "SAMPLER_INIT",
    "PARAM_CBANK",
    "SMEM_PARAM_OFFSETS",
    "CBANK_PARAM_OFFSETS",
    "SYNC_STACK",
    "TEXID_SAMPID_MAP",
    "EXTERNS",
    "REQNTID",
    "FRAME_SIZE",
    "MIN_STACK_SIZE",
    "SAMPLER_FORCE_UNNORMALIZED",
    "BINDLESS_IMAGE_OFFSETS",
    "BINDLESS_TEXTURE_BANK",
    "BINDLESS_SURFACE_BANK",
    "KPARAM_INFO",
    "SMEM_PARAM_SIZE",
    "CBANK_PARAM_SIZE",
    "QUERY_NUMATTRIB",
    "MAXREG_COUNT",
    "EXIT_INSTR_OFFSETS",
    "S2RCTAID_INSTR_OFFSETS",
    "CRS_STACK_SIZE",
    "NEED_CNP_WRAPPER",
    "NEED_CNP_PATCH",
    "EXPLICIT_CACHING",
    "ISTYPEP_USED",
    "MAX_STACK_SIZE",
    "SUQ_USED",
    "LD_CACHEMOD_INSTR_OFFSETS",
    "LOAD_CACHE_REQUEST",
    "ATOM_SYS_INSTR_OFFSETS",
    "COOP_GROUP_INSTR_OFFSETS",
    "COOP_GROUP_MAX_REGIDS",
    "SW1850030_WAR",
    "WMMA_USED",
    "HAS_PRE_V10_OBJECT",
    "ATOMF16_EMUL_INSTR_OFFSETS",
    "ATOM16_EMUL_INSTR_REG_MAP",
    "REGCOUNT",
    "SW2393858_WAR",
    "INT_WARP_WIDE_INSTR_OFFSETS",
    "SHARED_SCRATCH",
    "STATISTICS",
    "INDIRECT_BRANCH_TARGETS",
    "SW2861232_WAR",
    "SW_WAR",
    "CUDA_API_VERSION",
    "NUM_MBARRIERS",
    "MBARRIER_INSTR_OFFSETS",
    "COROUTINE_RESUME_ID_OFFSETS",
    "SAM_REGION_STACK_SIZE",
    "PER_REG_TARGET_PERF_STATS",
    "CTA_PER_CLUSTER",
    "EXPLICIT_CLUSTER",
    "MAX_CLUSTER_RANK",
    "INSTR_REG_MAP",
};

constexpr std::uint64_t record_header_size = 2;
constexpr std::uint64_t fixed_value_size = 2;

}  // namespace

Result<std::vector<NvInfoAttribute>> parse_nv_info(std::span<const std::byte> bytes, std::string_view section_name) {
  std::vector<NvInfoAttribute> attributes;
  std::uint64_t at = 0;
  while (at < bytes.size()) {
    const auto format = read_u8(bytes, at);
    const auto id = read_u8(bytes, at + 1);
    if (!id)
      return fail(ExitCode::could_not_run,
                  fmt::format("malformed cubin: {} ends in the middle of an attribute (offset {})", section_name, at));
    std::uint64_t value_offset = at + record_header_size;
    std::uint64_t value_size = fixed_value_size;
    switch (static_cast<AttributeFormat>(*format)) {
      case AttributeFormat::no_value:
      case AttributeFormat::byte_value:
      case AttributeFormat::half_value:
        break;
      case AttributeFormat::sized_value: {
        const auto size = read_u16(bytes, value_offset);
        if (!size)
          return fail(ExitCode::could_not_run, fmt::format("malformed cubin: {} ends inside the size of attribute {} "
                                                           "(offset {})",
                                                           section_name, attribute_name(*id), at));
        value_offset += 2;
        value_size = *size;
        break;
      }
      default:
        return fail(ExitCode::could_not_run, fmt::format("malformed cubin: attribute at offset {} of {} has format "
                                                         "{:#04x}, which is none of NVAL, BVAL, HVAL, SVAL",
                                                         at, section_name, *format));
    }
    const auto value = byte_range(bytes, value_offset, value_size);
    if (!value)
      return fail(ExitCode::could_not_run,
                  fmt::format("malformed cubin: attribute {} at offset {} of {} claims {} bytes, but only {} remain",
                              attribute_name(*id), at, section_name, value_size,
                              bytes.size() - std::min<std::uint64_t>(bytes.size(), value_offset)));
    attributes.push_back(NvInfoAttribute{.format = static_cast<AttributeFormat>(*format),
                                         .id = *id,
                                         .value = std::vector<std::byte>(value->begin(), value->end())});
    at = value_offset + value_size;
  }
  return attributes;
}

std::string attribute_name(std::uint8_t id) {
  if (id < attribute_names.size()) return fmt::format("EIATTR_{}", attribute_names[id]);
  return fmt::format("EIATTR {:#04x}", id);
}

}  // namespace kforecast::cubin
