//===- plugin/lower/RegisterFragment.cpp - Registers of a fragment --------===//
//
// See RegisterFragment.h. Every coordinate of the recorded ShardLayout is
// visited once: its bound leaves name the thread (through the mesh), its
// local leaves the register (through the contract's numbering), and the
// layout the element; the two parts of the element are kept apart, so a
// numbering that gives one register two elements is refused here.
//
//===----------------------------------------------------------------------===//
#include "lower/RegisterFragment.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>

namespace tf::lower {

llvm::Expected<RegisterFragment>
RegisterFragment::fromMatch(const Contract &C, const MatchReport &Match,
                            llvm::StringRef Operand) {
  auto Fail = [&](const llvm::Twine &Why) -> llvm::Error {
    return llvm::createStringError("the register fragment of operand '" +
                                   Operand + "' of " + C.id.view() + ": " +
                                   Why);
  };
  const OperandFragment *F =
      Match.fragment(std::string_view(Operand.data(), Operand.size()));
  if (!F || F->kind != OperandLayoutKind::shard || F->pattern < 0 ||
      static_cast<std::size_t>(F->pattern) >= C.operands.size())
    return Fail("the match recorded none");
  const OperandPattern &P = C.operands[static_cast<std::size_t>(F->pattern)];
  const auto Variant = static_cast<std::size_t>(F->variant);
  if (F->variant < 0 || Variant >= P.layouts.size())
    return Fail("the match names no layout pattern of the operand");
  const LayoutPattern &Pattern = P.layouts[Variant];
  if (P.shape.rank() < 1 || !P.shape.mode(0).is_leaf() ||
      P.shape.mode(0).leaf_at(0).kind != IntKind::constant)
    return Fail("the contract's operand has no fixed row count");
  Result<detail::ShardTable> Table = detail::shard_table(F->shard);
  if (!Table)
    return Fail(Table.error().message());
  const detail::ShardTable &T = *Table;

  RegisterFragment R;
  R.Rows = P.shape.mode(0).leaf_at(0).value;
  std::int64_t Units = 1, Locals = 1;
  for (int K = 0; K < T.mesh.count; ++K)
    Units *= T.mesh.extent[K];
  // Each local leaf's register stride: the contract's numbering, else the
  // shard's own local index.
  std::int64_t RegStride[max_int_tuple_nodes] = {};
  std::size_t Local = 0;
  for (int J = 0; J < T.leaves.count; ++J) {
    if (T.binding[J].count > 0)
      continue;
    Locals *= T.leaves.extent[J];
    if (Pattern.register_strides.empty())
      RegStride[J] = T.local_weight[J];
    else if (Local < Pattern.register_strides.size())
      RegStride[J] = Pattern.register_strides[Local];
    ++Local;
  }
  if (!Pattern.register_strides.empty() &&
      Local != Pattern.register_strides.size())
    return Fail("the contract numbers " +
                llvm::Twine(Pattern.register_strides.size()) +
                " local leaves; the fragment has " + llvm::Twine(Local));
  R.ThreadElement.assign(static_cast<std::size_t>(Units), -1);
  R.RegisterElement.assign(static_cast<std::size_t>(Locals), -1);

  // Sets Slot to Value, or checks that it already holds it.
  auto Place = [](std::int64_t &Slot, std::int64_t Value) {
    if (Slot < 0)
      Slot = Value;
    return Slot == Value;
  };
  std::int64_t Coord[max_int_tuple_nodes] = {};
  std::int64_t Last = 0;
  for (bool More = true; More;) {
    std::int64_t ThreadPart = 0, RegisterPart = 0, Reg = 0;
    for (int J = 0; J < T.leaves.count; ++J) {
      const std::int64_t Offset = Coord[J] * T.leaves.stride[J];
      if (T.binding[J].count > 0) {
        ThreadPart += Offset;
      } else {
        RegisterPart += Offset;
        Reg += Coord[J] * RegStride[J];
      }
    }
    if (ThreadPart < 0 || RegisterPart < 0)
      return Fail("the layout reaches a negative element");
    if (Reg < 0 || Reg >= Locals ||
        !Place(R.RegisterElement[static_cast<std::size_t>(Reg)], RegisterPart))
      return Fail("the numbering does not give each of the " +
                  llvm::Twine(Locals) + " local elements its own register");
    bool Placed = true;
    detail::for_each_replica(T, Coord, [&](std::int64_t Unit, std::int64_t) {
      const std::int64_t U = Unit - T.offset;
      Placed = U >= 0 && U < Units &&
               Place(R.ThreadElement[static_cast<std::size_t>(U)], ThreadPart);
      return Placed;
    });
    if (!Placed)
      return Fail("the layout places one thread's elements inconsistently");
    Last = std::max(Last, ThreadPart + RegisterPart);
    // The next coordinate, last leaf fastest.
    More = false;
    for (int J = T.leaves.count - 1; J >= 0 && !More; --J) {
      More = ++Coord[J] < T.leaves.extent[J];
      if (!More)
        Coord[J] = 0;
    }
  }
  for (std::int64_t E : R.ThreadElement)
    if (E < 0)
      return Fail("a thread of the mesh holds no element");
  R.Columns = Last / R.Rows + 1;
  return R;
}

} // namespace tf::lower
