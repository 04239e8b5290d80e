// SPDX-License-Identifier: Apache-2.0
#include "embedded/kernel_features.hpp"

#include <algorithm>
#include <cmath>

#include "embedded/facts_cache.hpp"
#include "embedded/time_estimate.hpp"
#include "hardware/arch_limits.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::embedded {
namespace {

void set(FeatureVector& v, Feature feature, double value) { v.values[index(feature)] = value; }

bool group_present(FeatureGroup group, bool source, bool compiler, bool launch) {
  switch (group) {
    case FeatureGroup::source:
      return source;
    case FeatureGroup::compiler:
      return compiler;
    case FeatureGroup::launch:
      return launch;
  }
  return false;
}

}  // namespace

bool FeatureVector::has(FeatureGroup group) const { return group_present(group, source, compiler, launch); }
bool FeatureDelta::has(FeatureGroup group) const { return group_present(group, source, compiler, launch); }

FeatureVector kernel_features(const SourceFeatures& s, const std::optional<CompilerFacts>& compiler,
                              const std::optional<LaunchGeometry>& launch, const Gpu& gpu) {
  using enum Feature;
  FeatureVector v;
  v.source = s.kernel_found;
  set(v, loops, s.loops);
  set(v, loop_depth, s.loop_depth);
  set(v, unroll_pragmas, s.unroll_pragmas);
  set(v, shared_arrays, s.shared_arrays);
  set(v, padded_shared_arrays, s.padded_shared_arrays);
  set(v, barriers, s.barriers);
  set(v, atomics, s.atomics);
  set(v, warp_shuffles, s.warp_shuffles);
  set(v, vector_accesses, s.vector_accesses);
  set(v, tensor_core_code, s.tensor_core_code);
  set(v, thread_linear_accesses, s.thread_linear_accesses);
  set(v, thread_strided_accesses, s.thread_strided_accesses);
  set(v, thread_strided_stores, s.thread_strided_stores);
  set(v, local_arrays, s.local_arrays);
  set(v, fp64_code, s.fp64_code);
  set(v, math_calls, s.math_calls);
  set(v, branches, s.branches);
  set(v, source_tokens, s.source_tokens);
  if (compiler && compiler->mix.found) {
    v.compiler = true;
    const cuda::KernelResources& r = compiler->resources;
    const PtxMix& m = compiler->mix;
    set(v, registers, r.registers);
    set(v, spill_bytes, static_cast<double>(r.spill_store_bytes + r.spill_load_bytes));
    set(v, stack_bytes, static_cast<double>(r.stack_frame_bytes + r.local_bytes));
    set(v, static_shared_bytes, static_cast<double>(r.shared_bytes));
    set(v, ptx_instructions, m.instructions);
    set(v, global_loads, m.global_loads);
    set(v, global_loads_128, m.global_loads_128);
    set(v, global_stores, m.global_stores);
    set(v, shared_loads, m.shared_loads);
    set(v, shared_stores, m.shared_stores);
    set(v, local_accesses, m.local_accesses);
    set(v, fma_instructions, m.fma);
    set(v, fp64_instructions, m.fp64);
    set(v, tensor_instructions, m.tensor);
    set(v, atomic_instructions, m.atomics);
    set(v, branch_instructions, m.branches);
    set(v, special_instructions, m.special);
    set(v, shuffle_instructions, m.shuffles);
    set(v, barrier_instructions, m.barriers);
    set(v, global_load_bytes, m.global_load_bytes);
    set(v, global_store_bytes, m.global_store_bytes);
    const double global_accesses = m.global_loads + m.global_stores;
    set(v, global_access_bits,
        global_accesses > 0 ? 8 * (m.global_load_bytes + m.global_store_bytes) / global_accesses : 0.0);
    set(v, shared_atomic_instructions, m.shared_atomics);
    set(v, global_atomic_instructions, std::max(0.0, m.atomics - m.shared_atomics));
    set(v, fp32_instructions, m.fp32);
    set(v, fp64_share, m.instructions > 0 ? m.fp64 / m.instructions : 0.0);
    set(v, special_share, m.instructions > 0 ? m.special / m.instructions : 0.0);
    set(v, ptx_loops, m.backward_branches);
    set(v, shared_per_global, (m.shared_loads + m.shared_stores) / std::max(1.0, global_accesses));
    set(v, barriers_per_global, m.barriers / std::max(1.0, global_accesses));
  }
  if (launch) {
    v.launch = true;
    const std::int64_t threads = launch->block[0] * launch->block[1] * launch->block[2];
    const std::int64_t blocks = launch->grid[0] * launch->grid[1] * launch->grid[2];
    set(v, block_threads, static_cast<double>(threads));
    set(v, grid_blocks, static_cast<double>(blocks));
    set(v, dynamic_shared_bytes, static_cast<double>(launch->shared_bytes));
    if (const auto limits = hardware::arch_limits(gpu.compute_capability)) {
      const BlockResources block{
          .threads = static_cast<int>(std::min<std::int64_t>(threads, 1 << 20)),
          .registers_per_thread = v.compiler ? compiler->resources.registers : 0,
          .shared_bytes = launch->shared_bytes + (v.compiler ? compiler->resources.shared_bytes : 0)};
      const Occupancy occupancy = theoretical_occupancy(*limits, block);
      set(v, Feature::occupancy, occupancy.fraction);
      const double resident = static_cast<double>(occupancy.blocks_per_sm) * gpu.sm_count;
      set(v, waves, resident > 0 ? static_cast<double>(blocks) / resident : 0.0);
      if (v.compiler) {
        set(v, bytes_in_flight, static_cast<double>(occupancy.active_warps) * 32 * compiler->mix.global_load_bytes);
        if (const auto estimate = estimate_time(
                compiler->mix, static_cast<double>(threads) * static_cast<double>(blocks), gpu, *limits)) {
          set(v, est_dram_time, estimate->dram_us);
          set(v, est_compute_time, estimate->compute_us);
          set(v, est_time, estimate->time_us());
        }
      }
    }
  }
  return v;
}

FeatureDelta feature_delta(const FeatureVector& reference, const FeatureVector& candidate) {
  FeatureDelta delta;
  delta.source = reference.source && candidate.source;
  delta.compiler = reference.compiler && candidate.compiler;
  delta.launch = reference.launch && candidate.launch;
  for (const FeatureInfo& f : all_features()) {
    if (!delta.has(f.group)) continue;
    const double r = reference[f.feature], c = candidate[f.feature];
    double d = 0;
    switch (f.scale) {
      case Scale::log_count:
        d = std::log2((1.0 + std::max(c, 0.0)) / (1.0 + std::max(r, 0.0)));
        break;
      case Scale::linear:
        d = c - r;
        break;
      case Scale::log_ratio:
        d = c > 0 && r > 0 ? std::log2(c / r) : 0.0;
        break;
    }
    delta.values[index(f.feature)] = d;
  }
  return delta;
}

Result<CompilerFacts> compile_facts(const cuda::Compiler& compiler, const std::string& source, std::string_view kernel,
                                    const std::string& arch, const FactsCache* cache, bool* from_cache,
                                    BuiltinHeader header) {
  if (from_cache) *from_cache = false;
  cuda::CompileRequest request{.source = source, .file_name = "kernel.cu", .arch = arch};
  // How ptxas names the kernel: as written when it is extern "C", mangled otherwise, and then
  // found through an NVRTC name expression (which also instantiates a template).
  const std::string_view plain = kernel.substr(0, kernel.find('<'));
  const kernels::ScannedSource scanned = kernels::scan_cuda_source(source);
  const kernels::Function* function = nullptr;
  for (const kernels::Function& f : scanned.functions)
    if (f.kind == kernels::FunctionKind::global && f.has_body && (f.name == plain || f.qualified_name == plain))
      function = &f;
  if (!function) return fail(ExitCode::could_not_run, "kernel " + std::string(kernel) + " not found in its source");
  if (!function->extern_c) request.name_expressions.emplace_back(kernel);
  const std::string key = cache ? FactsCache::key(request, kernel, compiler.version()) : std::string();
  if (cache)
    if (auto cached = cache->find(key)) {
      if (from_cache) *from_cache = true;
      return std::move(*cached);
    }
  auto output = [&] {
    if (header == BuiltinHeader::minimal_when_possible && cuda::supports_minimal_header(compiler.version()) &&
        !has_include_directive(source)) {
      auto minimal = request;
      minimal.options.push_back("-minimal");
      if (auto compiled = compiler.compile(minimal)) return compiled;
    }
    return compiler.compile(request);
  }();
  if (!output) {
    // A compile error is as much a fact of the text as its registers are: kept, so a source
    // that does not compile costs NVRTC once, not on every run.
    if (cache) cache->store_failure(key, output.error().message);
    return std::unexpected(output.error());
  }
  const cuda::KernelResources* resources = cuda::find_function(output->functions, kernel);
  if (!resources) resources = cuda::find_function(output->functions, plain);
  if (!resources)
    return fail(ExitCode::could_not_run, "NVRTC compiled the source but reported no kernel " + std::string(kernel));
  CompilerFacts facts{.resources = *resources, .mix = ptx_instruction_mix(output->ptx, resources->name)};
  if (!facts.mix.found) return fail(ExitCode::could_not_run, "kernel " + std::string(kernel) + " not found in the PTX");
  if (cache) cache->store(key, facts);
  return facts;
}

bool has_include_directive(std::string_view source) {
  for (std::size_t at = 0; at < source.size();) {
    const std::size_t end = std::min(source.find('\n', at), source.size());
    std::string_view line = source.substr(at, end - at);
    const auto skip_blanks = [&] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    };
    skip_blanks();
    if (line.starts_with('#')) {
      line.remove_prefix(1);
      skip_blanks();
      if (line.starts_with("include")) return true;
    }
    at = end + 1;
  }
  return false;
}

}  // namespace kforecast::embedded
