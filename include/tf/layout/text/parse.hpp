//===- tf/layout/text/parse.hpp - Parsing layouts from text ---------------===//
//
// One constexpr parser for every written form of a layout, so that
// `tf::layout<"...">` (constant evaluation), the plugin (attribute strings)
// and the CLI read the same notation with the same error messages:
//
//   ((2,8,8),(4,16)):((4096,512,64),(16,1))        CuTe style, shape:stride
//   (3,128)                                         shape alone, row-major
//   Layout(((2,8,8),(4,16)),((4096,512,64),(16,1)))  call style
//   <layout> + 128 | Swizzle(3,4,3)                 offset and swizzle
//   ComposedLayout(Swizzle(3,4,3) or None, p0, Layout(...))
//   [2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] + 128     matrix
//   Swizzle(3,4,3) o [2 8 8 4 16; 4096 512 64 16 1]
//
// Extents are numbers, `?` (dynamic), names (symbolic) or `*name` (variadic);
// a shape extent may carry `@axis`. Errors are Errc::parse with the byte
// offset of the problem; docs/layout/notation.md lists them all.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/composed_layout.hpp"
#include "tf/layout/shard_layout.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf {

/// How deeply tuples may nest in text; deeper text is an Errc::capacity error
/// rather than deep recursion.
inline constexpr int max_text_depth = 16;

/// Everything a layout text can say: the layout, the axis bindings of its
/// leaves, an offset and a swizzle. Meshes and shard layouts use all of it;
/// parse_layout and parse_composed_layout accept only what their type holds.
struct LayoutText {
  Layout layout{};
  /// One binding per leaf of layout.shape, in written order, when has_axes;
  /// empty otherwise.
  FixedVector<AxisRef, max_shard_leaves> axes{};
  bool has_axes = false;
  /// `+ 128`, `+ p0`, or ComposedLayout's second argument.
  Int offset{};
  bool has_offset = false;
  /// `| Swizzle(b,m,s)`, `Swizzle(b,m,s) o`, or ComposedLayout's first
  /// argument when it is not None.
  Swizzle swizzle{};
  bool has_swizzle = false;

  friend constexpr bool operator==(const LayoutText &,
                                   const LayoutText &) = default;
};

namespace detail {

/// What an entry point accepts besides a layout.
struct TextOptions {
  bool axes = true;
  bool offset = true;
  bool swizzle = true;
};

/// Where an Int stands, which decides what may be written there.
enum class EntryRole : std::uint8_t { extent, stride, offset };

/// A recursive-descent parser over one text. Every method leaves `pos` at the
/// first character it did not consume; failures carry that position.
class LayoutTextParser {
public:
  constexpr LayoutTextParser(std::string_view text, TextOptions options)
      : text(text), options(options) {}

  /// The whole text as a layout with optional axes, offset and swizzle.
  constexpr Result<LayoutText> parse_text() {
    LayoutText out;
    if (next_is_call("Swizzle")) {
      Result<bool> sw = parse_swizzle_call(out);
      if (!sw)
        return sw.error();
      if (!accept_word("o") && !accept_word("\xE2\x88\x98"))
        return fail("expected 'o' (composition) after the swizzle", here());
    }
    if (next_is_call("ComposedLayout")) {
      if (out.has_swizzle)
        return fail("a layout has at most one swizzle", here());
      Result<bool> composed = parse_composed_call(out);
      if (!composed)
        return composed.error();
      if (!at_end())
        return fail("expected the end of the layout", here());
      return finish(out);
    }
    Result<Layout> core = parse_core();
    if (!core)
      return core.error();
    out.layout = *core;
    if (peek() == '+') {
      Result<bool> offset = parse_offset_suffix(out);
      if (!offset)
        return offset.error();
    }
    if (peek() == '|') {
      std::size_t bar = pos++;
      if (out.has_swizzle)
        return fail("a layout has at most one swizzle", bar);
      if (!next_is_call("Swizzle"))
        return fail("expected 'Swizzle(b,m,s)' after '|'", here());
      Result<bool> sw = parse_swizzle_call(out);
      if (!sw)
        return sw.error();
      if (peek() == '+')
        return fail("an offset comes before the swizzle: write "
                    "'layout + offset | Swizzle(b,m,s)'",
                    here());
    }
    if (!at_end())
      return fail(out.has_swizzle  ? "expected the end of the layout"
                  : out.has_offset ? "expected '| Swizzle(b,m,s)' or the end "
                                     "of the layout"
                                   : "expected ':', '+ offset', "
                                     "'| Swizzle(b,m,s)' or the end of the "
                                     "layout",
                  here());
    return finish(out);
  }

  /// The whole text as one IntTuple (a shape; axes as the options allow).
  constexpr Result<IntTuple> parse_tuple_text() {
    Result<IntTuple> t = parse_shape();
    if (!t)
      return t;
    if (!at_end())
      return fail("expected the end of the tuple", here());
    return t;
  }

private:
  std::string_view text;
  TextOptions options;
  std::size_t pos = 0;
  FixedVector<AxisRef, max_shard_leaves> axes{};
  bool has_axes = false;
  int leaves = 0;
  /// Where the first leaf beyond max_shard_leaves starts, if there is one:
  /// an error only once some leaf turns out to be bound.
  int first_extra_leaf = -1;

  static constexpr bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
  static constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
  static constexpr bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  static constexpr bool is_name_char(char c) {
    return is_name_start(c) || is_digit(c);
  }

  constexpr Error fail(const char *what, std::size_t at, std::int64_t value = 0,
                       Errc code = Errc::parse) const {
    Error e = make_error(code, what, value);
    e.position = static_cast<int>(at);
    return e;
  }

  constexpr std::size_t here() {
    while (pos < text.size() && is_space(text[pos]))
      ++pos;
    return pos;
  }
  /// The next non-space character, '\0' at the end.
  constexpr char peek() {
    here();
    return pos < text.size() ? text[pos] : '\0';
  }
  constexpr bool at_end() { return here() == text.size(); }
  constexpr bool accept(char c) {
    if (peek() != c || pos == text.size())
      return false;
    ++pos;
    return true;
  }
  /// The identifier starting at the next non-space character (may be empty).
  constexpr std::string_view name_here() {
    std::size_t end = here();
    if (end < text.size() && is_name_start(text[end]))
      while (end < text.size() && is_name_char(text[end]))
        ++end;
    return text.substr(pos, end - pos);
  }
  /// Consumes `word` if it comes next as a whole word (or, for a non-name
  /// token such as '∘', as written).
  constexpr bool accept_word(std::string_view word) {
    if (is_name_start(word[0]) ? name_here() != word
                               : text.substr(here()).substr(0, word.size()) !=
                                     word)
      return false;
    pos += word.size();
    return true;
  }
  /// Whether `word(` comes next; consumes nothing.
  constexpr bool next_is_call(std::string_view word) {
    std::size_t saved = pos;
    bool yes = accept_word(word) && peek() == '(';
    pos = saved;
    return yes;
  }

  constexpr Result<std::int64_t> parse_number() {
    std::size_t start = here();
    bool negative = false;
    if (text[pos] == '-') {
      negative = true;
      ++pos;
      if (pos == text.size() || !is_digit(text[pos]))
        return fail("expected a number after '-'", pos);
    }
    std::int64_t value = 0;
    constexpr std::int64_t limit = INT64_MAX;
    for (; pos < text.size() && is_digit(text[pos]); ++pos) {
      int digit = text[pos] - '0';
      if (value > (limit - digit) / 10)
        return fail("number does not fit in 64 bits", start);
      value = value * 10 + digit;
    }
    return negative ? -value : value;
  }

  constexpr Result<Name> parse_name() {
    std::string_view name = name_here();
    if (!Name::fits(name))
      return fail("name is longer than {} characters", pos,
                  std::int64_t(Name::max_length));
    pos += name.size();
    return Name(name);
  }

  /// One extent, stride or offset: a number, `?`, a name or `*name`.
  constexpr Result<Int> parse_entry(EntryRole role) {
    char c = peek();
    std::size_t start = pos;
    if (is_digit(c) || (c == '-' && role == EntryRole::stride)) {
      Result<std::int64_t> n = parse_number();
      if (!n)
        return n.error();
      return Int::constant(*n);
    }
    if (c == '?') {
      ++pos;
      return Int::dynamic();
    }
    if (c == '*' && role != EntryRole::offset) {
      ++pos;
      if (pos == text.size() || !is_name_start(text[pos]))
        return fail("expected a name after '*'", pos);
      Result<Name> name = parse_name();
      if (!name)
        return name.error();
      return Int::symbolic(*name, true);
    }
    if (is_name_start(c)) {
      Result<Name> name = parse_name();
      if (!name)
        return name.error();
      return Int::symbolic(*name);
    }
    return fail(role == EntryRole::extent
                    ? "expected an extent: a number, '?', a name or '*name'"
                : role == EntryRole::stride
                    ? "expected a stride: a number, '?', a name or '*name'"
                    : "expected an offset: a number, '?' or a name",
                start);
  }

  /// The optional `@axis` after a shape leaf, recorded for that leaf.
  constexpr Result<bool> parse_axis(std::size_t leaf_at) {
    AxisRef ref;
    if (peek() == '@') {
      std::size_t at = pos++;
      if (!options.axes)
        return fail("axis bindings ('@axis') belong to meshes and shard "
                    "layouts, not to a layout",
                    at);
      char c = peek();
      if (is_digit(c)) {
        Result<std::int64_t> index = parse_number();
        if (!index)
          return index.error();
        if (*index > 255)
          return fail("axis index {} is too large", at + 1, *index);
        ref.index = static_cast<int>(*index);
      } else if (is_name_start(c)) {
        Result<Name> name = parse_name();
        if (!name)
          return name.error();
        ref.name = *name;
      } else {
        return fail("expected an axis after '@': a name or a mode index", pos);
      }
      has_axes = true;
    }
    if (leaves < static_cast<int>(max_shard_leaves))
      axes.push_back(ref);
    else if (first_extra_leaf < 0)
      first_extra_leaf = static_cast<int>(leaf_at);
    ++leaves;
    return true;
  }

  /// Appends one extent with its optional axis to `parent`.
  constexpr Result<bool> parse_shape_leaf(IntTuple &parent) {
    std::size_t start = here();
    Result<Int> leaf = parse_entry(EntryRole::extent);
    if (!leaf)
      return leaf.error();
    Result<bool> axis = parse_axis(start);
    if (!axis)
      return axis;
    parent.push_back(IntTuple(*leaf));
    if (parent.overflow())
      return fail("a shape has more than {} nodes", start,
                  std::int64_t(max_int_tuple_nodes), Errc::capacity);
    return true;
  }

  /// Appends one shape mode (a leaf with its axis, or a tuple) to `parent`.
  constexpr Result<bool> parse_shape_mode(IntTuple &parent, int depth) {
    std::size_t start = here();
    if (!accept('('))
      return parse_shape_leaf(parent);
    if (depth == max_text_depth)
      return fail("tuples nest deeper than {} levels", start, max_text_depth,
                  Errc::capacity);
    IntTuple tuple;
    // `(8)` and Python's `(8,)` are both the one-mode tuple.
    if (!accept(')')) {
      while (true) {
        Result<bool> mode = parse_shape_mode(tuple, depth + 1);
        if (!mode)
          return mode;
        if (accept(')'))
          break;
        if (!accept(','))
          return fail("expected ',' or ')' to close the tuple", here());
        if (accept(')'))
          break;
      }
    }
    parent.push_back(tuple);
    if (parent.overflow())
      return fail("a shape has more than {} nodes", start,
                  std::int64_t(max_int_tuple_nodes), Errc::capacity);
    return true;
  }

  /// A whole shape: a leaf or a tuple.
  constexpr Result<IntTuple> parse_shape() {
    IntTuple holder;
    Result<bool> mode = parse_shape_mode(holder, 0);
    if (!mode)
      return mode.error();
    return holder.mode(0);
  }

  /// A stride with the structure of `shape`'s subtree at `node`; a mismatch
  /// is reported where the stride departs from the shape.
  constexpr Result<IntTuple> parse_stride(const IntTuple &shape,
                                          std::size_t node) {
    const IntTupleNode &n = shape.nodes[node];
    std::size_t start = here();
    if (n.is_leaf) {
      if (peek() == '(')
        return fail("expected a stride, not a tuple: the shape has an extent "
                    "here",
                    start);
      Result<Int> leaf = parse_entry(EntryRole::stride);
      if (!leaf)
        return leaf.error();
      if (peek() == '@')
        return fail("an axis binding belongs on the extent, not on the "
                    "stride",
                    pos);
      return IntTuple(*leaf);
    }
    if (!accept('('))
      return fail("expected '(': the shape has a tuple here", start);
    IntTuple tuple;
    std::size_t child = node + 1;
    for (int i = 0; i < n.arity; ++i) {
      if (i > 0 && !accept(','))
        return fail("expected ',': the shape has more modes here", here());
      Result<IntTuple> mode = parse_stride(shape, child);
      if (!mode)
        return mode;
      tuple.push_back(*mode);
      child += shape.nodes[child].span;
    }
    if (n.arity > 0)
      accept(',');
    if (!accept(')'))
      return fail("expected ')': the shape has no more modes here", here());
    return tuple;
  }

  /// `shape` or `shape:stride`.
  constexpr Result<Layout> parse_cute() {
    Result<IntTuple> shape = parse_shape();
    if (!shape)
      return shape.error();
    if (!accept(':'))
      return make_layout(*shape);
    Result<IntTuple> stride = parse_stride(*shape, 0);
    if (!stride)
      return stride.error();
    return Layout{*shape, *stride};
  }

  /// `Layout(shape)` or `Layout(shape, stride)`.
  constexpr Result<Layout> parse_seed_call() {
    accept_word("Layout");
    accept('(');
    Result<IntTuple> shape = parse_shape();
    if (!shape)
      return shape.error();
    Layout out = make_layout(*shape);
    if (accept(',') && peek() != ')') {
      Result<IntTuple> stride = parse_stride(*shape, 0);
      if (!stride)
        return stride.error();
      out.stride = *stride;
      accept(',');
    }
    if (!accept(')'))
      return fail("expected ')' to close 'Layout('", here());
    return out;
  }

  /// `[e e ...; s s ...]` or `[e e ...] [s s ...]`: columns are flat modes.
  constexpr Result<Layout> parse_matrix() {
    accept('[');
    IntTuple shape;
    while (peek() != ';' && peek() != ']') {
      if (at_end())
        return fail("expected ';' after the extent row", pos);
      Result<bool> entry = parse_shape_leaf(shape);
      if (!entry)
        return entry.error();
      accept(',');
    }
    int columns = shape.rank();
    if (!accept(';')) {
      accept(']');
      if (!accept('['))
        return fail("expected '[' to start the stride row", here());
    }
    IntTuple stride;
    for (int i = 0; !accept(']'); ++i) {
      if (i == columns)
        return fail("expected ']': the stride row is longer than the extent "
                    "row",
                    here());
      Result<Int> entry = parse_entry(EntryRole::stride);
      if (!entry)
        return entry.error();
      if (peek() == '@')
        return fail("an axis binding belongs on the extent, not on the "
                    "stride",
                    pos);
      stride.push_back(IntTuple(*entry));
      accept(',');
    }
    if (stride.rank() < columns)
      return fail("expected a stride: the stride row is shorter than the "
                  "extent row",
                  pos - 1);
    return Layout{shape, stride};
  }

  /// The layout itself, without offset or swizzle.
  constexpr Result<Layout> parse_core() {
    if (next_is_call("Layout"))
      return parse_seed_call();
    char c = peek();
    if (c == '[')
      return parse_matrix();
    if (c == '(' || is_digit(c) || c == '?' || c == '*' || is_name_start(c))
      return parse_cute();
    return fail("expected a layout: 'shape:stride', 'Layout(shape, stride)' "
                "or '[extents; strides]'",
                here());
  }

  /// `Swizzle(b,m,s)`, checked, into `out`.
  constexpr Result<bool> parse_swizzle_call(LayoutText &out) {
    std::size_t at = here();
    if (!options.swizzle)
      return fail("a swizzle needs a composed layout, not a plain layout", at);
    accept_word("Swizzle");
    accept('(');
    int values[3] = {};
    for (int i = 0; i < 3; ++i) {
      if (i > 0 && !accept(','))
        return fail("expected ',' between swizzle parameters", here());
      std::size_t value_at = here();
      if (!is_digit(peek()) && peek() != '-')
        return fail("expected an integer swizzle parameter", value_at);
      Result<std::int64_t> v = parse_number();
      if (!v)
        return v.error();
      if (*v < -max_swizzle_bit || *v > max_swizzle_bit)
        return fail("swizzle parameter {} is out of range", value_at, *v);
      values[i] = static_cast<int>(*v);
    }
    if (!accept(')'))
      return fail("expected ')' to close 'Swizzle('", here());
    Result<Swizzle> sw = make_swizzle(values[0], values[1], values[2]);
    if (!sw) {
      Error e = sw.error();
      e.code = Errc::parse;
      e.position = static_cast<int>(at);
      return e;
    }
    out.swizzle = *sw;
    out.has_swizzle = true;
    return true;
  }

  /// `+ offset` into `out`.
  constexpr Result<bool> parse_offset_suffix(LayoutText &out) {
    std::size_t plus = pos++;
    if (!options.offset)
      return fail("an offset needs a composed layout, not a plain layout",
                  plus);
    Result<Int> offset = parse_entry(EntryRole::offset);
    if (!offset)
      return offset.error();
    out.offset = *offset;
    out.has_offset = true;
    return true;
  }

  /// `ComposedLayout(Swizzle(b,m,s) or None, offset, layout)` into `out`.
  constexpr Result<bool> parse_composed_call(LayoutText &out) {
    accept_word("ComposedLayout");
    accept('(');
    if (next_is_call("Swizzle")) {
      Result<bool> sw = parse_swizzle_call(out);
      if (!sw)
        return sw;
    } else if (!accept_word("None")) {
      return fail("expected a swizzle: 'Swizzle(b,m,s)' or 'None'", here());
    }
    if (!accept(','))
      return fail("expected ',' after the swizzle", here());
    std::size_t offset_at = here();
    Result<Int> offset = parse_entry(EntryRole::offset);
    if (!offset)
      return offset.error();
    if (!options.offset && !(*offset == Int{}))
      return fail("an offset needs a composed layout, not a plain layout",
                  offset_at);
    out.offset = *offset;
    out.has_offset = true;
    if (!accept(','))
      return fail("expected ',' after the offset", here());
    char c = peek();
    if (!next_is_call("Layout") && c != '(' && !is_digit(c) && c != '?' &&
        c != '*' && !is_name_start(c))
      return fail("expected a layout: 'Layout(shape, stride)' or "
                  "'shape:stride'",
                  here());
    Result<Layout> layout =
        next_is_call("Layout") ? parse_seed_call() : parse_cute();
    if (!layout)
      return layout.error();
    out.layout = *layout;
    if (!accept(')'))
      return fail("expected ')' to close 'ComposedLayout('", here());
    return true;
  }

  /// Attaches the axes gathered while parsing the shape.
  constexpr Result<LayoutText> finish(LayoutText &out) const {
    if (has_axes && first_extra_leaf >= 0)
      return fail("a layout with axis bindings has at most {} leaves",
                  static_cast<std::size_t>(first_extra_leaf),
                  std::int64_t(max_shard_leaves), Errc::capacity);
    out.has_axes = has_axes;
    if (has_axes)
      out.axes = axes;
    return out;
  }
};

} // namespace detail

/// Parses any written form of a layout, keeping axis bindings, offset and
/// swizzle: "[2@group 4@warp; 32 1] + 128" gives axes (group, warp), offset
/// 128.
constexpr Result<LayoutText> parse_layout_text(std::string_view text) {
  return detail::LayoutTextParser(text, {}).parse_text();
}

/// Parses a plain Layout: "(3,128)" gives (3,128):(128,1). Axis bindings, an
/// offset or a swizzle in the text are errors.
constexpr Result<Layout> parse_layout(std::string_view text) {
  Result<LayoutText> parsed =
      detail::LayoutTextParser(text, {false, false, false}).parse_text();
  if (!parsed)
    return parsed.error();
  return parsed->layout;
}

/// Parses a layout with optional offset and swizzle:
/// "(8,64):(64,1) | Swizzle(3,4,3)". Axis bindings are errors.
constexpr Result<ComposedLayout> parse_composed_layout(std::string_view text) {
  Result<LayoutText> parsed =
      detail::LayoutTextParser(text, {false, true, true}).parse_text();
  if (!parsed)
    return parsed.error();
  return ComposedLayout{parsed->swizzle, parsed->offset, parsed->layout};
}

/// Parses one IntTuple such as "((2,8,8),(4,16))"; axis bindings are errors.
constexpr Result<IntTuple> parse_int_tuple(std::string_view text) {
  return detail::LayoutTextParser(text, {false, false, false})
      .parse_tuple_text();
}

} // namespace tf
