// SPDX-License-Identifier: Apache-2.0
// Source features of the corpus kernels (fixtures/corpus), where a reader can check each count.

#include <catch2/catch.hpp>

#include "embedded/corpus_source.hpp"
#include "embedded/source_features.hpp"

using namespace kforecast::embedded;
using kforecast::embedded::testing::corpus_source;

namespace {
SourceFeatures of(const std::string& family, const std::string& variant, const std::string& kernel) {
  return extract_source_features(corpus_source(family, variant), kernel);
}
}  // namespace

TEST_CASE("embedded: a kernel that is not in the source has no features") {
  const auto f = extract_source_features("__global__ void a(float* x) { x[threadIdx.x] = 1; }", "b");
  CHECK_FALSE(f.kernel_found);
  CHECK(f.source_tokens == 0);
  CHECK_FALSE(extract_source_features("", "a").kernel_found);
  CHECK_FALSE(extract_source_features("\xff\xfe{{{{ __global__", "a").kernel_found);
}

TEST_CASE("embedded: coalesced and strided thread indexing are told apart") {
  const auto per_row = of("gemv", "thread_per_row", "gemv_thread_per_row");
  CHECK(per_row.kernel_found);
  CHECK(per_row.thread_strided_accesses == 1);  // A[(size_t)r * cols + c]
  CHECK(per_row.thread_linear_accesses == 1);   // y[r]
  CHECK(per_row.thread_strided_stores == 0);
  // Transposes that differ only in which side is strided.
  const auto row = of("transpose", "naive_row", "transpose_naive_row");
  const auto col = of("transpose", "naive_col", "transpose_naive_col");
  CHECK(row.thread_strided_accesses == 1);
  CHECK(row.thread_strided_stores == 1);  // out[(size_t)c * rows + r] = ...
  CHECK(col.thread_strided_accesses == 1);
  CHECK(col.thread_strided_stores == 0);  // in[(size_t)r * cols + c] is read
  const auto warp = of("gemv", "warp_per_row", "gemv_warp_per_row");
  CHECK(warp.thread_strided_accesses == 0);
  CHECK(warp.thread_linear_accesses == 3);  // row[c], x[c] with c = lane + 32k, y[r]
  const auto chunked = of("elementwise", "chunked_uncoalesced", "bias_gelu_chunked");
  CHECK(chunked.thread_strided_accesses >= 2);  // i = begin + k, begin = (...threadIdx.x) * CHUNK
  const auto naive = of("elementwise", "naive", "bias_gelu_naive");
  CHECK(naive.thread_strided_accesses == 0);
  CHECK(naive.thread_linear_accesses >= 2);
  const auto uncoalesced = of("gemm", "naive_uncoalesced", "sgemm_naive_uncoalesced");
  CHECK(uncoalesced.thread_strided_accesses >= 2);
}

TEST_CASE("embedded: shared memory, barriers, shuffles and atomics, device functions included") {
  const auto shuffle = of("reduction", "warp_shuffle", "row_sum_warp_shuffle");
  CHECK(shuffle.shared_arrays == 1);
  CHECK(shuffle.barriers == 1);
  CHECK(shuffle.warp_shuffles == 1);  // in warp_sum, which the kernel calls
  CHECK(shuffle.unroll_pragmas == 1);
  const auto tree = of("reduction", "shared_divergent", "row_sum_shared_divergent");
  CHECK(tree.warp_shuffles == 0);
  CHECK(tree.barriers == 2);
  CHECK(tree.branches == 2);
  CHECK(of("histogram", "global_atomics", "histogram_global_atomics").atomics == 1);
  CHECK(of("histogram", "shared_vectorized", "histogram_shared_vectorized").atomics == 5);
}

TEST_CASE("embedded: loops, nesting, unrolling, vector types, per-thread arrays, FP64") {
  const auto gemm = of("gemm", "register_2d", "sgemm_register_2d");
  CHECK(gemm.loop_depth == 4);  // k0 / k / i / j
  CHECK(gemm.unroll_pragmas == 7);
  CHECK(gemm.local_arrays == 3);  // acc, reg_m, reg_n
  const auto vectorized = of("elementwise", "vectorized", "bias_gelu_vectorized");
  CHECK(vectorized.vector_accesses >= 4);
  CHECK(of("elementwise", "naive", "bias_gelu_naive").vector_accesses == 0);
  CHECK(of("elementwise", "double_promotion", "bias_gelu_double").fp64_code >= 4);
  CHECK(of("elementwise", "naive", "bias_gelu_naive").fp64_code == 0);
  CHECK(of("elementwise", "naive", "bias_gelu_naive").math_calls == 1);
  CHECK(of("histogram", "local_array", "histogram_local_array").local_arrays == 1);
  CHECK(of("scan", "thread_per_row", "scan_thread_per_row").loops == 1);
}

TEST_CASE("embedded: tensor-core code, in wmma calls and in inline PTX") {
  const auto wmma = count_source_features(
      "__global__ void k(const half* a) { wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> f;"
      " wmma::load_matrix_sync(f, a, 16); }");
  CHECK(wmma.tensor_core_code >= 2);
  const auto ptx = count_source_features(
      "__global__ void k(float* d) { asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0}\" : "
      "\"=f\"(d[0])); }");
  CHECK(ptx.tensor_core_code == 1);
  CHECK(count_source_features("__global__ void k(float* x) { x[0] = 1.0f; }").tensor_core_code == 0);
}

TEST_CASE("embedded: template arguments in the kernel name are read as the template") {
  const char* source = "template <int N> __global__ void scale(float* x) { for (int i = 0; i < N; ++i) x[i] *= 2; }";
  const auto f = extract_source_features(source, "scale<4>");
  CHECK(f.kernel_found);
  CHECK(f.loops == 1);
}

TEST_CASE("embedded: padded shared arrays (the cure for bank conflicts) are told from unpadded ones") {
  const auto conflicts =
      extract_source_features(corpus_source("transpose", "shared_conflicts"), "transpose_shared_conflicts");
  const auto padded = extract_source_features(corpus_source("transpose", "shared_padded"), "transpose_shared_padded");
  CHECK(conflicts.shared_arrays == 1);
  CHECK(conflicts.padded_shared_arrays == 0);
  CHECK(padded.shared_arrays == 1);
  CHECK(padded.padded_shared_arrays == 1);
  // A padding macro counts; a sum outside the brackets, or of two names, does not.
  CHECK(count_source_features("__shared__ float temp[PAD(N)];").padded_shared_arrays == 1);
  CHECK(count_source_features("__shared__ float t[32][32 + 1];").padded_shared_arrays == 1);
  CHECK(count_source_features("__shared__ float t[A + B]; x = t[0] + 1;").padded_shared_arrays == 0);
  CHECK(count_source_features("__shared__ float t[32][32];").padded_shared_arrays == 0);
}
