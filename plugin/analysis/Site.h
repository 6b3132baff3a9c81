//===- plugin/analysis/Site.h - A tf::schedule op as the engine sees it -*- C++ -*-===//
//
// The one translation of a HIR tf::schedule op into the tf::Site that the
// contract engine (include/tf/contract/match.hpp) matches: the mesh the op
// runs on, the parameters its atom type fixes (with the ones a copy's
// operands decide: dtype, TMA direction and swizzle), its operands under the
// contract's names with shapes, dtypes, storages and layouts, the target's
// capabilities and the written Repeat. Inference (derived repeats) and the
// contract checks (Check.cpp) both read sites through buildSite, so they see
// the same thing. `tf candidates` builds sites for ops without a schedule
// the same way (buildCandidateSite), one per candidate contract.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_SITE_H
#define TF_PLUGIN_ANALYSIS_SITE_H

#include "hir/HIR.h"

#include "tf/contract/contract.hpp"
#include "tf/contract/site.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::analysis {

/// One operand of a site and the HIR value it came from.
struct SiteOperandSource {
  /// The contract's operand name ("A", "src").
  Name Operand{};
  hir::ValueId Value = hir::None;
  /// Where the operand is written at the call (the access, the temporary's
  /// expression, else the call).
  hir::SourceRange Range;
  /// The value has no type inference could derive: it is left out of the
  /// site (Check.cpp does not report it missing).
  bool Untyped = false;
};

/// A tf::schedule op as a tf::Site, with what is needed to point findings
/// back at the source. Not copyable: Site.capabilities views Capabilities.
struct HirSite {
  HirSite() = default;
  HirSite(const HirSite &) = delete;
  HirSite &operator=(const HirSite &) = delete;

  hir::StmtId Op = hir::None;
  const Contract *C = nullptr;
  tf::Site S{};
  /// Storage for S.capabilities (the target's capability keys that fit a
  /// Name; no contract names a longer one).
  std::vector<Name> Capabilities;
  std::vector<SiteOperandSource> Operands;
  /// Parameters the operands decided (not written at the call).
  std::vector<std::string> DecidedParams;
  /// The mesh scope's spelling ("compute"); empty outside every scope.
  std::string MeshSpelling;
  /// Outside every scope, what the mesh is (Kernel::unscopedMeshText).
  std::string UnscopedMesh;
  /// The target's id when capabilities are checked.
  std::string TargetId;
  /// The mode of the global-memory operand whose stride is 1, read from its
  /// tensor's layout (whose other strides may be run-time values): the
  /// dimension a TMA box must have innermost. -1: none, several, or no
  /// global operand.
  int GlobalUnitMode = -1;
  /// The global-memory operand's window as its tensor's layout gives it,
  /// run-time strides as dynamic values (the site's operand has no layout
  /// then); empty without a global window. Tile-register copies match their
  /// memory rows on it.
  Layout GlobalWindow;
};

/// The mode of global tensor value \p V (or of the tensor it is a window
/// of) whose stride is the constant 1, or -1: none, several, or \p V is
/// not in global memory. Read from the layout's text, so a tensor of
/// run-time strides ("(?,?):(1,?)") has one too.
int unitStrideMode(const hir::Kernel &K, hir::ValueId V);

/// The leading modes of global tile \p Tile that a copy of \p CopyRank
/// dimensions drops (extent 1 each: a batch's tile (1, BM, BK) copied as
/// BM x BK; buildSite presents the copy so), or 0.
int unitLeadingModes(const hir::Kernel &K, hir::ValueId Tile,
                     std::size_t CopyRank);

/// How a box copy is issued as boxes (see splitIntoBoxes).
struct BoxSplit {
  /// Boxes per dimension of the copy (the op's derived repeat) and one
  /// box's extents: Count[d] * Extents[d] is the copy's extent d.
  std::vector<std::int64_t> Count, Extents;
  /// The box order: the copy's dimensions as the box's, outermost first.
  /// The last is the global tensor's unit-stride dimension (TMA's
  /// dimension 0, which it reads contiguously and writes innermost in
  /// shared memory); identity when that is the copy's last dimension.
  std::vector<int> Order;
  /// One mode per dimension: box (i0, i1, ...) starts Offsets(i0, i1, ...)
  /// elements after the copy's first shared-memory element, and covers
  /// [i_d * Extents[d], (i_d + 1) * Extents[d]) of every dimension d.
  Layout Offsets{};
  /// Box 0's shared-memory layout in box order: the tile of every mode
  /// (mode j is the copy's dimension Order[j]) under the smem side's
  /// swizzle and offset -- compact row-major when the engine accepts it.
  ComposedLayout Box{};
};

/// Whether contract \p C copies boxes: a copy whose shared-memory operand
/// must be the compact row-major layout of its shape (nv.sm90.CopyAsyncTensor:
/// one TMA moves one box).
bool isBoxCopy(const Contract &C);

/// Whether contract \p C copies between memory and AMX tile registers
/// (intel.amx.TileLoad, TileStore): a box copy whose boxes are the tile
/// registers its tile operand spans, one TILELOADD or TILESTORED each, each
/// matched in the register's row order (splitIntoBoxes, buildBoxSite).
bool isTileRegisterCopy(const Contract &C);

/// For tile-register copy \p Whole split as \p Split, whose memory side has
/// run-time strides (which the engine does not read): its memory layout in
/// the register's row order when that is not rows of contiguous elements
/// one stride apart, as TILELOADD reads them -- a row-major B tile loaded
/// into VNNI-packed registers is (16,16,2):(?,1,?). None when it is, or
/// when the engine sees the memory side itself.
std::optional<std::string> tileRowsProblem(const HirSite &Whole,
                                           const BoxSplit &Split);

/// The split of box copy site \p Whole into boxes, derived from its layouts
/// as an MMA tile is split into atoms. The box order is decided first: the
/// global side's unit-stride mode (Whole.GlobalUnitMode) goes innermost,
/// the others keep their order; both sides are matched in that order. Every
/// mode d of the shared-memory side is divided as logical_divide(mode_d,
/// a_d:1) = (tile_d, rest_d), the box is (tile_0, tile_1, ...) in box order
/// and must be compact row-major (the tiles'
/// leaves read innermost first have strides 1, e, e * e', ...); the global
/// side is divided alike. Of those boxes, the one with the fewest boxes per
/// copy (ties: the widest innermost extents) that the engine accepts --
/// for box 0 and for the box one step along every leaf of the rests (so
/// every box start is aligned) -- is chosen; reasons that do not depend on
/// the box (mesh, capability, parameters, dtypes) are not the split's and
/// are left to the check. None when \p Whole is no box copy, its sides have
/// no static layout to divide, or no box is accepted: the copy's own reasons
/// then stand.
std::optional<BoxSplit> splitIntoBoxes(const HirSite &Whole);

/// The split inference recorded on op \p Op (its schedule's DerivedRepeat,
/// BoxExtents, BoxOrder, BoxOffsets and BoxLayout); none when it recorded none (no
/// box copy, or no box accepted).
std::optional<BoxSplit> recordedSplit(const hir::Stmt &Op);

/// Where \p Op's result takes its type from: the op's rule, or for a
/// tf::schedule that of the op its atom's contract implements (None for an
/// atom tf's registry does not hold).
hir::ResultType resultRule(const hir::Stmt &Op);

/// Whether \p Op's recorded match refuses the extents of an operand -- a
/// copy's (a box whose extents differ from its slot's), an MMA's
/// accumulator (not the tile the other operands give): the one error of
/// that mistake. Its result's type is not what the op computes, so the ops
/// that read it are not checked, and the loops it tiles are not checked for
/// coverage through its windows.
bool refusesExtents(const hir::Stmt &Op);

/// \p Whole with its operands cut to box 0 of \p Split, in box order: the
/// shared-memory side is Split.Box, the global side the window with the
/// box's extents, its modes permuted by Split.Order.
void buildBoxSite(const HirSite &Whole, const BoxSplit &Split, HirSite &Out);

/// The contract a schedule op chooses (tf's registry), or null.
const Contract *contractOf(const hir::Stmt &Op);

/// Builds the site of schedule op \p Op of \p K into \p Out; false when \p Op
/// is no schedule op, its contract is unknown or it runs on no mesh.
/// @pre infer(K) has run (register tensors need their ShardLayouts).
bool buildSite(const hir::Kernel &K, hir::StmtId Op,
               const targets::MergedTarget *Target, HirSite &Out);

/// Builds the site of op \p Op of \p K -- scheduled or not -- as an instance
/// of contract \p C (`tf candidates`): the operands take \p C's names by
/// access, each of its read operands the op's next read, each written one
/// the op's next write (a read-write operand, an MMA's C, the op's next
/// read-write); a write into a window of a whole value (insert_slice) is
/// that window. Of the parameters, only those a copy's operands decide are
/// set (as buildSite); the written Repeat is left empty. False when \p Op is
/// no op or runs on no mesh.
/// @pre infer(K) has run.
bool buildCandidateSite(const hir::Kernel &K, hir::StmtId Op, const Contract &C,
                        const targets::MergedTarget *Target, HirSite &Out);

/// Copies \p From into \p To (HirSite is not copyable: its site views its
/// own capability list).
void copySite(const HirSite &From, HirSite &To);

/// The operand value \p V as a site operand named \p Name (no layout when its
/// layout cannot be represented); null when \p V has no type.
std::optional<SiteOperand> siteOperand(const hir::Kernel &K, hir::ValueId V,
                                       Name Name);

/// The value of \p C's TMA `swizzle` parameter (a SwizzleMode choice) that
/// shared memory swizzled by \p S reads; none when \p C has no such
/// parameter or no mode swizzles as \p S does.
std::optional<ParamValue> tmaSwizzleMode(const Contract &C, const Swizzle &S);

/// The constant value of expression \p E, folded through Let-bound index
/// values and static extents; none when some part is only known at run time.
std::optional<std::int64_t> foldExpr(const hir::Kernel &K, hir::ExprId E);

/// Whether \p V has a type (the builder's, or one inference derived).
bool hasType(const hir::Value &V);

/// The ShardLayout of a register tensor whose layout binds mesh axes, over
/// the mesh of the scope that defines it; none otherwise. The layout is not
/// checked against the mesh (the contract engine reports what does not fit).
std::optional<ShardLayout> registerShard(const hir::Kernel &K,
                                         const hir::Value &V);

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_SITE_H
