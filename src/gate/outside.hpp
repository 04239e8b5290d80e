// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>

#include "base/console.hpp"
#include "base/environment.hpp"
#include "base/run_deadline.hpp"
#include "base/sandbox_status.hpp"
#include "builds/compilers.hpp"
#include "builds/unit_cache.hpp"
#include "embedded/facts_cache.hpp"
#include "forecasters/forecaster.hpp"
#include "git/repository.hpp"
#include "measure/gpu_access.hpp"
#include "measure/project_programs.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::gate {

// What a run keeps on disk between runs, opened by the caller; nullptr: not kept (no cache folder).
struct Caches {
  const builds::UnitCache* units = nullptr;      // nvcc's answers per unit
  const policy::PtxCache* ptx = nullptr;         // NVRTC's PTX per kernel text
  const embedded::FactsCache* facts = nullptr;   // the embedded forecaster's compiler facts
};

// Everything the gate reaches outside itself, handed in once per command by its caller: cli
// builds the real world (cli/gate_outside.cpp: dlopen, terminal detection and the sandbox probe happen
// there, once); tests build one from fakes (tests/support/run_gate_harness.hpp). Each member is
// named for what it reaches, and is filled by name.
struct Outside {
  EnvLookup env;                               // the environment's variables
  Console console;                             // warnings and progress (base/console.hpp)
  builds::Compilers compilers;                 // NVRTC and nvcc, confined
  measure::GpuAccess gpu;                      // the local GPU and the benchmark child
  forecasters::ForecasterFactory forecaster;   // the embedded forecaster, or the LLM's
  measure::ProjectPrograms project;            // the project's harness and capture.command
  git::RepositoryOpener repository;            // git, for capture.dir at each revision
  Caches caches;
  std::function<std::string()> now;            // now, as the ledger records it (UTC, ISO 8601)
  RunDeadline deadline = {};                   // the run's wall budget, from the command's start
  // Which layers confine the compilers and harness commands here, probed once by cli
  // (base/sandbox_status.hpp): an untrusted author's head is compiled and run only where they
  // suffice (gate/head_code_policy.hpp). Default: none, so nothing of such a head runs.
  SandboxStatus sandbox = {};
};

}  // namespace kforecast::gate
