#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Exports the real kernel files docs/perf/lint-precision.md judges from bare git mirrors of their
# repositories and runs `kforecast lint` on them, so the measurement can be re-run.
#
#   scripts/lint-precision.sh [KFORECAST] [OUT_DIR] [measured|held-out]
#
# KFORECAST defaults to build/release/src/kforecast, OUT_DIR to /tmp/lintset. "measured" (the
# default) is the set the false patterns were found on; "held-out" is a second set, looked at
# only after the fixes, to check they were not fitted to the first. MIRRORS (default
# /work/.mirror) holds one bare repository per source, OWNER+NAME/repo; each file is taken at the
# commit pinned below, so a re-run sees the same text. Prints the diagnostics (text format, no
# forecast: the forecast is not a rule) and a count per rule.
set -eu
kforecast=${1:-build/release/src/kforecast}
out=${2:-/tmp/lintset}
set_name=${3:-measured}
mirrors=${MIRRORS:-/work/.mirror}
case $kforecast in /*) ;; *) kforecast=$(pwd)/$kforecast ;; esac

# repository  commit  path
measured='
siboehm+SGEMM_CUDA 60cba6f src/kernels/1_naive.cuh
siboehm+SGEMM_CUDA 60cba6f src/kernels/2_kernel_global_mem_coalesce.cuh
siboehm+SGEMM_CUDA 60cba6f src/kernels/3_kernel_shared_mem_blocking.cuh
siboehm+SGEMM_CUDA 60cba6f src/kernels/4_kernel_1D_blocktiling.cuh
siboehm+SGEMM_CUDA 60cba6f src/kernels/5_kernel_2D_blocktiling.cuh
siboehm+SGEMM_CUDA 60cba6f src/kernels/6_kernel_vectorize.cuh
siboehm+SGEMM_CUDA 60cba6f src/kernels/7_kernel_resolve_bank_conflicts.cuh
siboehm+SGEMM_CUDA 60cba6f src/kernels/10_kernel_warptiling.cuh
karpathy+llm.c f1e2ace llmc/layernorm.cuh
karpathy+llm.c f1e2ace llmc/attention.cuh
karpathy+llm.c f1e2ace llmc/adamw.cuh
karpathy+llm.c f1e2ace llmc/encoder.cuh
karpathy+llm.c f1e2ace llmc/gelu.cuh
karpathy+llm.c f1e2ace dev/cuda/softmax_forward.cu
karpathy+llm.c f1e2ace dev/cuda/matmul_forward.cu
karpathy+llm.c f1e2ace dev/cuda/layernorm_forward.cu
NVlabs+tiny-cuda-nn 6ee3546 src/fully_fused_mlp.cu
NVlabs+tiny-cuda-nn 6ee3546 src/reduce_sum.cu
NVlabs+tiny-cuda-nn 6ee3546 src/cutlass_mlp.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/rms_norm.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/layer_norm.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/rope.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/q_gemm_kernel.cuh
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/h_gemm.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/cache.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/softcap.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/quant/qdq_4.cuh
'
held_out='
karpathy+llm.c f1e2ace dev/cuda/adamw.cu
karpathy+llm.c f1e2ace dev/cuda/attention_forward.cu
karpathy+llm.c f1e2ace dev/cuda/crossentropy_forward.cu
karpathy+llm.c f1e2ace dev/cuda/encoder_forward.cu
karpathy+llm.c f1e2ace dev/cuda/gelu_forward.cu
karpathy+llm.c f1e2ace dev/cuda/residual_forward.cu
NVlabs+tiny-cuda-nn 6ee3546 src/encoding.cu
NVlabs+tiny-cuda-nn 6ee3546 src/loss.cu
siboehm+SGEMM_CUDA 60cba6f src/kernels/9_kernel_autotuned.cuh
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/pack_tensor.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/q_matrix.cu
turboderp+exllamav2 b9c025b exllamav2/exllamav2_ext/cuda/quantize.cu
'
case $set_name in
  measured) files=$measured ;;
  held-out) files=$held_out ;;
  *) echo "lint-precision.sh: unknown set '$set_name' (measured or held-out)" >&2; exit 2 ;;
esac

rm -rf "$out"
echo "$files" | while read -r repo commit path; do
  [ -n "$repo" ] || continue
  mkdir -p "$out/$repo/$(dirname "$path")"
  git --git-dir="$mirrors/$repo/repo" show "$commit:$path" >"$out/$repo/$path"
done

cd "$out"
list=$(echo "$files" | awk 'NF == 3 { print $1 "/" $3 }')
# Exit status 1 only means a rule of severity error fired: the diagnostics are the result.
# shellcheck disable=SC2086
"$kforecast" lint --no-forecast $list >diagnostics.txt || [ $? -eq 1 ]
cat diagnostics.txt
echo
echo "per rule:"
grep -o '\[[a-z0-9-]*\]$' diagnostics.txt | sort | uniq -c | sort -rn
echo "total: $(grep -c ': \(warning\|error\|note\): .*\[[a-z0-9-]*\]$' diagnostics.txt || true)"
