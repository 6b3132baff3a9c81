//===- tf/layout/text/tiler.hpp - Parsing tilers --------------------------===//
//
// A tiler is a tuple of layouts applied by mode (divide and product take one
// where CuTe takes make_tile(...)). It is written `tile(64:1, (2,4):(1,8))`:
// element i acts on top-level mode i of the tiled layout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/composition.hpp"
#include "tf/layout/text/parse.hpp"

#include <string_view>

namespace tf {

/// Whether `text` is written as a tiler, `tile(...)`, after leading blanks.
constexpr bool is_tiler_text(std::string_view text) {
  std::size_t at = text.find_first_not_of(" \t\n");
  return at != std::string_view::npos && text.substr(at).starts_with("tile(");
}

/// Parses `tile(L0, L1, ...)`: "tile(64:1, 256:1)" gives the tiler of the two
/// layouts 64:1 and 256:1. Errors carry positions into `text`.
constexpr Result<Tiler> parse_tiler(std::string_view text) {
  auto fail = [](const char *what, std::size_t at) {
    Error e = make_error(Errc::parse, what);
    e.position = static_cast<int>(at);
    return e;
  };
  std::size_t open = text.find_first_not_of(" \t\n");
  if (!is_tiler_text(text))
    return fail("expected 'tile(' to start a tiler", open == text.npos ? 0 : open);
  std::size_t pos = open + 5;
  std::size_t close = text.find_last_not_of(" \t\n");
  if (text[close] != ')')
    return fail("expected ')' to close the tiler", close + 1);
  Tiler tiler;
  int depth = 0;
  std::size_t start = pos;
  for (std::size_t i = pos; i <= close; ++i) {
    char c = text[i];
    bool end = i == close;
    if (!end && (c == '(' || c == '['))
      ++depth;
    else if (!end && (c == ')' || c == ']'))
      --depth;
    if (!(end || (c == ',' && depth == 0)))
      continue;
    std::string_view piece = text.substr(start, i - start);
    if (piece.find_first_not_of(" \t\n") == std::string_view::npos)
      return fail("expected a layout in the tiler", start);
    Result<Layout> mode = parse_layout(piece);
    if (!mode) {
      Error e = mode.error();
      e.position += static_cast<int>(start);
      return e;
    }
    if (!tiler.modes.push_back(*mode))
      return make_error(Errc::capacity, "a tiler has at most {} modes",
                        static_cast<std::int64_t>(max_tiler_rank));
    start = i + 1;
  }
  return tiler;
}

} // namespace tf
