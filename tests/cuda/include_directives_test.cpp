// SPDX-License-Identifier: Apache-2.0
// Every spelling of a file read that we know of must be found: a missed one would let a pull
// request's kernel read a file of the runner.

#include <catch2/catch.hpp>

#include "cuda/include_directives.hpp"

using kforecast::cuda::find_include_directives;
using kforecast::cuda::IncludeDirective;
using kforecast::cuda::IncludeForm;

namespace {

bool finds(std::string_view source, std::string_view name, IncludeForm form = IncludeForm::quoted) {
  const auto found = find_include_directives(source);
  return std::ranges::any_of(found, [&](const IncludeDirective& d) { return d.name == name && d.form == form; });
}

}  // namespace

TEST_CASE("cuda: include directives are found however they are spelled") {
  const std::string_view target = "/proc/self/environ";
  for (const std::string_view source : {
           "#include \"/proc/self/environ\"\n",
           "  #  include   \"/proc/self/environ\"\n",
           "#/* a comment */include \"/proc/self/environ\"\n",
           "#\\\ninclude \"/proc/self/environ\"\n",
           "#inc\\\nlude \"/proc/self/environ\"\n",
           "#inc\\   \nlude \"/proc/self/environ\"\n",   // GCC splices past trailing blanks
           "%:include \"/proc/self/environ\"\n",         // digraph
           "?\?=include \"/proc/self/environ\"\n",       // trigraph
           "int x;\r#include \"/proc/self/environ\"\r",  // bare CR line ends
           "int x;\r\n#include \"/proc/self/environ\"\r\n",
           "/* open\n*/ #include \"/proc/self/environ\"\n",
           "#if 0\n#include \"/proc/self/environ\"\n#endif\n",
           "#include_next \"/proc/self/environ\"\n",
           "#import \"/proc/self/environ\"\n",
           "const char* s = R\"x(never closed\n#include \"/proc/self/environ\"\n",
           "/* never closed\n#include \"/proc/self/environ\"\n",
       }) {
    INFO(source);
    CHECK(finds(source, target));
  }
  CHECK(finds("#include </proc/self/environ>\n", target, IncludeForm::angled));
}

TEST_CASE("cuda: include directives in literals and comments are not directives") {
  CHECK(find_include_directives("const char* s = \"#include \\\"/etc/passwd\\\"\";\n").empty());
  CHECK(find_include_directives("// #include \"/etc/passwd\"\n").empty());
  CHECK(find_include_directives("auto s = R\"(\n#include \"/etc/passwd\"\n)\";\n").empty());
  CHECK(find_include_directives("int x = 1'000'000; // '#include\n").empty());
  CHECK(find_include_directives("char c = '\"'; /* \" */ int y;\n").empty());
}

TEST_CASE("cuda: computed includes, #embed and __has_include probes are reported") {
  SECTION("a macro as the header name") {
    const auto found = find_include_directives("#define P \"/proc/self/environ\"\n#include P\n");
    REQUIRE(found.size() == 1);
    CHECK(found[0].form == IncludeForm::computed);
    CHECK(found[0].name == "P");
    CHECK(found[0].line == 2);
  }
  SECTION("#embed") {
    const auto found = find_include_directives("const char k[] = {\n#embed \"/proc/self/environ\"\n};\n");
    REQUIRE(found.size() == 1);
    CHECK(found[0].directive == "embed");
  }
  SECTION("__has_include probes, but not the test for the probe itself") {
    const auto found = find_include_directives(
        "#if defined(__has_include)\n#if __has_include(\"/proc/self/environ\") && __has_include(<cuda_fp16.h>)\n"
        "#endif\n#endif\n");
    REQUIRE(found.size() == 2);
    CHECK(found[0].directive == "__has_include");
    CHECK(found[0].name == "/proc/self/environ");
    CHECK(found[1].form == IncludeForm::angled);
  }
  SECTION("a computed probe") {
    const auto found = find_include_directives("#if __has_include(NAME(x))\n#endif\n");
    REQUIRE(found.size() == 1);
    CHECK(found[0].form == IncludeForm::computed);
    CHECK(found[0].name == "NAME(x)");
  }
}

TEST_CASE("cuda: include directives name the line a person sees") {
  const auto found = find_include_directives("// one\n#include \"a.h\"\n#define X \\\n  1\n#include <b.h>\n");
  REQUIRE(found.size() == 2);
  CHECK(found[0].line == 2);
  CHECK(found[1].line == 5);
  CHECK(found[1].name == "b.h");
}
