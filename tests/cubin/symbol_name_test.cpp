// SPDX-License-Identifier: Apache-2.0
#include "cubin/symbol_name.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::cubin;

TEST_CASE("cubin: normalize_symbol") {
  SECTION("nvcc's file-local namespace becomes the standard one, whatever the file's hash and name") {
    const auto a = normalize_symbol("_Z9withlocalIN36_GLOBAL__N__20eecac8_4_a_cu_2f1254c85LocalEEvT_Pf");
    const auto b = normalize_symbol("_Z9withlocalIN43_GLOBAL__N__4b53eab8_10_x_other_cu_2f1254c85LocalEEvT_Pf");
    CHECK(a == "_Z9withlocalIN12_GLOBAL__N_15LocalEEvT_Pf");
    CHECK(a == b);
  }
  SECTION("in section names and clone names too, every occurrence") {
    CHECK(normalize_symbol(".text._ZN36_GLOBAL__N__20eecac8_4_a_cu_2f1254c81kEv") == ".text._ZN12_GLOBAL__N_11kEv");
    CHECK(normalize_symbol(
              "$_ZN36_GLOBAL__N__20eecac8_4_a_cu_2f1254c81kEv$_ZN36_GLOBAL__N__20eecac8_4_a_cu_2f1254c81hEv") ==
          "$_ZN12_GLOBAL__N_11kEv$_ZN12_GLOBAL__N_11hEv");
  }
  SECTION("a relocatable build's prefix for names of internal linkage loses its file hash and name") {
    CHECK(normalize_symbol("__nv_static_26__9af3d38d_5_st_cu_28eb1b78__Z1sPi") == "__nv_static___Z1sPi");
    CHECK(normalize_symbol("__nv_static_26__9af3d38d_5_st_cu_28eb1b78_counter2") == "__nv_static__counter2");
    CHECK(normalize_symbol(
              ".text.__nv_static_28__a406113d_7_seed_cu_2f1254c8__ZN37_GLOBAL__N__9af3d38d_5_st_cu_28eb1b784anonEPi") ==
          ".text.__nv_static___ZN12_GLOBAL__N_14anonEPi");
    CHECK(demangle("__nv_static___Z1sPi") == "s(int*)");
    // A length that runs past the name, or no '_' after it, is left alone.
    CHECK(normalize_symbol("__nv_static_99_x") == "__nv_static_99_x");
    CHECK(normalize_symbol("__nv_static_2abc") == "__nv_static_2abc");
    CHECK(normalize_symbol("__nv_static_") == "__nv_static_");
  }
  SECTION("nvcc's scope for a file's static device functions loses its hashes") {
    // ggml's cpy kernels take a static device function as a template argument; the scope's hashes
    // follow the file's other contents, so the instantiation never matched across revisions.
    const auto a = normalize_symbol("_Z5applyIXadL_ZN34_INTERNAL_67e56436_4_k_cu_9b160e8b7op_copyEPKfPfEEEvS2_S3_i");
    const auto b = normalize_symbol("_Z5applyIXadL_ZN34_INTERNAL_4dafb2ac_4_k_cu_2287285c7op_copyEPKfPfEEEvS2_S3_i");
    CHECK(a == "_Z5applyIXadL_ZN9_INTERNAL7op_copyEPKfPfEEEvS2_S3_i");
    CHECK(a == b);
    CHECK(demangle(a) == "void apply<&_INTERNAL::op_copy>(float const*, float*, int)");
  }
  SECTION("names without one are left alone") {
    CHECK(normalize_symbol("_Z5tiledILi64EEvPfPKfi") == "_Z5tiledILi64EEvPfPKfi");
    CHECK(normalize_symbol("plain_c_kernel") == "plain_c_kernel");
    CHECK(normalize_symbol("") == "");
  }
  SECTION("a length prefix that does not fit is left alone") {
    CHECK(normalize_symbol("_ZN99_GLOBAL__N_x") == "_ZN99_GLOBAL__N_x");
    CHECK(normalize_symbol("_GLOBAL__N_") == "_GLOBAL__N_");
    CHECK(normalize_symbol("99999999999999999999999_GLOBAL__N_") == "99999999999999999999999_GLOBAL__N_");
  }
}

TEST_CASE("cubin: demangle and split_signature") {
  SECTION("a function template") {
    const auto signature = demangle("_Z5tiledILi64EEvPfPKfi");
    CHECK(signature == "void tiled<64>(float*, float const*, int)");
    const auto name = split_signature(signature);
    CHECK(name.name == "tiled");
    CHECK(name.template_arguments == "<64>");
  }
  SECTION("a function in a namespace") {
    const auto signature = demangle("_ZN2ns1kEPi");
    CHECK(signature == "ns::k(int*)");
    const auto name = split_signature(signature);
    CHECK(name.name == "ns::k");
    CHECK(name.template_arguments.empty());
  }
  SECTION("a template on a file-local type") {
    const auto signature =
        demangle(normalize_symbol("_Z9withlocalIN36_GLOBAL__N__20eecac8_4_a_cu_2f1254c85LocalEEvT_Pf"));
    CHECK(signature == "void withlocal<(anonymous namespace)::Local>((anonymous namespace)::Local, float*)");
    const auto name = split_signature(signature);
    CHECK(name.name == "withlocal");
    CHECK(name.template_arguments == "<(anonymous namespace)::Local>");
  }
  SECTION("a kernel in an anonymous namespace") {
    const auto name = split_signature(demangle("_ZN12_GLOBAL__N_11kEv"));
    CHECK(name.name == "(anonymous namespace)::k");
  }
  SECTION("a name longer than 64 KiB stays mangled") {
    const auto long_name = "_Z1fPv" + std::string(70 * 1024, 'P');
    CHECK(demangle(long_name) == long_name);
  }
  SECTION("extern \"C\" names and junk stay as they are") {
    CHECK(demangle("plain_c_kernel") == "plain_c_kernel");
    CHECK(split_signature("plain_c_kernel").name == "plain_c_kernel");
    CHECK(split_signature(")>(<").name == ")>(<");
    CHECK(split_signature("").name.empty());
  }
}
