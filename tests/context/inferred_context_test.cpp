// SPDX-License-Identifier: Apache-2.0
// infer_context: include folders guessed from the tree, on small in-memory repositories.
#include "context/inferred_context.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using kforecast::kernels::RevisionSources;
using kforecast::kernels::SourceFiles;
using Strings = std::vector<std::string>;

TEST_CASE("inferred context: an angle include of a library header gives its include folder") {
  // tiny-cuda-nn's shape: include/tiny-cuda-nn/*.h included as <tiny-cuda-nn/...>.
  const SourceFiles files{{"src/encoding.cu", "#include <tiny-cuda-nn/common.h>\n#include <cuda_fp16.h>\n"},
                          {"include/tiny-cuda-nn/common.h", "#include <tiny-cuda-nn/vec.h>\n"},
                          {"include/tiny-cuda-nn/vec.h", ""}};
  const RevisionSources tree(files);
  const auto context = infer_context(tree, "src/encoding.cu");
  CHECK(context.origin == ContextOrigin::inferred);
  CHECK(context.origin_detail == "inferred from the tree");
  CHECK(context.unit == "src/encoding.cu");
  CHECK(context.include_dirs == Strings{"include"});
  CHECK(context.defines.empty());
  CHECK(context.standard.empty());
  CHECK(context.flags.empty());
}

TEST_CASE("inferred context: a wrapper header named like the toolkit's is not its own include") {
  // ggml's shape: vendors/cuda.h wraps the toolkit's <cuda.h>. Taken for itself, its folder
  // became -Isrc/ggml-cuda/vendors, which hid the toolkit header from every unit (CUresult
  // undefined: no unit of the repository compiled).
  const SourceFiles files{{"src/ggml-cuda/cpy.cu", "#include \"vendors/cuda.h\"\n"},
                          {"src/ggml-cuda/vendors/cuda.h", "#pragma once\n#include <cuda.h>\n#include <cuda_runtime.h>\n"}};
  const RevisionSources tree(files);
  CHECK(infer_context(tree, "src/ggml-cuda/cpy.cu").include_dirs.empty());
  CHECK_FALSE(tree.resolve_include("src/ggml-cuda/vendors/cuda.h", {"cuda.h", true, 2}).has_value());
  CHECK(tree.closure("src/ggml-cuda/cpy.cu") == Strings{"src/ggml-cuda/cpy.cu", "src/ggml-cuda/vendors/cuda.h"});
}

TEST_CASE("inferred context: a toolkit header's name in angle brackets beside a library header is the toolkit's") {
  // CUTLASS 2's shape: cutlass/arch/wmma.h includes <mma.h> (the toolkit's WMMA header) and
  // holds a cutlass/arch/mma.h of its own. Taken for that file, its folder became
  // -I.../cutlass/arch, which hid the toolkit's mma.h ("identifier nvcuda is undefined": 16
  // kernels of a CUTLASS-based repository compiled at neither revision).
  const SourceFiles files{{"src/mlp.cu", "#include <cutlass/arch/wmma.h>\n#include <mma.h>\n"},
                          {"third_party/cutlass/include/cutlass/arch/wmma.h", "#include <mma.h>\n#include \"cutlass/arch/mma.h\"\n"},
                          {"third_party/cutlass/include/cutlass/arch/mma.h", "#pragma once\n"},
                          {"src/common.h", "#pragma once\n"},
                          {"src/kernel.cu", "#include <common.h>\n"}};
  const RevisionSources tree(files);
  CHECK(infer_context(tree, "src/mlp.cu").include_dirs == Strings{"third_party/cutlass/include"});
  // A project header of its own name, included in angle brackets beside it, still gives its folder.
  CHECK(infer_context(tree, "src/kernel.cu").include_dirs == Strings{"src"});
}

TEST_CASE("inferred context: a quoted include beside its includer needs no folder") {
  // llm.c's shape: the root unit includes "llmc/x.cuh", and the llmc headers include siblings.
  const SourceFiles files{{"train_gpt2.cu", "#include \"llmc/cuda_common.h\"\n"},
                          {"llmc/cuda_common.h", "#include \"utils.h\"\n"},
                          {"llmc/utils.h", ""}};
  const RevisionSources tree(files);
  CHECK(infer_context(tree, "train_gpt2.cu").include_dirs.empty());
}

TEST_CASE("inferred context: a quoted include found from the root or another folder gives that folder") {
  const SourceFiles files{{"src/k.cu", "#include \"common/defs.h\"\n#include \"kernels.cuh\"\n"},
                          {"common/defs.h", ""},
                          {"lib/kernels.cuh", "#include <helpers.h>\n"},
                          {"lib/helpers.h", ""}};
  const RevisionSources tree(files);
  // "common/defs.h" from src/ is found from the root; "kernels.cuh" in lib/; <helpers.h> beside
  // its includer still needs lib/ on the path, as an angle include does not search there.
  CHECK(infer_context(tree, "src/k.cu").include_dirs == Strings{".", "lib"});
}

TEST_CASE("inferred context: the root include folder and vendored include folders the unit reaches") {
  const SourceFiles files{{"src/mlp.cu", "#include \"../third_party/cutlass/include/cutlass/cutlass.h\"\n"},
                          {"third_party/cutlass/include/cutlass/cutlass.h", "#include \"detail.h\"\n"},
                          {"third_party/cutlass/include/cutlass/detail.h", ""},
                          {"third_party/other/include/other.h", ""},
                          {"include/project/api.h", ""}};
  const RevisionSources tree(files);
  CHECK(infer_context(tree, "src/mlp.cu").include_dirs == Strings{"include", "third_party/cutlass/include"});
}

TEST_CASE("inferred context: a unit the tree does not hold gets an empty inferred context") {
  const SourceFiles files{{"a.cu", ""}};
  const RevisionSources tree(files);
  const auto context = infer_context(tree, "missing.cu");
  CHECK(context.include_dirs.empty());
  CHECK(context.origin == ContextOrigin::inferred);
  CHECK(context.unit == "missing.cu");
}

TEST_CASE("inferred context: the build files' defines, and where they came from") {
  const SourceFiles files{{"src/encoding.cu", "#include <tiny-cuda-nn/common.h>\n"}, {"include/tiny-cuda-nn/common.h", ""}};
  const RevisionSources tree(files);
  BuildFileDefines build;
  build.defines = {{"TCNN_MIN_GPU_ARCH", "90"}, {"TCNN_HALF_PRECISION", "1"}};
  build.sources = {"CMakeLists.txt"};
  const auto context = infer_context(tree, "src/encoding.cu", &build);
  CHECK(context.defines == build.defines);
  CHECK(context.origin_detail ==
        "inferred from the tree; defines from CMakeLists.txt: TCNN_MIN_GPU_ARCH=90, TCNN_HALF_PRECISION=1");
  CHECK(nvcc_arguments(context) == Strings{"-Iinclude", "-DTCNN_MIN_GPU_ARCH=90", "-DTCNN_HALF_PRECISION=1"});
  const BuildFileDefines none;
  CHECK(infer_context(tree, "src/encoding.cu", &none).origin_detail == "inferred from the tree");
}

TEST_CASE("inferred context: the build files' code flags pass the allow-list into the arguments") {
  const SourceFiles files{{"src/encoding.cu", "int x;\n"}};
  const RevisionSources tree(files);
  BuildFileDefines build;
  build.flags = {"--extended-lambda", "-std=c++17", "--use_fast_math"};
  build.sources = {"CMakeLists.txt"};
  const auto context = infer_context(tree, "src/encoding.cu", &build);
  CHECK(context.standard == "c++17");
  CHECK(context.origin_detail == "inferred from the tree; flags from CMakeLists.txt: --extended-lambda, -std=c++17, "
                                 "--use_fast_math");
  const auto arguments = nvcc_arguments(context);
  CHECK(std::ranges::find(arguments, "-std=c++17") != arguments.end());
  CHECK(std::ranges::count_if(arguments, [](const std::string& a) { return a.find("extended-lambda") != std::string::npos; }) == 1);
  CHECK(std::ranges::count_if(arguments, [](const std::string& a) { return a.find("fast_math") != std::string::npos; }) == 1);
}
