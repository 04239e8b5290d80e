// SPDX-License-Identifier: Apache-2.0
// Compiled by CTest (tests/cmake/CMakeLists.txt) with kf_gate's include folders, and expected not
// to compile: gate links every stage but not kf_cli, so "cli/..." must not be found.
#include "forecasters/forecaster.hpp"
#include "cli/run.hpp"
