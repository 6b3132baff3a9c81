//===- plugin/cli/LayoutCommand.cpp - tf layout ---------------------------===//
//
// `tf layout VERB ARGS...` runs the header library's layout algebra on
// layouts written in any of tf's notations and prints the result on one line
// in the CuTe-style notation (read lexicographically), or as JSON for agents.
// The same functions serve static_asserts and the plugin; this file only
// parses arguments and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "tf/layout/algebra.hpp"
#include "tf/layout/composed_layout.hpp"
#include "tf/layout/text.hpp"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>

using namespace llvm;

namespace tf::cli {

cl::SubCommand LayoutSubcommand(
    "layout",
    "The layout algebra: tf layout VERB ARGS...\n\n"
    "  print A            A in CuTe notation (--matrix: the two-row matrix, "
    "--seed: Layout(...))\n"
    "  eval A             offsets of linear indices 0..size-1, space separated\n"
    "  coalesce A         the fewest modes with the same function\n"
    "  compose A B        A o B (B may be a tiler: tile(L0, L1, ...))\n"
    "  complement A [M]   the layout that fills A up to M (default: cosize A)\n"
    "  divide A B         logical_divide (--form zipped|tiled|flat)\n"
    "  product A B        logical_product (--form blocked|raked|zipped|tiled|flat)\n"
    "  right-inverse A    R with A(R(i)) == i\n"
    "  left-inverse A     L with L(A(i)) == i\n\n"
    "Layouts are written (2,4):(4,1), Layout((2,4),(4,1)), or as a matrix\n"
    "[2 4; 4 1]; see docs/layout/notation.md");

namespace {

cl::list<std::string> Args(cl::Positional, cl::sub(LayoutSubcommand),
                           cl::desc("VERB ARGS..."), cl::OneOrMore);
cl::opt<bool> Json("json", cl::sub(LayoutSubcommand),
                   cl::desc("Print a JSON object instead of text"));
cl::opt<bool> Matrix("matrix", cl::sub(LayoutSubcommand),
                     cl::desc("print: the two-row matrix notation"));
cl::opt<bool> Seed("seed", cl::sub(LayoutSubcommand),
                   cl::desc("print: the call style, Layout(shape, stride)"));
cl::opt<std::string>
    Form("form", cl::sub(LayoutSubcommand),
         cl::desc("divide/product: logical (default), zipped, tiled, flat; "
                  "product also blocked, raked"),
         cl::init("logical"));
cl::opt<unsigned> ElementBytes(
    "element-bytes", cl::sub(LayoutSubcommand),
    cl::desc("eval: bytes per element, needed when the layout has a swizzle "
             "(swizzles act on byte offsets)"),
    cl::init(0));

/// A failure to report: what went wrong and, for text, which operand.
struct Failure {
  std::string Message;
  std::string Operand;
  int Position = -1;
};

json::Value toJson(const Int &I) {
  if (I.has_value())
    return I.value;
  return to_string(I);
}

json::Value toJson(const IntTuple &T) {
  if (T.is_leaf())
    return toJson(T.leaf());
  json::Array A;
  for (int I = 0; I < T.rank(); ++I)
    A.push_back(toJson(T.mode(I)));
  return A;
}

json::Value optionalNumber(const Result<std::int64_t> &R) {
  return R ? json::Value(*R) : json::Value(nullptr);
}

json::Object describe(const Layout &L) {
  return json::Object{{"layout", to_string(L)},
                      {"shape", toJson(L.shape)},
                      {"stride", toJson(L.stride)},
                      {"rank", L.rank()},
                      {"depth", L.depth()},
                      {"size", optionalNumber(size(L))},
                      {"cosize", optionalNumber(cosize(L))}};
}

class LayoutVerb {
public:
  explicit LayoutVerb(ArrayRef<std::string> Args)
      : Verb(Args.front()), Operands(Args.drop_front()) {}

  int run() {
    std::optional<Failure> F = dispatch();
    if (!F)
      return 0;
    std::string Where;
    if (!F->Operand.empty())
      Where = "'" + F->Operand + "'" +
              (F->Position >= 0 ? " column " + std::to_string(F->Position + 1)
                                : std::string()) +
              ": ";
    errs() << "tf layout: error: " << Where << F->Message << "\n";
    if (Json) {
      json::Object E{{"message", F->Message}};
      if (!F->Operand.empty())
        E["operand"] = F->Operand;
      if (F->Position >= 0)
        E["column"] = F->Position + 1;
      outs() << formatv("{0:2}", json::Value(json::Object{{"error", std::move(E)}}))
             << "\n";
    }
    return 1;
  }

private:
  std::string Verb;
  ArrayRef<std::string> Operands;

  std::optional<Failure> dispatch() {
    if (Verb == "print")
      return withArity(1, [&] { return print(); });
    if (Verb == "eval")
      return withArity(1, [&] { return eval(); });
    if (Verb == "coalesce")
      return unary([](const Layout &A) { return coalesce(A); });
    if (Verb == "right-inverse")
      return unary([](const Layout &A) { return right_inverse(A); });
    if (Verb == "left-inverse")
      return unary([](const Layout &A) { return left_inverse(A); });
    if (Verb == "complement")
      return complementVerb();
    if (Verb == "compose")
      return binary(
          [](const Layout &A, const Layout &B) { return composition(A, B); },
          [](const Layout &A, const Tiler &T) { return composition(A, T); });
    if (Verb == "divide")
      return divideVerb();
    if (Verb == "product")
      return productVerb();
    return Failure{"unknown verb '" + Verb +
                   "'; known verbs: print, eval, coalesce, compose, complement, "
                   "divide, product, right-inverse, left-inverse"};
  }

  std::optional<Failure> withArity(size_t N,
                                   function_ref<std::optional<Failure>()> F,
                                   size_t Max = 0) {
    Max = Max ? Max : N;
    if (Operands.size() < N || Operands.size() > Max)
      return Failure{Verb + " takes " +
                     (N == Max ? std::to_string(N)
                               : std::to_string(N) + " or " + std::to_string(Max)) +
                     " operand" + (Max == 1 ? "" : "s") + ", got " +
                     std::to_string(Operands.size())};
    return F();
  }

  static Failure fromError(const Error &E, StringRef Operand) {
    return Failure{E.message(), Operand.str(), E.position};
  }

  /// Parses operand `I` as a plain layout.
  Result<Layout> layoutOperand(size_t I, std::optional<Failure> &F) {
    Result<Layout> L = parse_layout(Operands[I]);
    if (!L)
      F = fromError(L.error(), Operands[I]);
    return L;
  }

  std::optional<Failure> emit(const Result<Layout> &R) {
    if (!R)
      return Failure{R.error().message()};
    if (Json) {
      json::Object O = describe(*R);
      O["verb"] = Verb;
      json::Array Inputs;
      for (const std::string &Op : Operands)
        Inputs.push_back(Op);
      O["operands"] = std::move(Inputs);
      outs() << formatv("{0:2}", json::Value(std::move(O))) << "\n";
    } else {
      outs() << to_string(*R) << "\n";
    }
    return std::nullopt;
  }

  std::optional<Failure>
  unary(std::function<Result<Layout>(const Layout &)> Op) {
    return withArity(1, [&]() -> std::optional<Failure> {
      std::optional<Failure> F;
      Result<Layout> A = layoutOperand(0, F);
      if (F)
        return F;
      return emit(Op(*A));
    });
  }

  std::optional<Failure>
  binary(std::function<Result<Layout>(const Layout &, const Layout &)> ByLayout,
         std::function<Result<Layout>(const Layout &, const Tiler &)> ByTiler) {
    return withArity(2, [&]() -> std::optional<Failure> {
      std::optional<Failure> F;
      Result<Layout> A = layoutOperand(0, F);
      if (F)
        return F;
      if (is_tiler_text(Operands[1])) {
        if (!ByTiler)
          return Failure{Verb + " --form " + Form +
                             " takes a layout, not a tiler, here",
                         Operands[1]};
        Result<Tiler> T = parse_tiler(Operands[1]);
        if (!T)
          return fromError(T.error(), Operands[1]);
        return emit(ByTiler(*A, *T));
      }
      if (!ByLayout)
        return Failure{Verb + " --form " + Form +
                           " takes a tiler such as tile(4:1, 2:1), not a "
                           "layout, here",
                       Operands[1]};
      Result<Layout> B = layoutOperand(1, F);
      if (F)
        return F;
      return emit(ByLayout(*A, *B));
    });
  }

  std::optional<Failure> complementVerb() {
    return withArity(
        1,
        [&]() -> std::optional<Failure> {
          std::optional<Failure> F;
          Result<Layout> A = layoutOperand(0, F);
          if (F)
            return F;
          if (Operands.size() == 1)
            return emit(complement(*A));
          long long M = 0;
          if (StringRef(Operands[1]).getAsInteger(10, M) || M < 0)
            return Failure{"expected a non-negative integer for M", Operands[1]};
          return emit(complement(*A, Int(static_cast<std::int64_t>(M))));
        },
        2);
  }

  std::optional<Failure> divideVerb() {
    using L = const Layout &;
    using T = const Tiler &;
    std::string Name = Form;
    if (Name == "logical")
      return binary([](L A, L B) { return logical_divide(A, B); },
                    [](L A, T B) { return logical_divide(A, B); });
    if (Name == "zipped")
      return binary([](L A, L B) { return zipped_divide(A, B); },
                    [](L A, T B) { return zipped_divide(A, B); });
    if (Name == "tiled")
      return binary([](L A, L B) { return tiled_divide(A, B); },
                    [](L A, T B) { return tiled_divide(A, B); });
    if (Name == "flat")
      return binary([](L A, L B) { return flat_divide(A, B); },
                    [](L A, T B) { return flat_divide(A, B); });
    return Failure{"unknown --form '" + Name +
                   "' for divide; known: logical, zipped, tiled, flat"};
  }

  std::optional<Failure> productVerb() {
    using L = const Layout &;
    using T = const Tiler &;
    std::string Name = Form;
    if (Name == "logical")
      return binary([](L A, L B) { return logical_product(A, B); },
                    [](L A, T B) { return logical_product(A, B); });
    if (Name == "blocked")
      return binary([](L A, L B) { return blocked_product(A, B); }, nullptr);
    if (Name == "raked")
      return binary([](L A, L B) { return raked_product(A, B); }, nullptr);
    if (Name == "zipped")
      return binary(nullptr, [](L A, T B) { return zipped_product(A, B); });
    if (Name == "tiled")
      return binary(nullptr, [](L A, T B) { return tiled_product(A, B); });
    if (Name == "flat")
      return binary(nullptr, [](L A, T B) { return flat_product(A, B); });
    return Failure{"unknown --form '" + Name +
                   "' for product; known: logical, blocked, raked, zipped, "
                   "tiled, flat"};
  }

  /// The call style: Layout(...) unless an offset or swizzle
  /// makes it a ComposedLayout(...).
  static std::string seedString(const LayoutText &Text) {
    if (!Text.has_offset && !Text.has_swizzle)
      return to_seed_string(Text.layout);
    return to_seed_string(
        ComposedLayout{Text.swizzle, Text.offset, Text.layout});
  }

  std::optional<Failure> print() {
    Result<LayoutText> T = parse_layout_text(Operands[0]);
    if (!T)
      return fromError(T.error(), Operands[0]);
    const LayoutText &Text = *T;
    std::string Line;
    if (Matrix)
      Line = to_matrix_string(Text.layout, Text.axes, Text.offset, Text.swizzle);
    else if (Seed && !Text.has_axes)
      Line = seedString(Text);
    else
      Line = to_string(Text);
    if (!Json) {
      outs() << Line << "\n";
      return std::nullopt;
    }
    json::Object O = describe(Text.layout);
    O["verb"] = "print";
    O["text"] = to_string(Text);
    O["matrix"] = to_matrix_line(Text.layout, Text.axes, Text.offset,
                                 Text.swizzle);
    if (!Text.has_axes)
      O["seed"] = seedString(Text);
    if (Text.has_offset)
      O["offset"] = toJson(Text.offset);
    if (Text.has_swizzle)
      O["swizzle"] = json::Array{Text.swizzle.bits, Text.swizzle.base,
                                 Text.swizzle.shift};
    if (Text.has_axes) {
      json::Array Axes;
      for (const AxisRef &A : Text.axes)
        Axes.push_back(A.bound() ? json::Value(to_string(A))
                                 : json::Value(nullptr));
      O["axes"] = std::move(Axes);
    }
    outs() << formatv("{0:2}", json::Value(std::move(O))) << "\n";
    return std::nullopt;
  }

  /// A layout's offsets are for reading: a million is far past that, and
  /// a layout of 2^31 elements would otherwise fill the memory.
  static constexpr std::int64_t MaxEvaluatedOffsets = std::int64_t(1) << 20;

  std::optional<Failure> eval() {
    Result<ComposedLayout> C = parse_composed_layout(Operands[0]);
    if (!C)
      return fromError(C.error(), Operands[0]);
    Result<std::int64_t> N = size(C->layout);
    if (!N)
      return Failure{N.error().message(), Operands[0]};
    bool Swizzled = !C->swizzle.is_identity();
    if (Swizzled && ElementBytes == 0)
      return Failure{"a swizzled layout needs --element-bytes: swizzles act "
                     "on byte offsets",
                     Operands[0]};
    if (*N > MaxEvaluatedOffsets)
      return Failure{"eval prints at most " +
                         std::to_string(MaxEvaluatedOffsets) +
                         " offsets; this layout has " + std::to_string(*N) +
                         " (divide it and evaluate a tile)",
                     Operands[0]};
    int Bytes = ElementBytes ? static_cast<int>(ElementBytes) : 1;
    // Every offset is computed before anything is printed: an error prints
    // no partial list.
    json::Array Offsets;
    std::string Line;
    for (std::int64_t I = 0; I < *N; ++I) {
      Result<std::int64_t> V = evaluate(*C, I, Bytes);
      if (!V)
        return Failure{V.error().message(), Operands[0]};
      if (Json)
        Offsets.push_back(*V);
      else
        Line += (I ? " " : "") + std::to_string(*V);
    }
    if (Json)
      outs() << formatv("{0:2}", json::Value(json::Object{
                                     {"verb", "eval"},
                                     {"layout", to_string(*C)},
                                     {"offsets", std::move(Offsets)}}))
             << "\n";
    else
      outs() << Line << "\n";
    return std::nullopt;
  }
};

} // namespace

int runLayoutCommand() { return LayoutVerb(Args).run(); }

} // namespace tf::cli
