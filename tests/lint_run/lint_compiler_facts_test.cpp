// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "lint_run/lint_compiler_facts.hpp"

using kforecast::lint_run::demangled_qualified_name;

TEST_CASE("gate: kernel names from ptxas' mangled names, as the scanner spells them") {
  CHECK(demangled_qualified_name("_Z1kPf") == "k");
  CHECK(demangled_qualified_name("_Z5spillPKfPfi") == "spill");
  CHECK(demangled_qualified_name("_ZN2ns5plainEPf") == "ns::plain");
  CHECK(demangled_qualified_name("_ZN5outer5inner1kEv") == "outer::inner::k");
  CHECK(demangled_qualified_name("_Z5sgemmILi64EEvPf") == "sgemm");
  CHECK(demangled_qualified_name("_ZN2ns5sgemmILi64EEEvPf") == "ns::sgemm");
  CHECK(demangled_qualified_name("_ZN12_GLOBAL__N_11kEPf") == "k");
  CHECK(demangled_qualified_name("extern_c_kernel") == "extern_c_kernel");
  CHECK(demangled_qualified_name("_Z") == "_Z");
  CHECK(demangled_qualified_name("_Z99k") == "_Z99k");
}
