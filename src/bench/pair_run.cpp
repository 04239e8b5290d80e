// SPDX-License-Identifier: Apache-2.0
#include "bench/pair_run.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "bench/device_checks.hpp"
#include "bench/host_buffers.hpp"

namespace kforecast::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::string describe_failure(std::string_view who, const Error& error) {
  return fmt::format("{}: {}", who, error.message);
}

}  // namespace

Result<void> PairRun::bind(Side& side) {
  side.graph_batch = 0;  // a graph holds the last size's arguments: capture again
  side.pointers.assign(side.launch.arguments.size(), 0);
  side.parameters.clear();
  for (std::size_t i = 0; i < side.launch.arguments.size(); ++i) {
    auto& argument = side.launch.arguments[i];
    if (!argument.buffer) continue;
    auto& buffer = m_buffers[argument.name];
    const auto bytes = static_cast<std::size_t>(argument.bytes());
    if (buffer.data == 0 || buffer.bytes < bytes) {
      if (buffer.data == 0) buffer.argument = argument;
      const auto layout = guarded_layout(bytes);
      auto allocation = m_gpu.allocate(layout.allocation_bytes);
      if (!allocation) return std::unexpected(allocation.error());
      auto pristine = m_gpu.allocate(bytes);
      if (!pristine) return std::unexpected(pristine.error());
      buffer.allocation = *allocation;
      buffer.layout = layout;
      buffer.data = *allocation + layout.buffer_offset;
      buffer.pristine = *pristine;
      buffer.bytes = bytes;
      if (auto ok = write_guards(buffer); !ok) return ok;
    }
    side.pointers[i] = buffer.data + static_cast<cuda::CUdeviceptr>(argument.pointer_offset);
    if (argument.role == Role::inout) m_has_inplace = true;
  }
  for (std::size_t i = 0; i < side.launch.arguments.size(); ++i) {
    auto& argument = side.launch.arguments[i];
    side.parameters.push_back(argument.buffer ? static_cast<void*>(&side.pointers[i])
                                              : static_cast<void*>(argument.scalar_bytes.data()));
  }
  return {};
}

Result<void> PairRun::upload_inputs(std::uint64_t seed) {
  for (auto& [name, buffer] : m_buffers) {
    // An output's pristine copy is all poison, written by the device: no host buffer to fill and
    // send per seed (this runs on the GPU clock).
    if (buffer.argument.role == Role::out) {
      if (auto ok = m_gpu.fill_async(buffer.pristine, poison_byte, buffer.bytes); !ok) return ok;
      continue;
    }
    // A captured buffer's bytes come from the host, once per buffer and seed; drawn values are
    // drawn on the GPU (bench/device_checks.hpp), past the argument's elements poison.
    if (buffer.argument.init.distribution == Distribution::captured) {
      std::vector<std::byte> values = initial_values(buffer.argument, seed);
      values.resize(buffer.bytes, poison_byte);
      if (auto ok = m_gpu.upload(buffer.pristine, values); !ok) return ok;
      continue;
    }
    if (auto ok = m_gpu.fill_async(buffer.pristine, poison_byte, buffer.bytes); !ok) return ok;
    if (auto ok = fill_on_device(m_gpu, m_support.fill, buffer.pristine, buffer.argument, seed); !ok) return ok;
  }
  return restore(true);
}

// Inputs back to their initial values, outputs poisoned: before every correctness run, and
// before every timed sample of a kernel that works in place (outside the events).
Result<void> PairRun::restore(bool poison_outputs) {
  for (auto& [name, buffer] : m_buffers) {
    if (buffer.argument.role == Role::out && !poison_outputs) continue;
    if (buffer.argument.role == Role::in && !poison_outputs) continue;
    if (auto ok = m_gpu.copy_async(buffer.data, buffer.pristine, buffer.bytes); !ok) return ok;
  }
  return {};
}

Result<void> PairRun::run_once(Side& side) {
  if (auto ok = m_gpu.launch(side.function, side.shape(), side.parameters.data()); !ok) return ok;
  return m_gpu.synchronize();
}

Result<void> PairRun::keep_expected_outputs(const Side& reference) {
  for (const auto& argument : reference.launch.arguments) {
    if (!argument.buffer || argument.role == Role::in) continue;
    const auto& buffer = m_buffers.at(argument.name);
    if (auto ok = m_gpu.copy_async(m_expected.at(argument.name), buffer.data, buffer.bytes); !ok) return ok;
  }
  return {};
}

Result<void> PairRun::write_guards(const DeviceBuffer& buffer) {
  const auto back = buffer.allocation + buffer.layout.back_offset;
  if (auto ok = m_gpu.upload(buffer.allocation, guard_pattern(buffer.allocation, buffer.layout.front_bytes())); !ok)
    return ok;
  return m_gpu.upload(back, guard_pattern(back, buffer.layout.back_bytes));
}

Result<std::optional<std::string>> PairRun::guard_damage() {
  std::optional<std::string> found;
  for (const auto& [name, buffer] : m_buffers) {
    const auto back = buffer.allocation + buffer.layout.back_offset;
    bool damaged = false;
    for (const auto& [side, address, bytes] :
         {std::tuple{ZoneSide::before, buffer.allocation, buffer.layout.front_bytes()},
          std::tuple{ZoneSide::after, back, buffer.layout.back_bytes}}) {
      std::vector<std::byte> zone(bytes);
      if (auto ok = m_gpu.download(zone, address); !ok) return std::unexpected(ok.error());
      const auto damage = check_zone(side, address, zone);
      if (!damage) continue;
      damaged = true;
      found = found ? *found + ", " + damage->describe(name) : damage->describe(name);
    }
    if (damaged)
      if (auto ok = write_guards(buffer); !ok) return std::unexpected(ok.error());
  }
  return found;
}

// One sample: the spin kernel holds the stream while the host queues the rest, the L2 flush, then
// the events around the launches, which follow the flush directly as an independent timer's
// "flush, then events around a graph of launches" does. Several launches are one graph: queued
// one by one, each launch of a few-microsecond kernel paid front-end work a graph's do not.
Result<void> PairRun::enqueue_sample(Side& side, int batch, std::size_t event_index) {
  if (batch > 1 && side.graph_batch != batch) {
    auto graph = m_gpu.capture_launches(side.function, side.shape(), side.parameters.data(), batch);
    if (!graph) return std::unexpected(graph.error());
    side.graph = *graph;
    side.graph_batch = batch;
  }
  if (m_has_inplace)
    if (auto ok = restore(false); !ok) return ok;
  unsigned long long spin_ns = 20'000;
  void* spin_parameters[] = {&spin_ns};
  if (auto ok = m_gpu.launch(m_support.spin, LaunchShape{}, spin_parameters); !ok) return ok;
  unsigned long long words = m_flush_bytes / 16;
  void* flush_parameters[] = {&m_flush, &words, &m_flush_sink};
  const LaunchShape flush_shape{
      {static_cast<std::uint32_t>(std::max(m_gpu.device().sm_count, 1) * 4), 1, 1}, {256, 1, 1}, 0};
  if (auto ok = m_gpu.launch(m_support.flush, flush_shape, flush_parameters); !ok) return ok;
  if (auto ok = m_gpu.record(m_gpu.event(event_index)); !ok) return ok;
  if (batch > 1) {
    if (auto ok = m_gpu.launch_graph(side.graph); !ok) return ok;
  } else if (auto ok = m_gpu.launch(side.function, side.shape(), side.parameters.data()); !ok) {
    return ok;
  }
  return m_gpu.record(m_gpu.event(event_index + 1));
}

Result<std::vector<double>> PairRun::block(Side& side, int batch, int samples, cuda::ClockReading* clock) {
  if (auto ok = m_gpu.reserve_events(2 * static_cast<std::size_t>(samples)); !ok) return std::unexpected(ok.error());
  for (int s = 0; s < samples; ++s)
    if (auto ok = enqueue_sample(side, batch, 2 * static_cast<std::size_t>(s)); !ok) return std::unexpected(ok.error());
  if (clock != nullptr) *clock = m_gpu.clocks();
  if (auto ok = m_gpu.synchronize(); !ok) return std::unexpected(ok.error());
  std::vector<double> times;
  for (int s = 0; s < samples; ++s) {
    auto ms = m_gpu.elapsed_ms(m_gpu.event(2 * static_cast<std::size_t>(s)),
                               m_gpu.event(2 * static_cast<std::size_t>(s) + 1));
    if (!ms) return std::unexpected(ms.error());
    times.push_back(static_cast<double>(*ms) * 1000.0 / batch);
  }
  return times;
}

// Alternates both kernels until warmup_ms have passed since `start`, and on until two clock
// readings in a row agree within 1% (at most 1 s). Returns the last SM clock.
Result<double> PairRun::steady_clock_warmup(Side& a, Side& b, int batch, Clock::time_point start) {
  double last_clock = 0;
  for (;;) {
    cuda::ClockReading reading;
    for (Side* side : {&a, &b})
      if (auto times = block(*side, batch, 4, &reading); !times) return std::unexpected(times.error());
    const double clock = reading.sm_mhz;
    const double elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const bool steady = !m_gpu.has_clocks() || (last_clock > 0 && std::fabs(clock - last_clock) <= 0.01 * last_clock);
    if ((elapsed_ms >= m_options.warmup_ms && steady) || elapsed_ms > 1000) return clock;
    last_clock = clock;
  }
}

SizeMeasurement PairRun::measure_size(Side& reference, Side& candidate, std::string& reason, double time_budget_s) {
  SizeMeasurement result;
  result.size = reference.launch.size_text();
  result.verdict = Verdict::failed;
  const auto start = Clock::now();
  const auto failed = [&](std::string why) {
    reason = std::move(why);
    result.verdict = Verdict::failed;
    return result;
  };
  const auto broken_reference = [&](const std::string& why) {
    result.blame = Blame::reference;
    return failed(std::string(broken_reference_prefix) + why);
  };
  // Memory first, so a spec too large for this GPU is a clear failure, not an allocator error.
  // Buffers are shared by name; each has a pristine copy.
  std::map<std::string, std::size_t, std::less<>> buffer_bytes;
  for (Side* side : {&reference, &candidate})
    for (const auto& argument : side->launch.arguments)
      if (argument.buffer)
        buffer_bytes[argument.name] = std::max(buffer_bytes[argument.name], static_cast<std::size_t>(argument.bytes()));
  // Each buffer with its guard zones and its pristine copy, and each output a copy of the
  // reference's, which the candidate's is compared with on the GPU.
  std::size_t needed = 0;
  for (const auto& [name, bytes] : buffer_bytes) needed += guarded_layout(bytes).allocation_bytes + bytes;
  std::map<std::string, std::size_t, std::less<>> output_bytes;
  for (const auto& argument : reference.launch.arguments)
    if (argument.buffer && argument.role != Role::in) output_bytes[argument.name] = buffer_bytes.at(argument.name);
  for (const auto& [name, bytes] : output_bytes) needed += bytes;
  if (const auto free = m_gpu.free_memory(); free > 0 && needed > free)
    return failed(fmt::format("size {}: the buffers need {:.2f} GiB and the GPU has {:.2f} GiB free (out of memory)",
                              result.size, needed / 1073741824.0, free / 1073741824.0));
  m_buffers.clear();
  m_has_inplace = false;
  for (Side* side : {&reference, &candidate})
    if (auto ok = bind(*side); !ok) return failed(describe_failure("allocating buffers", ok.error()));
  m_expected.clear();
  for (const auto& [name, bytes] : output_bytes) {
    auto copy = m_gpu.allocate(bytes);
    if (!copy) return failed(describe_failure("allocating buffers", copy.error()));
    m_expected[name] = *copy;
  }
  if (m_compare_result == 0) {
    auto scratch = m_gpu.allocate(32);
    if (!scratch) return failed(describe_failure("allocating buffers", scratch.error()));
    m_compare_result = *scratch;
  }
  if (m_flush == 0) {
    m_flush_bytes = static_cast<std::size_t>(std::max<std::int64_t>(m_gpu.device().l2_cache_bytes, 1 << 20)) * 2;
    auto flush = m_gpu.allocate(m_flush_bytes);
    if (!flush) return failed(describe_failure("allocating the L2 flush buffer", flush.error()));
    m_flush = *flush;
    auto sink = m_gpu.allocate(16);
    if (!sink) return failed(describe_failure("allocating the L2 flush buffer", sink.error()));
    m_flush_sink = *sink;
    if (auto ok = m_gpu.fill_async(m_flush, std::byte{0}, m_flush_bytes); !ok)
      return failed(describe_failure("clearing the L2 flush buffer", ok.error()));
  }

  // Correctness on poisoned outputs, over seeds; the first launch of each is the untimed one.
  for (int seed = 1; seed <= m_options.seeds; ++seed) {
    if (m_options.progress) m_options.progress(fmt::format("{}: checking outputs (seed {})", result.size, seed));
    if (auto ok = upload_inputs(static_cast<std::uint64_t>(seed)); !ok)
      return failed(describe_failure("uploading inputs", ok.error()));
    auto expected = run_once(reference);
    if (!expected)
      return broken_reference(describe_failure(fmt::format("the {} failed", reference.kernel->label), expected.error()));
    if (auto ok = keep_expected_outputs(reference); !ok)
      return failed(describe_failure("keeping the reference's outputs", ok.error()));
    // Guard zones after each side's launch: the reference first, so a broken one is not taken
    // for the candidate's failure; the candidate still runs, and fails if it breaks them too.
    auto reference_damage = guard_damage();
    if (!reference_damage) return failed(describe_failure("reading the guard zones", reference_damage.error()));
    if (auto ok = restore(true); !ok) return failed(describe_failure("restoring inputs", ok.error()));
    auto actual = run_once(candidate);
    if (!actual) return failed(describe_failure(fmt::format("the {} failed", candidate.kernel->label), actual.error()));
    auto candidate_damage = guard_damage();
    if (!candidate_damage) return failed(describe_failure("reading the guard zones", candidate_damage.error()));
    const auto damage_text = [&](const Side& side, const std::string& damage) {
      return fmt::format("size {}: the {} {} (seed {})", result.size, side.kernel->label, damage, seed);
    };
    if (*candidate_damage)
      return failed(damage_text(candidate, **candidate_damage) +
                    (*reference_damage ? "; the reference did too: " + **reference_damage +
                                             " (if both kernels are right, the spec's count for it is too small)"
                                       : ""));
    if (*reference_damage) return broken_reference(damage_text(reference, **reference_damage));
    for (const auto& argument : reference.launch.arguments) {
      if (!argument.buffer || argument.role == Role::in) continue;
      auto compared = compare_on_device(m_gpu, m_support.compare, m_compare_result, m_expected.at(argument.name),
                                        m_buffers.at(argument.name).data, argument);
      if (!compared) return failed(describe_failure("comparing outputs", compared.error()));
      const Comparison& comparison = *compared;
      result.checks.push_back(fmt::format("seed {}: {}", seed, comparison.describe()));
      if (!comparison.agrees())
        return failed(fmt::format("size {}: the candidate's output disagrees with the reference's (seed {}): {}",
                                  result.size, seed, comparison.describe()));
    }
  }
  if (auto ok = restore(true); !ok) return failed(describe_failure("restoring inputs", ok.error()));

  // Batch size from one-launch samples of both kernels. They keep the GPU as busy as warm-up
  // blocks do, so the warm-up's time counts from here: a 1 ms kernel's six samples are 6 ms of
  // warm-up, not 6 ms before it.
  const auto warm_start = Clock::now();
  double one_launch_us = 1e30;
  for (Side* side : {&reference, &candidate}) {
    auto times = block(*side, 1, 3);  // three give a batch size; five cost a 5 ms kernel 50 ms
    if (!times) return failed(describe_failure(fmt::format("timing {}", side->kernel->label), times.error()));
    one_launch_us = std::min(one_launch_us, median(*times));
  }
  const int batch = batch_size(one_launch_us, m_options.target_sample_us);
  const int samples = samples_per_block(one_launch_us * batch, m_options.block_target_us,
                                        m_options.min_samples_per_block, m_options.samples_per_block);
  result.batch = batch;
  result.samples_per_block = samples;
  if (m_options.progress)
    m_options.progress(fmt::format("{}: warming up ({} launches per sample)", result.size, batch));
  if (auto warm = steady_clock_warmup(reference, candidate, batch, warm_start); !warm)
    return failed(describe_failure("warm-up", warm.error()));

  std::vector<double> reference_medians, candidate_medians, block_clocks;
  const auto timed_block = [&](Side& side) -> Result<double> {
    for (int attempt = 0;; ++attempt) {
      cuda::ClockReading reading;
      auto times = block(side, batch, samples, &reading);
      if (!times) return std::unexpected(times.error());
      const double run_median = block_clocks.empty() ? 0 : median(block_clocks);
      if (attempt < 3 && clock_dropped(reading.sm_mhz, run_median)) {
        ++result.redone_blocks;
        continue;
      }
      block_clocks.push_back(reading.sm_mhz);
      result.block_clocks.push_back({reading.sm_mhz, reading.throttle_reasons});
      result.block_samples_us.push_back(*times);
      return median(*times);
    }
  };
  SequentialTest test(m_options.confidence, m_options.tolerance);
  std::optional<Verdict> verdict;
  for (int round = 1; round <= m_options.max_rounds && !verdict; ++round) {
    Round medians;
    for (auto [side, into] :
         {std::pair{&reference, &medians.reference_first}, std::pair{&candidate, &medians.candidate_first},
          std::pair{&candidate, &medians.candidate_second}, std::pair{&reference, &medians.reference_second}}) {
      auto value = timed_block(*side);
      if (!value) return failed(describe_failure(fmt::format("timing {}", side->kernel->label), value.error()));
      *into = *value;
    }
    reference_medians.insert(reference_medians.end(), {medians.reference_first, medians.reference_second});
    candidate_medians.insert(candidate_medians.end(), {medians.candidate_first, medians.candidate_second});
    result.round_log_speedups.push_back(round_log_speedup(medians));
    verdict = test.add_round(result.round_log_speedups.back());
    if (m_options.progress)
      m_options.progress(fmt::format("{}: round {}, speedup {:.4f} [{:.4f}, {:.4f}]", result.size, round,
                                     test.interval().speedup, test.interval().low, test.interval().high));
    const double spent = std::chrono::duration<double>(Clock::now() - start).count();
    if (!verdict && spent > time_budget_s) {
      reason = fmt::format("size {}: the GPU time cap ({:.1f} s) was reached after {} rounds", result.size,
                           time_budget_s, round);
      break;
    }
  }
  if (!verdict) verdict = test.final_look();  // a cap reached between looks: its reason stays as a note
  const SpeedupInterval interval = test.interval();
  result.interval = interval;
  result.t_reference_us = median(reference_medians);
  result.t_candidate_us = median(candidate_medians);
  if (!verdict) {
    // A slowdown just past the tolerance is told apart from a plain lack of rounds, first thing.
    if (reason.empty()) reason = fmt::format("size {}: no decision within {} rounds", result.size, m_options.max_rounds);
    if (auto borderline = borderline_reason(interval, m_options.tolerance); !borderline.empty())
      reason = fmt::format("{} ({})", borderline, reason);
  }
  result.verdict = verdict.value_or(Verdict::inconclusive);
  return result;
}

}  // namespace kforecast::bench
