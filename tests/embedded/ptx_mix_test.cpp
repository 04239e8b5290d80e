// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "embedded/ptx_mix.hpp"

using namespace kforecast::embedded;

namespace {

// Two entries, vector operands in braces, a predicate, labels, comments and a call sequence
// spanning lines, as NVRTC writes them.
constexpr const char* two_entries = R"(
.version 8.0
.target sm_90
.address_size 64

.visible .entry other(.param .u64 p)
{
	ld.global.f32 	%f1, [%rd1];
	ret;
}

.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<20>;
	.shared .align 4 .b8 _ZZ1kE4tile[1024];

	ld.param.u64 	%rd1, [k_param_0];   // not memory traffic of interest
	ld.global.nc.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd1];
	ld.global.f32 	%f5, [%rd1+16];
	st.shared.f32 	[%r1], %f5;
	bar.sync 	0;
	ld.shared.f32 	%f6, [%r2];
$L__BB0_2:
	fma.rn.f32 	%f7, %f6, %f1, %f2;
	mad.lo.s32 	%r3, %r1, %r2, %r4;
	ex2.approx.ftz.f32 	%f8, %f7;
	shfl.sync.bfly.b32	%r5|%p1, %r6, 16, 31, -1;
	@%p2 bra 	$L__BB0_2;
	atom.global.add.u32 	%r7, [%rd2], 1;
	add.f64 	%fd1, %fd2, %fd3;
	st.local.f32 	[%rd3], %f1;
	/* a block
	   comment with ld.global.f32 in it */
	mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f10, %f11, %f12, %f13}, {%r8, %r9, %r10, %r11}, {%r12, %r13}, {%f10, %f11, %f12, %f13};
	{ // callseq 0
	.param .b32 param0;
	call.uni (retval0),
	helper,
	(param0);
	}
	st.global.v2.f32 	[%rd4], {%f1, %f2};
	ret;
}
)";

}  // namespace

TEST_CASE("embedded: PTX instruction mix of one entry") {
  const PtxMix mix = ptx_instruction_mix(two_entries, "k");
  REQUIRE(mix.found);
  CHECK(mix.global_loads == 2);
  CHECK(mix.global_loads_128 == 1);
  CHECK(mix.global_stores == 1);
  CHECK(mix.shared_loads == 1);
  CHECK(mix.shared_stores == 1);
  CHECK(mix.local_accesses == 1);
  CHECK(mix.barriers == 1);
  CHECK(mix.fma == 2);
  CHECK(mix.special == 1);
  CHECK(mix.shuffles == 1);
  CHECK(mix.branches == 1);
  CHECK(mix.atomics == 1);
  CHECK(mix.fp64 == 1);
  CHECK(mix.tensor == 1);
  // ld.param, 2 ld.global, st.shared, bar, ld.shared, fma, mad, ex2, shfl, bra, atom, add.f64,
  // st.local, mma, call, st.global, ret
  CHECK(mix.instructions == 18);
  // Bytes by width: a v4.f32 and an f32 load; a v2.f32 store.
  CHECK(mix.global_load_bytes == 20);
  CHECK(mix.global_store_bytes == 8);
  CHECK(mix.shared_atomics == 0);     // the one atomic is global
  CHECK(mix.fp32 == 1);               // fma.rn.f32 (mad.lo.s32 is integer, ex2 is the SFU's)
  CHECK(mix.backward_branches == 1);  // @%p2 bra $L__BB0_2, a label above it: a loop
}

TEST_CASE("embedded: PTX loops are branches back to a label above, not forward ones") {
  constexpr const char* ptx = R"(
.visible .entry k()
{
	@%p1 bra 	$L__BB0_3;
$L__BB0_1:
	atom.shared.add.u32 	%r1, [%r2], 1;
	red.global.add.u32 	[%rd1], 1;
	@%p2 bra.uni 	$L__BB0_1;
$L__BB0_3:
	bra.uni 	$L__BB0_3;
	ret;
}
)";
  const PtxMix mix = ptx_instruction_mix(ptx, "k");
  CHECK(mix.branches == 3);
  CHECK(mix.backward_branches == 2);  // to $L__BB0_1 from below, and $L__BB0_3 to itself
  CHECK(mix.atomics == 2);
  CHECK(mix.shared_atomics == 1);
}

TEST_CASE("embedded: PTX entries are matched by whole name") {
  CHECK(ptx_instruction_mix(two_entries, "other").instructions == 2);
  CHECK_FALSE(ptx_instruction_mix(two_entries, "oth").found);
  CHECK_FALSE(ptx_instruction_mix(two_entries, "").found);
  CHECK_FALSE(ptx_instruction_mix("", "k").found);
  CHECK(ptx_instruction_mix(".entry k( {", "k").instructions == 0);  // unterminated: what is there
}

TEST_CASE("embedded: access widths from opcodes") {
  CHECK(access_bits("ld.global.nc.v4.f32") == 128);
  CHECK(access_bits("ld.global.v2.f64") == 128);
  CHECK(access_bits("st.shared.u8") == 8);
  CHECK(access_bits("ld.global.b32") == 32);
  CHECK(access_bits("ld.global.v2.u32") == 64);
  CHECK(access_bits("bar.sync") == 0);
  CHECK(access_bits("") == 0);
  CHECK(access_bits("ld.f") == 0);
}

TEST_CASE("embedded: PTX mix of NVRTC output for a corpus kernel (fixtures/fuzz/ptx_mix)") {
  const auto path = std::filesystem::path(KF_SOURCE_DIR) / "fixtures/fuzz/ptx_mix/elementwise_vectorized.ptx";
  std::ifstream in(path);
  const std::string ptx{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const PtxMix mix = ptx_instruction_mix(ptx, "bias_gelu_vectorized");
  REQUIRE(mix.found);
  CHECK(mix.global_loads_128 == 2);  // x and bias as float4
  CHECK(mix.global_stores >= 2);     // the float4 store and the scalar tail
  CHECK(mix.special >= 1);           // tanhf's ex2 / rcp
  CHECK(mix.fma > 0);
}
