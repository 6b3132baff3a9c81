//===- plugin/analysis/Candidates.h - Instructions an undecided op could use -*- C++ -*-===//
//
// `tf candidates` (docs/cli.md): for every op of a kernel that has no
// instruction yet -- tf::matmul, tf::copy, tf::insert_slice, tf::cast, the
// element-wise and reduction ops -- the contracts of tf's registry
// (tf/atoms/registry.hpp) that implement its kind of op, each matched by the
// one engine (tf::match) on a site built from the op's operands
// (buildCandidateSite, Site.h): accepted ones with what the engine derives
// (the repeat of an MMA, the boxes of a TMA copy), refused ones with every
// reason in describe.hpp's words.
//
// Which contracts implement an op comes from the contract data and the op
// table (hir/Ops.def): a contract's kind implements op classes
// (hir::contractKindImplements: an MMA tf::matmul, a copy tf::copy and
// tf::insert_slice, an element-wise contract the element-wise ops and
// tf::cast, a configuration atom none); an element-wise contract with a
// BinaryOp parameter implements the binary ops whose BinaryOp value (the
// table's: add, sub, mul, maximum -> max, minimum -> min) it allows, and one
// whose read and written operands take their element types from different
// parameters (a conversion) tf::cast. Ops that need no instruction
// (tf::zeros, tf::empty, the ring ops) are not sites; an op that fuses into
// its producer's registers and whose result is only an operand of a
// scheduled op is done by that op's instruction (the optimal GEMM's tf::cast
// feeding its tf::Copy) and is not a site either.
//
// A candidate's parameters are derived from the operands where the contract
// data says how: a dtype parameter from the operand whose element type it
// names; a choice that selects an operand's storage (WGMMA's form: A in
// shared memory is SS, in registers RS) from that operand's storage; a
// `<x>_major` choice from where operand X's unit stride lies (K or MN); an
// integer that names an atom extent (WGMMA's n) as the largest valid value
// dividing the op's extent; a copy's dtype, direction and swizzle as
// buildSite decides them. Parameters left open are tried with each valid
// value (at most MaxCombinations combinations); if none is accepted, every
// combination the parameters themselves allow is reported.
//
// Candidates are not filtered by the kernel's target: a contract whose
// capability the target lacks is refused for that reason.
//
// A refused MMA whose refusals are all its operands' layouts or the mesh
// gets a placement (CandidatePlacement): the layouts of the analysis'
// derivations (Derive.h) for its shared-memory tiles and accumulator,
// offered only when the site matched again with them loses those
// refusals -- data placement ready to paste.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_CANDIDATES_H
#define TF_PLUGIN_ANALYSIS_CANDIDATES_H

#include "hir/HIR.h"

#include "tf/contract/contract.hpp"
#include "tf/contract/match.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::analysis {

/// Parameter combinations tried per candidate contract.
inline constexpr std::size_t MaxCombinations = 16;

/// One parameter of a candidate as matched.
struct CandidateParam {
  std::string Name;
  /// As written in C++'s template arguments without the namespace: 256,
  /// bf16, SS, K.
  std::string Value;
  /// How it was chosen: "operands" (derived from the operands), "tried"
  /// (one of the values tried), "default" or "derived" (the contract's).
  std::string Source;
};

/// One reason a candidate was refused.
struct CandidateReason {
  /// Which check refused it (tf::to_string names it: mesh, capability,
  /// param_predicate, ...).
  ReasonKind Kind = ReasonKind::mesh;
  /// describe.hpp's line: "mesh: Mesh(...) does not match Mesh(...): ...".
  std::string Text;
};

/// Where a refused MMA candidate would accept its operands, ready to paste
/// into their declarations: each shared-memory tile as TMA writes it under
/// the widest swizzle its rows take (row-major panels of the swizzle's
/// width, the operand's major kept: Derive.h panelLayout), the accumulator
/// as the contract's register fragment tiled over a mesh of the kernel
/// (tiledAccumulator) -- the op's own, else the first mesh scope of the
/// kernel on which the candidate accepts the site. Each layout is checked
/// by matching the site again with it.
struct CandidatePlacement {
  struct OperandLayout {
    std::string Operand;              ///< the contract's name: A, B, C
    hir::ValueId Value = hir::None;   ///< the operand's value
    std::string Text;                 ///< the layout text, as written in tf::Tensor
  };
  std::vector<OperandLayout> Layouts;
  /// The mesh scope the accumulator's layout is over, as spelled
  /// ('compute'); empty when it is the op's own mesh.
  std::string Mesh;
  /// The candidate accepts the site with these layouts (on Mesh); when
  /// not, what is still missing -- the accumulator no mesh of the kernel
  /// holds -- is in Unplaced.
  bool Accepted = false;
  std::string Unplaced;
};

/// One contract matched with one parameter combination.
struct Candidate {
  std::string ContractId;
  bool Accepted = false;
  std::vector<CandidateParam> Params;
  std::vector<CandidateReason> Reasons;
  /// Reasons the engine found beyond those it keeps.
  std::size_t Dropped = 0;
  /// Accepted MMAs: the derived repeat (M, N, K). Accepted box copies: the
  /// boxes per dimension; BoxExtents one box's extents.
  std::vector<std::int64_t> Repeat;
  std::vector<std::int64_t> BoxExtents;
  /// Accepted: the execution mesh's instance (tf::to_string).
  std::string MeshInstance;
  /// Filled by backend::rankCandidates when the target has a backend: its
  /// name, whether it lowers this (accepted) candidate, why not, and how
  /// well (higher is better). Legal means lowerable: an accepted candidate
  /// the backend does not lower would be refused at check time.
  std::string Backend;
  bool Lowerable = false;
  std::string NotLowered;
  int Rank = 0;
  /// Refused MMAs whose refusals are their operands' layouts or the mesh:
  /// the layouts that would make it accept them.
  std::optional<CandidatePlacement> Placement;
};

/// One operand of a site: an access of the op (the CLI prints the value and
/// its type as the HIR printer does).
struct CandidateOperand {
  std::string Access; ///< read, write, read-write
  hir::ValueId Value = hir::None;
};

/// One undecided op and its candidates.
struct CandidateSite {
  hir::StmtId Op = hir::None;
  /// Which op it is (tf::matmul).
  hir::OpKind Kind = hir::OpKind::Matmul;
  /// The call (tf::matmul(...)) and the whole statement, which may start
  /// lines earlier ([[tf::mesh(...)]] acc = ...).
  hir::SourceRange Range, StmtRange;
  std::string Kernel;
  std::string Target;
  /// The mesh it runs on (tf::to_string) and the scope's spelling (empty
  /// outside every mesh scope: the kernel's outer mesh).
  std::string Mesh;
  std::string MeshSpelling;
  /// Outside every scope, what the mesh is (Kernel::unscopedMeshText).
  std::string UnscopedMesh;
  std::vector<CandidateOperand> Operands;
  /// In registry order: accepted and refused (backend::rankCandidates puts
  /// the ones the target's backend lowers first, best first).
  std::vector<Candidate> Candidates;
  /// Set when no contract of the registry implements this kind of op.
  std::string NoCandidates;
};

/// Op \p Op of \p K as a site with its candidates: every contract of the
/// registry that implements its op kind matched against it, decided or not
/// (a register op's contracts, for the tests of them).
/// @pre infer(K) has run.
CandidateSite candidateSite(const hir::Kernel &K, hir::StmtId Op,
                            const targets::MergedTarget *Target);

/// The undecided op sites of \p K with their candidates, in program order.
/// \p Target: the kernel's merged target (null: capabilities unchecked).
/// @pre infer(K) has run.
std::vector<CandidateSite> findCandidates(const hir::Kernel &K,
                                          const targets::MergedTarget *Target);

/// Whether op \p Op of \p K needs an instruction and has none (a site of
/// findCandidates): not one a scheduled op's store applies (fused) and not
/// part of a register program, whose instructions its layouts decide.
bool isUndecided(const hir::Kernel &K, hir::StmtId Op);

/// The contracts of tf's registry that implement op \p Op (see the file
/// comment), in registry order.
std::vector<const Contract *> contractsFor(hir::OpKind Op);

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_CANDIDATES_H
