//===- plugin/targets/TomlText.cpp - Text checks before TOML parsing ------===//
//
// A small TOML lexer that knows only what decides whether a '#' opens a
// comment: comments and the four kinds of string (basic "…", literal '…',
// and their multi-line forms """…""" and '''…'''). Everything else is left
// to the parser.
//
//===----------------------------------------------------------------------===//
#include "TomlText.h"

using namespace llvm;

namespace tf::targets {
namespace {

/// Decodes one UTF-8 sequence at the start of \p S; 0 bytes if invalid.
struct Decoded {
  char32_t CodePoint = 0;
  size_t Bytes = 0;
};

Decoded decodeUtf8(StringRef S) {
  auto Byte = [&](size_t I) { return static_cast<unsigned char>(S[I]); };
  unsigned char Lead = Byte(0);
  if (Lead < 0x80)
    return {Lead, 1};
  size_t Length = Lead >= 0xF0 && Lead <= 0xF4   ? 4
                  : Lead >= 0xE0                 ? 3
                  : Lead >= 0xC2 && Lead <= 0xDF ? 2
                                                 : 0;
  if (Lead > 0xF4 || Length == 0 || S.size() < Length)
    return {};
  char32_t CodePoint = Lead & (0x7F >> Length);
  for (size_t I = 1; I < Length; ++I) {
    if ((Byte(I) & 0xC0) != 0x80)
      return {};
    CodePoint = (CodePoint << 6) | (Byte(I) & 0x3F);
  }
  static constexpr char32_t Smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (CodePoint < Smallest[Length] || CodePoint > 0x10FFFF ||
      (CodePoint >= 0xD800 && CodePoint <= 0xDFFF))
    return {};
  return {CodePoint, Length};
}

enum class Context {
  Code,
  Comment,
  BasicString,
  LiteralString,
  MultiLineBasicString,
  MultiLineLiteralString,
};

} // namespace

std::optional<OutsideComment> findNonAsciiOutsideComments(StringRef Text) {
  Context In = Context::Code;
  unsigned Line = 1, Column = 1;
  size_t I = 0;
  // Consumes N ASCII bytes (none of them a line break).
  auto skip = [&](size_t N) {
    I += N;
    Column += N;
  };
  while (I < Text.size()) {
    StringRef Rest = Text.drop_front(I);
    char C = Rest.front();
    if (static_cast<unsigned char>(C) >= 0x80) {
      Decoded D = decodeUtf8(Rest);
      if (D.Bytes == 0)
        return std::nullopt;
      if (In != Context::Comment)
        return OutsideComment{Line, Column, D.CodePoint};
      I += D.Bytes;
      ++Column;
      continue;
    }
    if (C == '\n') {
      ++Line;
      Column = 1;
      ++I;
      // A line break ends a comment and (as an error the parser reports)
      // a single-line string.
      if (In == Context::Comment || In == Context::BasicString ||
          In == Context::LiteralString)
        In = Context::Code;
      continue;
    }
    switch (In) {
    case Context::Code:
      if (C == '#')
        In = Context::Comment;
      else if (Rest.starts_with("\"\"\"")) {
        In = Context::MultiLineBasicString;
        skip(3);
        continue;
      } else if (Rest.starts_with("'''")) {
        In = Context::MultiLineLiteralString;
        skip(3);
        continue;
      } else if (C == '"')
        In = Context::BasicString;
      else if (C == '\'')
        In = Context::LiteralString;
      break;
    case Context::Comment:
      break;
    case Context::BasicString:
    case Context::MultiLineBasicString:
      // An escape's second character never ends the string; a line-ending
      // backslash is followed by '\n', counted as a line above.
      if (C == '\\' && Rest.size() > 1 && Rest[1] != '\n') {
        if (static_cast<unsigned char>(Rest[1]) >= 0x80) {
          skip(1);
          continue; // the escaped character is checked as any other
        }
        skip(2);
        continue;
      }
      if (In == Context::BasicString && C == '"')
        In = Context::Code;
      else if (In == Context::MultiLineBasicString &&
               Rest.starts_with("\"\"\"")) {
        // Up to two quotes before the closing three belong to the string.
        size_t Run = Rest.find_first_not_of('"');
        skip(std::min<size_t>(Run == StringRef::npos ? Rest.size() : Run, 5));
        In = Context::Code;
        continue;
      }
      break;
    case Context::LiteralString:
      if (C == '\'')
        In = Context::Code;
      break;
    case Context::MultiLineLiteralString:
      if (Rest.starts_with("'''")) {
        size_t Run = Rest.find_first_not_of('\'');
        skip(std::min<size_t>(Run == StringRef::npos ? Rest.size() : Run, 5));
        In = Context::Code;
        continue;
      }
      break;
    }
    skip(1);
  }
  return std::nullopt;
}

} // namespace tf::targets
