//===- plugin/lower/Verify.cpp - Checks of a lowered kernel ---------------===//
//
// See Verify.h. The checks recompute from the statements what Lower.cpp
// recorded in the map, so a lowering bug (or a hand edit of the LIR in a
// test) is caught here, not on the GPU.
//
//===----------------------------------------------------------------------===//
#include "lower/Verify.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace tf::lower {

ExtensionVerifier::~ExtensionVerifier() = default;
void ExtensionVerifier::body(llvm::ArrayRef<InstId>, const VerifyScope &) {}
void ExtensionVerifier::finish() {}

namespace {

class Verifier {
public:
  explicit Verifier(const Kernel &K) : K(K) {}

  llvm::Error run();

private:
  void fail(const hir::SourceRange &R, const llvm::Twine &Message) {
    Errors = llvm::joinErrors(std::move(Errors),
                              problemAt(R, "kernel " + K.Name + ": " + Message));
  }
  void checkMap();
  void checkTiles();
  /// The register statement \p S reads and writes tiles that exist, with
  /// register maps inside them.
  void checkRegisterStmt(const Stmt &S);
  /// The partials of \p Tile that a reduction across warps writes or reads
  /// (each thread's slot, plus each of \p Offsets) lie in scratch region
  /// \p Scratch.
  void checkPartials(const Stmt &S, unsigned Tile, RegionId Scratch,
                     std::int64_t Slots, llvm::ArrayRef<ThreadTerm> Slot,
                     llvm::ArrayRef<std::int64_t> Offsets);
  bool tile(const Stmt &S, unsigned T) {
    if (T < K.Tiles.size())
      return true;
    fail(S.Range, "a register statement names no register tile");
    return false;
  }
  void walk(const std::vector<InstId> &Body, VerifyScope C);
  /// The verifier of extension \p E, made on first use.
  ExtensionVerifier &verifierOf(const Extension &E);

  const Kernel &K;
  llvm::Error Errors = llvm::Error::success();
  std::vector<std::pair<const Extension *, std::unique_ptr<ExtensionVerifier>>>
      Extensions;
  std::vector<std::pair<std::int64_t, std::int64_t>> RoleRanges;
};

ExtensionVerifier &Verifier::verifierOf(const Extension &E) {
  for (auto &[Ext, V] : Extensions)
    if (Ext == &E)
      return *V;
  Extensions.emplace_back(
      &E, E.verifier(K, [this](const hir::SourceRange &R,
                               const llvm::Twine &M) { fail(R, M); }));
  return *Extensions.back().second;
}

void Verifier::checkMap() {
  std::vector<RegionId> Order(K.Regions.size());
  for (RegionId I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](RegionId A, RegionId B) {
    return K.Regions[A].Offset < K.Regions[B].Offset;
  });
  std::int64_t End = 0;
  for (std::size_t I = 0; I < Order.size(); ++I) {
    const Region &R = K.Regions[Order[I]];
    if (R.Align <= 0 || R.Offset % R.Align != 0 || K.SharedAlign % R.Align)
      fail(K.Range, "shared-memory region " + R.Name + " at byte " +
                        llvm::Twine(R.Offset) + " is not aligned to " +
                        llvm::Twine(R.Align) + " bytes (" + R.AlignReason +
                        ") within a base aligned to " +
                        llvm::Twine(K.SharedAlign));
    if (I > 0) {
      const Region &P = K.Regions[Order[I - 1]];
      if (P.Offset + P.Bytes > R.Offset)
        fail(K.Range, "shared-memory regions " + P.Name + " [" +
                          llvm::Twine(P.Offset) + ", " +
                          llvm::Twine(P.Offset + P.Bytes) + ") and " + R.Name +
                          " [" + llvm::Twine(R.Offset) + ", " +
                          llvm::Twine(R.Offset + R.Bytes) + ") overlap");
    }
    End = std::max(End, R.Offset + R.Bytes);
  }
  if (End > K.SharedBytes)
    fail(K.Range, "the shared-memory map ends at byte " + llvm::Twine(End) +
                      " but the launch asks for " +
                      llvm::Twine(K.SharedBytes) + " bytes");
  if (K.SharedBytes > K.SharedLimit)
    fail(K.Range, "the shared-memory map takes " +
                      llvm::Twine(K.SharedBytes) + " bytes, more than the " +
                      llvm::Twine(K.SharedLimit) + " of cta.shared_memory.max "
                      "on " + K.Target + "; use fewer stages or smaller tiles");
}

void Verifier::checkTiles() {
  for (const RegisterTile &T : K.Tiles) {
    if (T.ThreadCoord.size() != T.Extents.size() ||
        T.RegisterCoord.size() != T.Extents.size()) {
      fail(K.Range, "register tile " + T.Name + " has coordinates for " +
                        llvm::Twine(T.RegisterCoord.size()) + " of its " +
                        llvm::Twine(T.Extents.size()) + " dimensions");
      continue;
    }
    for (std::size_t D = 0; D < T.Extents.size(); ++D) {
      std::int64_t Reach = 0;
      for (const ThreadTerm &X : T.ThreadCoord[D])
        Reach += (X.Extent - 1) * X.Scale;
      for (std::int64_t C : T.RegisterCoord[D])
        if (T.RegisterCoord[D].size() != static_cast<std::size_t>(T.Registers) ||
            C < 0 || C + Reach >= T.Extents[D]) {
          fail(K.Range, "register tile " + T.Name + " puts a register outside "
                            "its dimension " + llvm::Twine(D));
          break;
        }
    }
  }
}

void Verifier::checkRegisterStmt(const Stmt &S) {
  auto Registers = [&](unsigned T) { return K.Tiles[T].Registers; };
  auto MapInside = [&](llvm::ArrayRef<std::int64_t> Map, std::size_t Size,
                       std::int64_t Bound) {
    if (Map.size() != Size ||
        llvm::any_of(Map, [&](std::int64_t R) { return R < 0 || R >= Bound; }))
      fail(S.Range, "a register map does not fit its tiles");
  };
  if (const auto *I = S.getIf<RegisterLoadStmt>()) {
    if (tile(S, I->Dst) && (I->Vector < 1 || Registers(I->Dst) % I->Vector))
      fail(S.Range, "a load's vector does not divide its registers");
  } else if (const auto *I = S.getIf<RegisterStoreStmt>()) {
    if (tile(S, I->Src) && (I->Vector < 1 || Registers(I->Src) % I->Vector))
      fail(S.Range, "a store's vector does not divide its registers");
  } else if (const auto *I = S.getIf<RegisterMathStmt>()) {
    if (!tile(S, I->Dst))
      return;
    for (const RegisterOperand &O : I->Operands)
      if (O.What == RegisterOperand::Kind::Tile && tile(S, O.Tile)) {
        if (!O.Map.empty())
          MapInside(O.Map, Registers(I->Dst), Registers(O.Tile));
        else if (Registers(O.Tile) != Registers(I->Dst))
          fail(S.Range, "an operand of register math has other registers "
                        "than its result");
      }
  } else if (const auto *I = S.getIf<RegisterReduceStmt>()) {
    if (!tile(S, I->Dst) || !tile(S, I->Src))
      return;
    MapInside(I->Into, Registers(I->Src), Registers(I->Dst));
    for (std::int64_t M : I->LaneMasks)
      if (M <= 0 || M >= 32 || (M & (M - 1)))
        fail(S.Range, "a reduction's lane mask " + llvm::Twine(M) +
                          " is not a lane bit of a warp");
  } else if (const auto *I = S.getIf<RegisterShareStmt>()) {
    if (tile(S, I->Src))
      checkPartials(S, I->Src, I->Scratch, I->Slots, I->Slot, {0});
    if (I->Writers < 0 || I->Writers >= 32)
      fail(S.Range, "a reduction's writers " + llvm::Twine(I->Writers) +
                        " are not lane bits of a warp");
  } else if (const auto *I = S.getIf<RegisterGatherStmt>()) {
    if (tile(S, I->Dst))
      checkPartials(S, I->Dst, I->Scratch, I->Slots, I->Slot, I->Offsets);
  }
}

void Verifier::checkPartials(const Stmt &S, unsigned Tile, RegionId Scratch,
                             std::int64_t Slots,
                             llvm::ArrayRef<ThreadTerm> Slot,
                             llvm::ArrayRef<std::int64_t> Offsets) {
  if (Scratch >= K.Regions.size() ||
      K.Regions[Scratch].Kind != RegionKind::Scratch) {
    fail(S.Range, "a reduction's partials are in no scratch region");
    return;
  }
  std::int64_t Reach = 0;
  for (const ThreadTerm &X : Slot)
    Reach += (X.Extent - 1) * X.Scale;
  const std::int64_t Bytes = Slots * K.Tiles[Tile].Registers *
                             static_cast<std::int64_t>(sizeof(float));
  if (Offsets.empty() || Bytes > K.Regions[Scratch].Bytes ||
      llvm::any_of(Offsets, [&](std::int64_t O) {
        return O < 0 || O + Reach >= Slots;
      }))
    fail(S.Range, "a reduction's partials lie outside " +
                      K.Regions[Scratch].Name + " (" +
                      llvm::Twine(K.Regions[Scratch].Bytes) + " bytes)");
}

void Verifier::walk(const std::vector<InstId> &Body, VerifyScope C) {
  for (auto &[Ext, V] : Extensions)
    V->body(Body, C);
  for (InstId Id : Body) {
    const Stmt &S = K.Insts[Id];
    if (const ExtensionInst *E = S.extension()) {
      verifierOf(E->extension()).stmt(Id, S, C);
      continue;
    }
    VerifyScope Inner = C;
    switch (S.kind()) {
    case StmtKind::Let: {
      const auto &L = S.get<LetStmt>();
      C.Lets[L.Var] = L.Value;
      break;
    }
    case StmtKind::Role: {
      const auto &R = S.get<RoleStmt>();
      if (R.Begin < 0 || R.End > K.BlockThreads || R.Begin >= R.End)
        fail(S.Range, "role " + R.Name + " runs threads [" +
                          llvm::Twine(R.Begin) + ", " + llvm::Twine(R.End) +
                          "), outside the CTA's " +
                          llvm::Twine(K.BlockThreads));
      if (R.Name != "init") {
        for (const auto &[B, E] : RoleRanges)
          if (B < R.End && R.Begin < E)
            fail(S.Range, "role " + R.Name + " overlaps another role");
        RoleRanges.push_back({R.Begin, R.End});
      }
      Inner.Role = Id;
      walk(S.Body, Inner);
      break;
    }
    case StmtKind::TileLoop:
      Inner.Persistent = S.get<TileLoopStmt>().Persistent;
      walk(S.Body, Inner);
      break;
    case StmtKind::KLoop:
      Inner.KVar = S.get<KLoopStmt>().Var;
      walk(S.Body, Inner);
      break;
    case StmtKind::RegisterLoad:
    case StmtKind::RegisterMath:
    case StmtKind::RegisterReduce:
    case StmtKind::RegisterStore:
    case StmtKind::RegisterShare:
    case StmtKind::RegisterGather:
      checkRegisterStmt(S);
      break;
    default:
      break;
    }
  }
}

llvm::Error Verifier::run() {
  if (K.ResidentCtas < 1)
    fail(K.Range, "resident CTAs per SM " + llvm::Twine(K.ResidentCtas) +
                      " is not positive");
  checkMap();
  checkTiles();
  // Every extension the kernel uses checks its statements, even where the
  // walk meets them late (a barrier's first use is inside a role).
  for (const Stmt &S : K.Insts)
    if (const ExtensionInst *E = S.extension())
      verifierOf(E->extension());
  walk(K.Body, VerifyScope{});
  for (auto &[Ext, V] : Extensions)
    V->finish();
  return std::move(Errors);
}

} // namespace

llvm::Error verify(const Kernel &K) { return Verifier(K).run(); }

} // namespace tf::lower
