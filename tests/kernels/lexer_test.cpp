// SPDX-License-Identifier: Apache-2.0
#include "kernels/lexer.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast::kernels;

namespace {

std::vector<std::string> texts(std::string_view source) {
  std::vector<std::string> out;
  for (const Token& t : lex(source)) out.emplace_back(t.text());
  return out;
}

std::vector<TokenKind> kinds(std::string_view source) {
  std::vector<TokenKind> out;
  for (const Token& t : lex(source)) out.push_back(t.kind);
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("kernels: lexer drops comments and whitespace and keeps everything else") {
  CHECK(texts("a /* b */ c // d\ne") == V{"a", "c", "e"});
  CHECK(texts("x/**/y") == V{"x", "y"});
  CHECK(texts("/* unterminated __global__ void k() {").empty());
  CHECK(texts("a // comment continued \\\n still comment\nb") == V{"a", "b"});
  CHECK(texts("").empty());
  CHECK(texts(" \t\r\n\f\v").empty());
}

TEST_CASE("kernels: lexer takes the longest operator") {
  CHECK(texts("a<<=b>>=c") == V{"a", "<<=", "b", ">>=", "c"});
  CHECK(texts("p->*q.*r->s") == V{"p", "->*", "q", ".*", "r", "->", "s"});
  CHECK(texts("a&&b&c||d") == V{"a", "&&", "b", "&", "c", "||", "d"});
  CHECK(texts("k<<<g,b>>>(x)") == V{"k", "<<", "<", "g", ",", "b", ">>", ">", "(", "x", ")"});
  CHECK(texts("ns::f(...)") == V{"ns", "::", "f", "(", "...", ")"});
  CHECK(texts("a<=>b") == V{"a", "<=>", "b"});
  CHECK(texts("a+ +b") == V{"a", "+", "+", "b"});  // not "++": the space mattered
}

TEST_CASE("kernels: lexer reads numbers as preprocessing numbers") {
  CHECK(texts("1.5e-3f+0x1Fu") == V{"1.5e-3f", "+", "0x1Fu"});
  CHECK(texts("1'000'000") == V{"1'000'000"});
  CHECK(texts(".5f") == V{".5f"});
  CHECK(texts("0x1p+4") == V{"0x1p+4"});
  CHECK(kinds("42") == std::vector{TokenKind::number});
}

TEST_CASE("kernels: lexer reads string and character literals with prefixes and escapes") {
  CHECK(texts(R"(s = "a \"quoted\" } {";)") == V{"s", "=", R"("a \"quoted\" } {")", ";"});
  CHECK(texts(R"(u8"x" u"y" U"z" L"w")") == V{R"(u8"x")", R"(u"y")", R"(U"z")", R"(L"w")"});
  CHECK(texts(R"(c = '\'' + L'x' + '{';)") == V{"c", "=", R"('\'')", "+", "L'x'", "+", "'{'", ";"});
  CHECK(kinds(R"(u8"x" 'c')") == std::vector{TokenKind::string_literal, TokenKind::char_literal});
  CHECK(texts("u8 x") == V{"u8", "x"});  // a prefix alone is a name
  // An unterminated literal ends with its line, so the next line is read as code.
  CHECK(texts("a = \"open\nb;") == V{"a", "=", "\"open", "b", ";"});
  CHECK(texts("'x") == V{"'x"});
}

TEST_CASE("kernels: lexer reads raw strings whole") {
  const std::string source = "R\"d(a )\" } { \"\n)d\" after";
  const auto tokens = lex(source);
  REQUIRE(tokens.size() == 2);
  CHECK(tokens[0].text() == "R\"d(a )\" } { \"\n)d\"");
  CHECK(tokens[0].kind == TokenKind::string_literal);
  CHECK(tokens[1].text() == "after");
  CHECK(tokens[1].line == 2);
  CHECK(texts("u8R\"(x)\" LR\"(y)\"") == V{"u8R\"(x)\"", "LR\"(y)\""});
  CHECK(texts("R\"(never closed } {") == V{"R\"(never closed } {"});
  // A delimiter with a space is not a raw string: R is a name, then an ordinary string.
  CHECK(texts("R\"a b(x)a b\"") == V{"R", "\"a b(x)a b\""});
}

TEST_CASE("kernels: lexer brackets directives and continues them over backslash-newlines") {
  const auto tokens = lex("#define A(x) \\\n  (x + 1)\nint y;\n  # include <a/b.h>\n#include \"c.h\"");
  std::vector<TokenKind> k;
  for (const Token& t : tokens) k.push_back(t.kind);
  using K = TokenKind;
  CHECK(k == std::vector{K::directive_begin, K::identifier,     K::identifier,   K::punctuation,   K::identifier,
                         K::punctuation,     K::punctuation,    K::identifier,   K::punctuation,   K::number,
                         K::punctuation,     K::directive_end,  K::identifier,   K::identifier,    K::punctuation,
                         K::directive_begin, K::identifier,     K::header_name,  K::directive_end, K::directive_begin,
                         K::identifier,      K::string_literal, K::directive_end});
  CHECK(tokens[17].text() == "<a/b.h>");
  CHECK(tokens[11].line == 2);  // the directive ends on its continuation line
  CHECK(tokens[12].line == 3);
  // '#' that does not start a line is an operator.
  CHECK(kinds("a # b") == std::vector{TokenKind::identifier, TokenKind::punctuation, TokenKind::identifier});
  // '<' after another directive is an operator.
  CHECK(kinds("#if A<B\n") == std::vector{TokenKind::directive_begin, TokenKind::identifier, TokenKind::identifier,
                                          TokenKind::punctuation, TokenKind::identifier, TokenKind::directive_end});
}

TEST_CASE("kernels: lexer counts lines across LF, CRLF, continuations and multi-line tokens") {
  const auto tokens = lex("a\r\nb /* 1\n2 */ c\\\r\nd \"s\\\ns\" e\n\nf");
  REQUIRE(tokens.size() == 7);
  CHECK(tokens[0].line == 1);
  CHECK(tokens[1].line == 2);
  CHECK(tokens[2].line == 3);
  CHECK(tokens[3].line == 4);
  CHECK(tokens[4].text() == "\"s\\\ns\"");
  CHECK(tokens[5].line == 5);
  CHECK(tokens[6].line == 7);
}

TEST_CASE("kernels: lexer takes any bytes") {
  static constexpr char raw[] = "a\xff\xfe b @ ` \\ \0 c";
  const std::string bytes(raw, sizeof raw - 1);
  const auto tokens = lex(bytes);
  REQUIRE(tokens.size() == 7);
  CHECK(tokens[0].text() == "a\xff\xfe");  // bytes >= 0x80 are name characters (UTF-8 names)
  CHECK(tokens[2].kind == TokenKind::other);
  CHECK(tokens[5].text() == std::string_view("\0", 1));
  CHECK(tokens[6].text() == "c");
  Lexer lexer("x");
  CHECK(lexer.next().text() == "x");
  CHECK(lexer.next().kind == TokenKind::end);
  CHECK(lexer.next().kind == TokenKind::end);  // and again
}
