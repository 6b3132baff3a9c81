//===- plugin/analysis/Scopes.cpp - Values used where they are not held ---===//
//
// checkScopes (Analysis.h): a tensor in registers belongs to the threads of
// the mesh scope that defines it -- each thread holds its part of it -- so
// only statements running on the same units may read or overwrite it.
//
//   [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();     // held by compute
//   [[tf::mesh(loader)]] tf::schedule<...>(acc, ...);      // error: loader
//                                                         // holds no part
//
// Shared and global memory are visible to the whole CTA / grid, so only
// rmem values are checked. A register value defined at kernel scope is held
// by every thread of the CTA and may be used anywhere. A temporary (the
// tf::cast<bf16>(acc) inside a compute scope) is held by the mesh of the
// statement that computes it, like a named value. Windows of a register
// value (acc.tile<...>(...)) are held where their root is.
//
// checkTopologies: every mesh a kernel runs on (mesh scopes, the CTA mesh of
// a tile loop) arranges units of one of the kernel's topology levels, and
// stays within its extent when both are static: a compute mesh of threads
// 128..383 needs tf::topology("thread", 384) or more. A tile loop's CTA mesh
// spans the whole level: 264 CTAs launched beside a persistent mesh of 132
// leave 132 of them without a place, hence without tiles.
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"
#include "analysis/Residence.h"

#include "tf/layout/mesh_text.hpp"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace tf::analysis {
namespace {

/// Where statement \p S uses value \p V: the window or temporary expression
/// itself, else its access's range when that is not the declaration's,
/// else the call. (The HIR keeps no range per operand reference; an access
/// of a named value carries its declaration.)
hir::SourceRange useRange(const hir::Kernel &K, const hir::Stmt &S,
                          hir::ValueId V) {
  const hir::Value &Val = K.Values[V];
  if ((Val.TileOf != hir::None || Val.Origin == hir::ValueOrigin::Temporary) &&
      Val.Range.valid())
    return Val.Range;
  for (const hir::Access &A : S.Access.Accesses)
    if (A.Operand == V && A.Range.valid() && A.Range.Begin != Val.Range.Begin)
      return A.Range;
  return S.CallRange.valid() ? S.CallRange : S.Range;
}

/// Why mesh \p M does not fit \p K's topologies; empty when it fits or
/// cannot be decided (dynamic extents). A tile loop's CTA mesh must also
/// cover every unit of its level (\p WholeLevel): each launched CTA takes
/// its tiles by its place in that mesh, and one without a place has none.
std::string topologyProblem(const hir::Kernel &K, const tf::Mesh &M,
                            bool WholeLevel) {
  const tf::Topology *Level = nullptr;
  std::string Levels;
  for (const tf::Topology &T : K.Topologies) {
    if (T.level == M.level)
      Level = &T;
    Levels += (Levels.empty() ? "" : ", ") + std::string(T.level.view()) +
              " (" + to_string(T.extent) + ")";
  }
  if (!Level)
    return "it arranges units of level '" + std::string(M.level.view()) +
           "', but kernel '" + K.Name + "' has no topology of that level (it has " +
           Levels + ")";
  Result<std::int64_t> Span = cosize(M.layout);
  if (!Span.ok() || !M.offset.has_value() || !Level->extent.has_value())
    return {};
  std::int64_t Last = M.offset.value + *Span - 1;
  std::string LevelName(M.level.view());
  if (WholeLevel && Last + 1 < Level->extent.value)
    return "a tile loop gives its tiles to " + LevelName + " " +
           std::to_string(M.offset.value) + ".." + std::to_string(Last) +
           " by their place in it, but kernel '" + K.Name + "' launches " +
           std::to_string(Level->extent.value) + " " + LevelName +
           " units (tf::topology(\"" + LevelName + "\", " +
           std::to_string(Level->extent.value) + ")), and " + LevelName +
           " " + std::to_string(Last + 1) + ".." +
           std::to_string(Level->extent.value - 1) +
           " would have no place in it; launch " + std::to_string(Last + 1) +
           " or make the mesh span all of them";
  if (Last < Level->extent.value)
    return {};
  return "it reaches " + std::string(M.level.view()) + " " +
         std::to_string(Last) + ", but kernel '" + K.Name + "' has " +
         std::to_string(Level->extent.value) + " " +
         std::string(M.level.view()) + " units (tf::topology(\"" +
         std::string(M.level.view()) + "\", " +
         std::to_string(Level->extent.value) + "))";
}

/// Where \p K's topology of \p Level is written; invalid if nowhere.
hir::SourceRange topologyRange(const hir::Kernel &K, const tf::Name &Level) {
  for (std::size_t I = 0; I < K.Topologies.size(); ++I)
    if (K.Topologies[I].level == Level && I < K.TopologyRanges.size())
      return K.TopologyRanges[I];
  return {};
}

} // namespace

std::vector<Finding> checkTopologies(const hir::Kernel &K) {
  std::vector<Finding> Out;
  if (K.Topologies.empty())
    return Out;
  // One error per level: a launch too small for one mesh is usually too
  // small for the others of that level too.
  std::vector<tf::Name> Reported;
  for (hir::StmtId Id : K.preorder()) {
    const hir::Stmt &S = K.Stmts[Id];
    const tf::Mesh *M = nullptr;
    if (S.Kind == hir::StmtKind::MeshScope)
      M = &S.Mesh;
    else if (S.Kind == hir::StmtKind::Loop &&
             S.Loop != hir::LoopKind::TileOffsets && !S.LoopMesh.level.empty())
      M = &S.LoopMesh;
    if (!M || llvm::is_contained(Reported, M->level))
      continue;
    std::string Problem =
        topologyProblem(K, *M, /*WholeLevel=*/M == &S.LoopMesh);
    if (Problem.empty())
      continue;
    Reported.push_back(M->level);
    Finding F;
    F.Id = plugin::DiagId::err_tf_scope_topology;
    F.Range = S.Range;
    F.Args = {to_string(*M), Problem};
    // The mesh and the launch disagree; the launch is the one number the
    // kernel states once, so the error is at the topology and the scope
    // or tile loop that revealed it in a note (at its first token).
    hir::SourceRange Topology = topologyRange(K, M->level);
    if (Topology.valid()) {
      hir::SourceRange Use = S.Range;
      Use.End = Use.Begin;
      F.Range = Topology;
      F.Notes.push_back({plugin::DiagId::note_tf_derived,
                         Use,
                         {M == &S.LoopMesh
                              ? "the tile loop distributes its tiles over mesh " +
                                    to_string(*M) + " here"
                              : "mesh " + to_string(*M) + " is used here"},
                         {},
                         {}});
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

/// The mesh scope written on \p Op's own statement (`[[tf::mesh(m)]] x =
/// op(...)`): the one decision that placed the op. None when the op sits
/// in a block under the attribute, where the op's place may be the mistake
/// as much as the scope's mesh.
hir::StmtId ownScope(const hir::Kernel &K, hir::StmtId Op) {
  hir::StmtId P = K.Stmts[Op].Parent;
  if (P == hir::None || K.Stmts[P].Kind != hir::StmtKind::MeshScope ||
      K.Stmts[P].MeshOnBlock)
    return hir::None;
  return P;
}

namespace {

/// One use of a register value on a mesh that does not hold it.
struct NotHeldUse {
  hir::StmtId Op;
  hir::ValueId Value, Root;
  hir::StmtId Holder;
  tf::Mesh Here;
};

/// The finding for one use: at the use (or the op's own mesh attribute,
/// which placed it), the definition in a note.
Finding useFinding(const hir::Kernel &K, const NotHeldUse &U) {
  const tf::Mesh &Held = K.Stmts[U.Holder].Mesh;
  Finding F;
  F.Id = plugin::DiagId::err_tf_scope_not_held;
  F.Range = useRange(K, K.Stmts[U.Op], U.Value);
  F.Args = {describeValue(K, U.Value), to_string(Held), to_string(U.Here)};
  // Placed by its own mesh attribute, the op runs where that attribute
  // says: the error is there, the use in a note.
  if (hir::StmtId Scope = ownScope(K, U.Op); Scope != hir::None) {
    hir::SourceRange Attribute = K.Stmts[Scope].Range;
    Attribute.End = Attribute.Begin;
    F.Notes.push_back({plugin::DiagId::note_tf_derived,
                       F.Range,
                       {describeValue(K, U.Value) + " is used here"},
                       {},
                       {}});
    F.Range = Attribute;
  }
  Finding Note;
  Note.Id = plugin::DiagId::note_tf_value_defined;
  Note.Range = definitionRange(K, U.Root);
  Note.Args = {describeValue(K, U.Root), to_string(Held)};
  F.Notes.push_back(std::move(Note));
  return F;
}

/// The finding for a value every use of which runs on one other mesh: the
/// definition placed it on the wrong mesh, one mistake. The error stands at
/// the mesh attribute the definition is written with (else at the
/// definition), each use in a note.
Finding definitionFinding(const hir::Kernel &K,
                          llvm::ArrayRef<NotHeldUse> Uses) {
  const NotHeldUse &First = Uses.front();
  const tf::Mesh &Held = K.Stmts[First.Holder].Mesh;
  Finding F;
  F.Id = plugin::DiagId::err_tf_scope_not_held;
  F.Range = definitionRange(K, First.Root);
  hir::StmtId Def = K.Values[First.Root].Def;
  if (Def != hir::None)
    if (hir::StmtId Scope = ownScope(K, Def); Scope != hir::None) {
      F.Range = K.Stmts[Scope].Range;
      F.Range.End = F.Range.Begin;
    }
  F.Args = {describeValue(K, First.Root), to_string(Held),
            to_string(First.Here)};
  for (const NotHeldUse &U : Uses)
    F.Notes.push_back({plugin::DiagId::note_tf_derived,
                       useRange(K, K.Stmts[U.Op], U.Value),
                       {describeValue(K, U.Value) + " is used here"},
                       {},
                       {}});
  return F;
}

} // namespace

std::vector<Finding> checkScopes(const hir::Kernel &K,
                                 std::vector<hir::StmtId> *NotHeld) {
  std::vector<Finding> Out = checkTopologies(K);
  std::vector<NotHeldUse> Found;
  for (hir::StmtId Id : K.preorder()) {
    const hir::Stmt &S = K.Stmts[Id];
    if (S.Kind != hir::StmtKind::Op)
      continue;
    // The values the statement reads, and the one it overwrites.
    std::vector<hir::ValueId> Uses = S.Operands;
    if (S.Assigns && S.Result != hir::None)
      Uses.push_back(S.Result);
    std::vector<hir::ValueId> Seen;
    std::optional<tf::Mesh> Here;
    bool HereKnown = false;
    for (hir::ValueId V : Uses) {
      if (V == hir::None || V >= K.Values.size() ||
          std::find(Seen.begin(), Seen.end(), V) != Seen.end())
        continue;
      Seen.push_back(V);
      if (!inRegisters(K, V))
        continue;
      hir::StmtId Holder = holderScope(K, V);
      if (Holder == hir::None)
        continue; // kernel scope: every thread of the CTA holds it
      if (!HereKnown) {
        Here = K.meshOf(Id);
        HereKnown = true;
      }
      if (!Here)
        return Out; // a kernel without topologies: nothing to compare
      if (sameUnits(K.Stmts[Holder].Mesh, *Here))
        continue;
      Found.push_back({Id, V, rootOf(K, V), Holder, *Here});
    }
  }
  // A value used on one other mesh at two or more statements, and held
  // nowhere it is used, was defined on the wrong mesh: one error at its
  // definition. Otherwise each use is its own error.
  std::vector<bool> Done(Found.size(), false);
  for (std::size_t I = 0; I < Found.size(); ++I) {
    if (Done[I])
      continue;
    std::vector<NotHeldUse> Same;
    for (std::size_t J = I; J < Found.size(); ++J)
      if (!Done[J] && Found[J].Root == Found[I].Root &&
          sameUnits(Found[J].Here, Found[I].Here)) {
        Same.push_back(Found[J]);
        Done[J] = true;
      }
    const bool HeldSomewhere = llvm::any_of(Found, [&](const NotHeldUse &U) {
      return U.Root == Found[I].Root && !sameUnits(U.Here, Found[I].Here);
    });
    if (Same.size() >= 2 && !HeldSomewhere) {
      Out.push_back(definitionFinding(K, Same));
      if (NotHeld)
        NotHeld->push_back(Same.front().Op);
      continue;
    }
    for (const NotHeldUse &U : Same) {
      Out.push_back(useFinding(K, U));
      if (NotHeld)
        NotHeld->push_back(U.Op);
    }
  }
  return Out;
}

} // namespace tf::analysis
