// SPDX-License-Identifier: Apache-2.0
#pragma once

// A recorded launch as the bench runner measures it (docs/design/capture.md, "Replay"): the
// capture's grid, block and dynamic shared memory; each value parameter a scalar with the
// captured bytes; each allocation a buffer (named "allocation N", shared by every parameter
// that points into it and by both kernels of the pair) whose contents are the captured region,
// or synthetic data by the pointer's element type where the region was over the byte budget,
// restored before every sample and compared after (dtype-aware where the signature gives the
// type, bytewise otherwise). A launch that cannot be replayed faithfully is refused with the
// reason, never guessed: a pointer hidden inside an argument, a parameter layout that is not
// the kernel's, a pointer to pointers.

#include <filesystem>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "bench/resolved_launch.hpp"
#include "capture/capture_file.hpp"
#include "cubin/parameter_layout.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::capture {

// Checks a capture against a kernel's signature (`parameters`, as scanned) without reading
// blobs: what `bench` can refuse before any GPU work. `kernel_label` names the kernel.
Result<void> check_replayable(const Capture& capture, const std::vector<kernels::Parameter>& parameters,
                              const std::string& kernel_label);

// Checks a capture's parameters against the layout ptxas gave the kernel it will launch (the
// cubin's, cubin/parameter_layout.hpp): the same count, and each parameter at the same offset
// with the same size.
Result<void> check_parameter_layout(const Capture& capture, const std::vector<cubin::ParameterSlot>& layout,
                                    const std::string& kernel_label);

// The launch, blobs read from beside `capture_file`, or, with `inputs_of` (the other kernel's
// launch from the same capture), its captured contents shared rather than read again. Buffers
// larger than `max_buffer_bytes` in all are refused.
Result<bench::ResolvedLaunch> replay_launch(const Capture& capture, const std::filesystem::path& capture_file,
                                            const std::vector<kernels::Parameter>& parameters,
                                            const std::string& kernel_label,
                                            const bench::ResolvedLaunch* inputs_of = nullptr,
                                            std::int64_t max_buffer_bytes = std::int64_t{16} << 30);

// Where a replayed launch's inputs came from, for the report and the measurement's notes:
// "replayed capture .kforecast/captures/1a2b/scale-0.json (contents captured)", or with
// "allocation 1 synthetic: over the byte budget".
std::string launch_source(const Capture& capture, const std::filesystem::path& capture_file);

}  // namespace kforecast::capture
