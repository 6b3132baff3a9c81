//===- plugin/analysis/SiteChecker.h - One site's findings ------*- C++ -*-===//
//
// Private to the contract checks (Check.cpp): SiteChecker turns the reasons
// of one tf::schedule site's recorded match into findings. Check.cpp holds
// the dispatch (report: which reason becomes which diagnostic, at which
// range); CheckFindings.cpp the findings derived from a refusal -- the site
// matched again with another choice, only to word the error and offer the
// decision that follows as a fix-it (a major, a swizzle, an atom's n, the
// accumulator over its mesh, a slot in the box's extents).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_SITECHECKER_H
#define TF_PLUGIN_ANALYSIS_SITECHECKER_H

#include "analysis/Analysis.h"
#include "analysis/Site.h"

#include "tf/contract/match.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tf::analysis::detail {

// The checks speak HIR's and the diagnostics' vocabulary throughout.
using namespace hir;
using plugin::DiagId;

// How findings spell what they name.
inline std::string str(const Name &N) { return std::string(N.view()); }
/// describe()'s line without its item prefix: "operand A: storage rmem,
/// expected smem" -> "storage rmem, expected smem".
std::string withoutItem(const std::string &Line);
/// "1, 2, 4": a Repeat's or a box's numbers as written in C++.
std::string joined(const std::vector<std::int64_t> &Xs);
std::string joinedLeaves(const IntTuple &T);
std::string triple(const std::int64_t (&X)[3]);
/// A parameter value as C++ writes it in the atom's template arguments.
std::string spelling(const ParamValue &V, const ParamDef &D);
/// How a finding names the value behind an operand.
std::string valueText(const Kernel &K, ValueId V);
/// A mesh and the name it has in the source, or "the kernel's outer mesh".
std::string meshText(const Mesh &M, const std::string &Spelling,
                     const std::string &Unscoped);

/// Why TMA cannot box copy \p Site, which inference did not split into
/// boxes (\p Split false) or did: the global side has no dimension of
/// stride 1 (TMA reads its dimension 0 contiguously), or the box order puts
/// its unit-stride dimension innermost and the shared-memory side is not
/// contiguous in it (the box lands in shared memory row-major in box
/// order). For a load whose sides are contiguous in different dimensions,
/// the error is at the declaration at fault: the slot's when an op reading
/// the copy's result refuses its layout too, else the global tensor's. None
/// when nothing of this holds: the contract's reasons then stand.
std::optional<Finding> boxOrderFinding(const Kernel &K, const HirSite &Site,
                                       bool Split,
                                       const targets::MergedTarget *Target);

/// err_tf_tile_rows for a tile-register copy split as \p Split whose memory
/// side, read in the register's row order, is not rows of contiguous
/// elements (tileRowsProblem), at the memory operand; None otherwise.
std::optional<Finding> tileRowsFinding(const Kernel &K, const HirSite &Site,
                                       const BoxSplit &Split);

class SiteChecker {
public:
  /// \p Whole: for the box site of a box copy, the copy's whole site (the
  /// boxes are derived from it again when a finding asks what another
  /// layout would give).
  SiteChecker(const Kernel &K, const HirSite &H, std::vector<Finding> &Out,
              const HirSite *Whole = nullptr)
      : K(K), H(H), Whole(Whole ? *Whole : H), Op(K.Stmts[H.Op]), C(*H.C),
        Out(Out) {}

  /// A written Repeat on a box copy against its derived box count.
  void checkBoxes(const BoxSplit &Split);

  /// Reports the reasons of the match inference recorded on the op.
  /// @pre infer(K, Target) ran on the same target.
  void run();

private:
  const Kernel &K;
  const HirSite &H;
  const HirSite &Whole;
  const Stmt &Op;
  const Contract &C;
  std::vector<Finding> &Out;
  /// The operands a tile mismatch was reported for: another extent of the
  /// same operand is that one mistake.
  std::vector<Name> Mismatched;

  SourceRange callRange() const {
    return Op.CallRange.valid() ? Op.CallRange : Op.Range;
  }

  const SiteOperandSource *operand(const Name &N) const {
    for (const SiteOperandSource &O : H.Operands)
      if (O.Operand == N)
        return &O;
    return nullptr;
  }

  SourceRange operandRange(const Name &N) const {
    const SiteOperandSource *O = operand(N);
    return O && O->Range.valid() ? O->Range : callRange();
  }

  /// Index into Sched.Params of parameter \p N, or -1.
  int paramIndex(const Name &N) const {
    const Schedule &S = *Op.Sched;
    for (std::size_t I = 0; I < S.Params.size(); ++I)
      if (S.Params[I].name == N)
        return static_cast<int>(I);
    return -1;
  }

  SourceRange paramRange(const Name &N) const {
    int I = paramIndex(N);
    const Schedule &S = *Op.Sched;
    if (I >= 0 && static_cast<std::size_t>(I) < S.ParamRanges.size() &&
        S.ParamRanges[I].valid())
      return S.ParamRanges[I];
    return callRange();
  }

  /// A refused layout or element type that another value of a written
  /// parameter reads (a major, the atom's dtype): the error at that
  /// template argument, the value as a fix-it.
  std::optional<Finding>
  parameterFinding(const Reason &Why, const SiteOperandSource *O) const;

  /// The element type a contract fixes (an MMA accumulates in f32) is a
  /// decision of the operand's declaration, not of the call that reads it:
  /// the error stands at the element type the declaration writes, the fixed
  /// type as a fix-it, the use in a note.
  std::optional<Finding> elementFinding(const Reason &Why,
                                        const SiteOperandSource *O) const;

  /// A swizzle refused where another would be read: most often CuTe's
  /// element-unit spelling (Swizzle(3,3,3) for the 128-byte swizzle of
  /// 2-byte elements, which tf writes Swizzle(3,4,3)) or a swizzle for
  /// another row width. The swizzle in question is the refused operand's,
  /// or, for a TMA whose swizzle mode its shared-memory side decides (a box
  /// too wide for a 64-byte swizzle), that side's. The site is matched again
  /// with each swizzle meant (swizzlesMeant), only to word the error; the
  /// first that clears the refusal is the fix-it, at the swizzle in the
  /// layout text of the operand's declaration.
  std::optional<Finding> swizzleFinding(const Reason &Why) const;

  /// For a tile the atom's extent does not divide (\p Why, tile_extent),
  /// where a parameter sizes the atom along that mode (WGMMA's n for N):
  /// that parameter (its index in the contract) and the nearest value the
  /// contract allows that divides the tile.
  std::optional<std::pair<int, ParamValue>>
  atomParameterFix(const Reason &Why, const MatchReport &R) const;

  /// A tile the atom's extent does not divide, where a written parameter
  /// sizes the atom along that mode: the error is at that template
  /// argument, with atomParameterFix's value as a fix-it, the operand in a
  /// note.
  std::optional<Finding> atomExtentFinding(const Reason &Why,
                                           const MatchReport &R,
                                           bool *ParamFixed) const;

  /// An accumulator whose extents are not the tile's that the other
  /// operands (the user's tiles) give: the accumulator's declaration is the
  /// mistake (a retiled kernel's). The error is at its layout text, with
  /// the layout the contract's register fragment tiles to over the op's
  /// mesh as a fix-it (tiledAccumulator) -- offered only when the contract
  /// accepts the site with it -- and the use in a note.
  std::optional<Finding> accumulatorFinding(const Reason &Why,
                                            const MatchReport &R) const;

  /// An accumulator no layout over its mesh can hold because the mesh runs
  /// more groups side by side along M than the tile has rows of atoms (a
  /// 64-row tile on the example's two consumer warpgroups): the mesh and
  /// the tile disagree, and the fix is one of them, not a layout. The error
  /// is at the accumulator's layout text, with a note at its mesh scope
  /// saying how many groups the tile fills and what would hold it. Where
  /// the mesh is written as the last groups of a declared mesh
  /// (MeshGroupsSource), the edits giving it the groups the tile fills --
  /// the range, the reshape, the root mesh, the topology -- and the
  /// accumulator's layout over that mesh are the fix-its, offered when the
  /// contract accepts the accumulator over it. \p Atom and \p Tile: the
  /// (M, N) extents of one atom and of the tile.
  std::optional<Finding> meshGroupsFinding(const Reason &Why,
                                           const MatchReport &R,
                                           const Value &Acc, const Mesh &Where,
                                           const OperandPattern &OP,
                                           const std::int64_t (&Atom)[2],
                                           const std::int64_t (&Tile)[2]) const;

  /// Whether the site accepts operand \p N as register layout \p L: its
  /// tile and its layout (other reasons are not the accumulator's), with
  /// the atom's parameters as their own fix-its would make them (a retiled
  /// WGMMA's n).
  /// \p Instead: the mesh the site would run on instead of its own.
  bool acceptsAccumulator(const Name &N, const ShardLayout &L,
                          const MatchReport &Recorded,
                          const Mesh *Instead = nullptr) const;

  /// A TMA copy whose box (the global window, the user's tile) has other
  /// extents than its shared-memory side. The window is the decision when
  /// it is the one refused in a load, or when, refused in a store, it
  /// advances with its loops by its own extents (a window narrower than
  /// its loop's step is the mistake itself: no fix is offered). What
  /// follows from the window is offered: another ring of the kernel whose
  /// slots have the box's extents and element type (A's tile loaded into
  /// B's ring), as the operand; else the shared-memory side's declaration
  /// in the box's extents (a retiled kernel), in the row-major panels of
  /// its swizzle's width -- offered only when the contract accepts the copy
  /// into that layout.
  std::optional<Finding> boxExtentsFinding(const Reason &Why) const;

  /// Whether the copy accepts a slot of layout \p L for the box \p Box:
  /// the site matched again with it, split into boxes.
  bool acceptsSlot(const ComposedLayout &L,
                   const std::vector<std::int64_t> &Box) const;

  /// The site matched again with operand \p Operand's swizzle \p Meant, a
  /// TMA's swizzle mode (when the site decided it) following it, and a box
  /// copy split into boxes again.
  MatchReport matchSwizzled(const Name &Operand, const Swizzle &Meant) const;

  Finding make(DiagId Id, SourceRange At, std::vector<std::string> Args,
               const Reason &Why) const;

  /// A note at the definition of a register operand: the mesh its
  /// ShardLayout was derived over.
  void addShardNote(Finding &F, const Name &N) const;

  void report(const Reason &Why, const MatchReport &R, bool *ParamFixed);
};

} // namespace tf::analysis::detail

#endif // TF_PLUGIN_ANALYSIS_SITECHECKER_H
