//===- plugin/lower/RegisterProgram.cpp - Ops on register tiles -----------===//
//
// See RegisterProgram.h.
//
//===----------------------------------------------------------------------===//
#include "lower/RegisterProgram.h"

#include "lower/MemoryPlan.h"

#include "analysis/Site.h"
#include "backend/Backend.h"

#include "tf/layout/mesh_text.hpp"
#include "tf/layout/shard_layout.hpp"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>

namespace tf::lower {

using hir::ValueId;
using plugin::DiagId;

llvm::Expected<RegisterTile> registerTile(const ShardLayout &Shard,
                                          llvm::ArrayRef<std::int64_t> Extents,
                                          const Role &R) {
  Result<detail::ShardTable> Table = detail::shard_table(Shard);
  if (!Table)
    return llvm::createStringError(std::string(Table.error().message()));
  const detail::ShardTable &T = *Table;
  const int Rank = Shard.layout.shape.rank();
  if (Rank != static_cast<int>(Extents.size()) ||
      llvm::any_of(Extents, [](std::int64_t E) { return E <= 0; }))
    return llvm::createStringError(
        "its layout's modes are not the tile's dimensions");
  RegisterTile Tile;
  Tile.Extents.assign(Extents.begin(), Extents.end());
  Result<std::int64_t> Local = local_size(Shard);
  if (!Local)
    return llvm::createStringError(std::string(Local.error().message()));
  Tile.Registers = *Local;
  Tile.ThreadCoord.resize(Rank);
  Tile.RegisterCoord.assign(Rank, std::vector<std::int64_t>(*Local, 0));
  // A coordinate of dimension d is its mode's leaf coordinates read
  // lexicographically (the last leaf fastest): each leaf contributes its
  // coordinate times the extents of the leaves after it in the mode. A
  // bound leaf's coordinate is its mesh leaves' (lexicographically too), an
  // unbound one's is part of the register's local index.
  int Leaf = 0;
  for (int D = 0; D < Rank; ++D) {
    const int Leaves = Shard.layout.shape.mode(D).leaf_count();
    std::int64_t Weight = 1;
    for (int J = Leaf + Leaves - 1; J >= Leaf; --J) {
      const std::int64_t Extent = T.leaves.extent[J];
      if (T.binding[J].count == 0) {
        for (std::int64_t Reg = 0; Reg < *Local; ++Reg)
          Tile.RegisterCoord[D][Reg] +=
              Reg / T.local_weight[J] % Extent * Weight;
      } else {
        std::int64_t Inner = Weight;
        for (int M = T.binding[J].first + T.binding[J].count - 1;
             M >= T.binding[J].first; --M) {
          Tile.ThreadCoord[D].push_back(
              {T.mesh.stride[M], T.mesh.extent[M], Inner});
          Inner *= T.mesh.extent[M];
        }
      }
      Weight *= Extent;
    }
    if (Weight != Extents[D])
      return llvm::createStringError(
          "its layout's mode " + std::to_string(D) + " has " +
          std::to_string(Weight) + " elements, not the tile's " +
          std::to_string(Extents[D]));
    std::reverse(Tile.ThreadCoord[D].begin(), Tile.ThreadCoord[D].end());
    Leaf += Leaves;
  }
  if (T.offset != R.Begin)
    return llvm::createStringError("its mesh does not start at the role's "
                                   "first thread");
  return Tile;
}

namespace {

bool sameGeometry(const RegisterTile &A, const RegisterTile &B) {
  return A.Registers == B.Registers && A.Extents == B.Extents &&
         A.ThreadCoord == B.ThreadCoord && A.RegisterCoord == B.RegisterCoord;
}

class RegisterLowering {
public:
  RegisterLowering(LoweringContext &Ctx, hir::StmtId Op, int R,
                   std::vector<InstId> &Out)
      : Ctx(Ctx), H(Ctx.H), L(Ctx.L), Id(Op), S(Ctx.H.Stmts[Op]),
        RoleIndex(R), Role(Ctx.Roles[R]), Out(Out) {}

  void run();

private:
  void refuse(const std::string &Why) {
    Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
               {Ctx.opText(S), std::string(Ctx.Backend.name()), Why});
    skip();
  }
  /// Leaves this op unlowered: what it writes is refused too.
  void skip() {
    Ctx.RefusedRegisters.insert(S.Result);
    if (hir::opInfo(S.Op).Class == hir::OpClass::Copy && S.Operands.size() == 2)
      Ctx.RefusedRegisters.insert(S.Operands[1]);
  }
  const hir::Value &value(ValueId V) const { return H.Values[V]; }

  /// The tile of \p V's ShardLayout, recorded in the kernel; None (refused)
  /// when it has none or it cannot be one.
  unsigned tileOf(ValueId V, DType Element);
  unsigned addTile(RegisterTile Tile, ValueId V);
  /// The geometry \p V's ShardLayout gives.
  std::optional<RegisterTile> geometry(ValueId V);
  /// The register value \p V (refused when it is none).
  const TileRef *registers(ValueId V);
  /// Global tile \p V as the register tile meets it: tensor dimension i of
  /// the tile's tensor indexed by tile dimension Dims[i].
  std::optional<EpilogueLoad> globalTile(ValueId V, std::vector<int> Dims);
  /// How many registers at a time move between tile \p Tile and \p G.
  std::int64_t vectorWidth(const RegisterTile &Tile, const EpilogueLoad &G,
                           ValueId Global) const;
  std::optional<ScalarExpr> scalar(ValueId V);
  std::optional<ScalarExpr> scalar(const hir::ScalarExpr &E);
  /// Register r of \p To reads register Map[r] of \p From, whose
  /// dimensions are To's dimensions \p Dims: each thread must hold what it
  /// reads.
  std::optional<std::vector<std::int64_t>>
  mapRegisters(const RegisterTile &To, const RegisterTile &From,
               llvm::ArrayRef<int> Dims);

  void allocate();
  /// Fills tile \p Tile (tf::zeros, tf::full: this op's value) by a
  /// statement at position \p At of \p Body.
  void fill(unsigned Tile, std::vector<InstId> &Body, std::size_t At);
  /// Gives pending tile \p V (LoweringContext::PendingTiles) the registers
  /// of \p Geometry, and its fill.
  void materialize(ValueId V, const RegisterTile &Geometry);
  void copy();
  void math();
  void broadcast();
  void reduce();
  /// Continues reduction \p Op into \p Tile, whose lanes \p Lanes
  /// exchanged partials, across the warps \p Warps (bits of the thread
  /// index) through the role's scratch (RegisterShareStmt,
  /// RegisterGatherStmt).
  void acrossWarps(unsigned Tile, RegisterOp Op, std::int64_t Lanes,
                   std::int64_t Warps);

  LoweringContext &Ctx;
  const hir::Kernel &H;
  Kernel &L;
  const hir::StmtId Id;
  const hir::Stmt &S;
  const int RoleIndex;
  const lower::Role &Role;
  std::vector<InstId> &Out;
};

std::optional<RegisterTile> RegisterLowering::geometry(ValueId V) {
  const hir::Value &X = value(V);
  if (!X.Shard) {
    refuse("the register tensor " + Ctx.valueName(V) +
           " is not distributed over the scope's threads (its layout binds "
           "no mesh axis)");
    return std::nullopt;
  }
  llvm::Expected<RegisterTile> Tile =
      registerTile(*X.Shard, X.Type.extents(), Role);
  if (!Tile) {
    refuse("the register tensor " + Ctx.valueName(V) + " cannot be lowered: " +
           llvm::toString(Tile.takeError()));
    return std::nullopt;
  }
  Tile->Shard = to_string(*X.Shard);
  return std::move(*Tile);
}

unsigned RegisterLowering::addTile(RegisterTile Tile, ValueId V) {
  if (Tile.Element != DType::bf16 && Tile.Element != DType::f16 &&
      Tile.Element != DType::f32) {
    refuse(std::string("its register tile holds ") + name(Tile.Element).data() +
           "; register programs hold bf16, f16 and f32 and compute in f32");
    return None;
  }
  std::string Base = value(V).Name.empty() ? "t" + std::to_string(V)
                                           : value(V).Name;
  std::replace(Base.begin(), Base.end(), '.', '_');
  std::string Name = Base;
  for (int N = 2; llvm::any_of(L.Tiles, [&](const RegisterTile &T) {
         return T.Name == Name;
       });
       ++N)
    Name = Base + "_" + std::to_string(N);
  Tile.Name = Name;
  Tile.Value = V;
  L.Tiles.push_back(std::move(Tile));
  const unsigned Id = static_cast<unsigned>(L.Tiles.size() - 1);
  Ctx.RegisterValues[V] = TileRef{Id, {}};
  return Id;
}

unsigned RegisterLowering::tileOf(ValueId V, DType Element) {
  if (auto It = Ctx.RegisterValues.find(V); It != Ctx.RegisterValues.end())
    return It->second.Map.empty() ? It->second.Tile : None;
  std::optional<RegisterTile> Tile = geometry(V);
  if (!Tile)
    return None;
  Tile->Element = Element;
  return addTile(std::move(*Tile), V);
}

const TileRef *RegisterLowering::registers(ValueId V) {
  if (auto It = Ctx.RegisterValues.find(V); It != Ctx.RegisterValues.end())
    return &It->second;
  if (Ctx.RefusedRegisters.count(V)) {
    skip();
    return nullptr;
  }
  refuse("it reads " + Ctx.valueName(V) +
         ", which no register op before it wrote");
  return nullptr;
}

std::optional<EpilogueLoad> RegisterLowering::globalTile(ValueId V,
                                                         std::vector<int> Dims) {
  const hir::Value &X = value(V);
  const ValueId Tensor = X.TileOf;
  if (Tensor == hir::None || value(Tensor).Origin != hir::ValueOrigin::Parameter ||
      X.TileOffsets.size() != Dims.size()) {
    refuse("it reads " + Ctx.valueName(V) +
           ", which is not a tile of a tensor parameter (t.tile<...>(...))");
    return std::nullopt;
  }
  EpilogueLoad G;
  G.Tensor = value(Tensor).Name;
  G.Element = X.Type.Element;
  for (hir::ExprId E : X.TileOffsets)
    G.Origin.push_back(Ctx.expr(E, S.Range));
  G.Dims = std::move(Dims);
  return G;
}

std::int64_t RegisterLowering::vectorWidth(const RegisterTile &Tile,
                                           const EpilogueLoad &G,
                                           ValueId Global) const {
  // Vectors run along the tensor's last dimension, when it is its
  // unit-stride one.
  const int Unit = analysis::unitStrideMode(H, Global);
  if (Unit < 0 || Unit + 1 != static_cast<int>(G.Dims.size()))
    return 1;
  const int D = G.Dims[Unit];
  const std::int64_t Bytes = static_cast<std::int64_t>(bytes(Tile.Element));
  // The widest power of two up to 16 bytes such that every run of that
  // many registers holds consecutive elements along D, starting at a
  // multiple of it, and each thread's part moves the runs by multiples.
  for (std::int64_t V = std::max<std::int64_t>(1, 16 / Bytes); V > 1; V /= 2) {
    if (Tile.Registers % V != 0 ||
        llvm::any_of(Tile.ThreadCoord[D],
                     [&](const ThreadTerm &T) { return T.Scale % V != 0; }))
      continue;
    bool Runs = true;
    for (std::int64_t R = 0; R < Tile.Registers && Runs; R += V) {
      Runs = Tile.RegisterCoord[D][R] % V == 0;
      for (std::int64_t I = 1; I < V && Runs; ++I)
        for (std::size_t E = 0; E < Tile.RegisterCoord.size() && Runs; ++E)
          Runs = Tile.RegisterCoord[E][R + I] ==
                 Tile.RegisterCoord[E][R] + (static_cast<int>(E) == D ? I : 0);
    }
    if (Runs)
      return V;
  }
  return 1;
}

std::optional<ScalarExpr> RegisterLowering::scalar(const hir::ScalarExpr &E) {
  using K = hir::ScalarExpr::Kind;
  ScalarExpr Out;
  switch (E.What) {
  case K::Constant:
    Out.Value = E.Constant;
    return Out;
  case K::Parameter:
    Out.What = ScalarExpr::Kind::Parameter;
    Out.Parameter = value(E.Parameter).Name;
    return Out;
  case K::Index:
    Out.What = ScalarExpr::Kind::Index;
    Out.Index = Ctx.expr(E.Index, S.Range);
    return Out;
  case K::Neg: Out.What = ScalarExpr::Kind::Neg; break;
  case K::Add: Out.What = ScalarExpr::Kind::Add; break;
  case K::Sub: Out.What = ScalarExpr::Kind::Sub; break;
  case K::Mul: Out.What = ScalarExpr::Kind::Mul; break;
  case K::Div: Out.What = ScalarExpr::Kind::Div; break;
  }
  for (const hir::ScalarExpr &A : E.Args) {
    std::optional<ScalarExpr> X = scalar(A);
    if (!X)
      return std::nullopt;
    Out.Args.push_back(std::move(*X));
  }
  return Out;
}

std::optional<ScalarExpr> RegisterLowering::scalar(ValueId V) {
  const hir::Value &X = value(V);
  if (X.Origin == hir::ValueOrigin::Parameter) {
    ScalarExpr Out;
    Out.What = ScalarExpr::Kind::Parameter;
    Out.Parameter = X.Name;
    return Out;
  }
  if (!X.Scalar) {
    refuse("tf cannot read the scalar '" + X.Written +
           "': write a constant expression, a float parameter, an extent, "
           "or + - * / on them");
    return std::nullopt;
  }
  return scalar(*X.Scalar);
}

std::optional<std::vector<std::int64_t>>
RegisterLowering::mapRegisters(const RegisterTile &To, const RegisterTile &From,
                               llvm::ArrayRef<int> Dims) {
  for (std::size_t D = 0; D < Dims.size(); ++D)
    if (To.ThreadCoord[Dims[D]] != From.ThreadCoord[D])
      return std::nullopt;
  std::vector<std::int64_t> Map;
  for (std::int64_t R = 0; R < To.Registers; ++R) {
    std::int64_t Found = -1;
    for (std::int64_t Q = 0; Q < From.Registers && Found < 0; ++Q) {
      bool Same = true;
      for (std::size_t D = 0; D < Dims.size() && Same; ++D)
        Same = From.RegisterCoord[D][Q] == To.RegisterCoord[Dims[D]][R];
      if (Same)
        Found = Q;
    }
    if (Found < 0)
      return std::nullopt;
    Map.push_back(Found);
  }
  return Map;
}

void RegisterLowering::allocate() {
  if (!value(S.Result).Shard && S.Op != hir::OpKind::Empty) {
    Ctx.PendingTiles[S.Result] = {
        static_cast<hir::StmtId>(&S - H.Stmts.data()), &Out, Out.size()};
    return;
  }
  const unsigned Tile = tileOf(S.Result, value(S.Result).Type.Element);
  if (Tile == None || S.Op == hir::OpKind::Empty)
    return;
  fill(Tile, Out, Out.size());
}

void RegisterLowering::fill(unsigned Tile, std::vector<InstId> &Body,
                            std::size_t At) {
  RegisterMathStmt Fill;
  Fill.Dst = Tile;
  Fill.To = value(S.Result).Type.Element;
  RegisterOperand V;
  V.What = RegisterOperand::Kind::Scalar;
  if (S.Op == hir::OpKind::Full) {
    std::optional<ScalarExpr> X =
        S.Operands.empty() ? std::nullopt : scalar(S.Operands[0]);
    if (!X)
      return;
    V.Scalar = std::move(*X);
  }
  Fill.Operands.push_back(std::move(V));
  std::vector<InstId> One;
  Ctx.add(std::move(Fill), S, One);
  Body.insert(Body.begin() + static_cast<std::ptrdiff_t>(At), One.front());
  // Later positions recorded in the same body move with it.
  for (auto &[V2, P] : Ctx.PendingTiles)
    if (P.Body == &Body && P.At >= At)
      ++P.At;
}

void RegisterLowering::materialize(ValueId V, const RegisterTile &Geometry) {
  auto It = Ctx.PendingTiles.find(V);
  if (It == Ctx.PendingTiles.end())
    return;
  const LoweringContext::PendingTile P = It->second;
  Ctx.PendingTiles.erase(It);
  RegisterTile Tile = Geometry;
  Tile.Element = value(V).Type.Element;
  Tile.Shard = "as " + Geometry.Name;
  const unsigned Id = addTile(std::move(Tile), V);
  if (Id == None)
    return;
  RegisterLowering(Ctx, P.Op, RoleIndex, Out).fill(Id, *P.Body, P.At);
}

void RegisterLowering::copy() {
  const ValueId Src = S.Operands[0], Dst = S.Operands[1];
  const bool Load = value(Src).Type.Where == Storage::gmem;
  const ValueId Global = Load ? Src : Dst, Regs = Load ? Dst : Src;
  const int Rank = static_cast<int>(value(Global).TileOffsets.size());
  std::vector<int> Dims(Rank);
  for (int D = 0; D < Rank; ++D)
    Dims[D] = D;
  std::optional<EpilogueLoad> G = globalTile(Global, Dims);
  if (!G)
    return;
  if (Load) {
    const unsigned Tile = tileOf(Dst, value(Dst).Type.Element);
    if (Tile == None)
      return;
    if (S.Result != hir::None && S.Result != Dst)
      Ctx.RegisterValues[S.Result] = TileRef{Tile, {}};
    RegisterLoadStmt I;
    I.Dst = Tile;
    I.Vector = vectorWidth(L.Tiles[Tile], *G, Global);
    I.Src = std::move(*G);
    Ctx.add(std::move(I), S, Out);
    return;
  }
  const TileRef *From = registers(Regs);
  if (!From)
    return;
  if (!From->Map.empty()) {
    refuse("it stores a broadcast; apply an op to it first");
    return;
  }
  if (L.Tiles[From->Tile].Element != G->Element) {
    refuse(std::string("it stores ") + name(L.Tiles[From->Tile].Element).data() +
           " registers into a tensor of " + name(G->Element).data() +
           "; tf::cast them first");
    return;
  }
  RegisterStoreStmt I;
  I.Src = From->Tile;
  I.Vector = vectorWidth(L.Tiles[From->Tile], *G, Global);
  I.Dst = std::move(*G);
  Ctx.add(std::move(I), S, Out);
}

std::optional<RegisterOp> registerOpOf(hir::OpKind K) {
  switch (K) {
  case hir::OpKind::Cast: return RegisterOp::Cast;
  case hir::OpKind::Add: return RegisterOp::Add;
  case hir::OpKind::Sub: return RegisterOp::Sub;
  case hir::OpKind::Mul: return RegisterOp::Mul;
  case hir::OpKind::Scale: return RegisterOp::Mul;
  case hir::OpKind::Div: return RegisterOp::Div;
  case hir::OpKind::Maximum: return RegisterOp::Max;
  case hir::OpKind::Minimum: return RegisterOp::Min;
  case hir::OpKind::Neg: return RegisterOp::Neg;
  case hir::OpKind::Exp: return RegisterOp::Exp;
  case hir::OpKind::Exp2: return RegisterOp::Exp2;
  case hir::OpKind::Rsqrt: return RegisterOp::Rsqrt;
  case hir::OpKind::Relu: return RegisterOp::Relu;
  case hir::OpKind::GeluTanh: return RegisterOp::GeluTanh;
  case hir::OpKind::GeluErf: return RegisterOp::GeluErf;
  case hir::OpKind::Silu: return RegisterOp::Silu;
  case hir::OpKind::Where: return RegisterOp::Select;
  case hir::OpKind::ReduceSum: return RegisterOp::Add;
  case hir::OpKind::ReduceMax: return RegisterOp::Max;
  default: return std::nullopt;
  }
}

void RegisterLowering::math() {
  std::optional<RegisterOp> Op = registerOpOf(S.Op);
  if (!Op) {
    refuse("it is no register math tf lowers");
    return;
  }
  const hir::Value &Result = value(S.Result);
  // A pending statistic takes the registers of the tile it is combined
  // with.
  for (ValueId V : S.Operands)
    if (Ctx.PendingTiles.count(V))
      for (ValueId W : S.Operands)
        if (auto It = Ctx.RegisterValues.find(W);
            It != Ctx.RegisterValues.end() && It->second.Map.empty()) {
          materialize(V, L.Tiles[It->second.Tile]);
          break;
        }
  // The result's registers: its own layout's, else (a row statistic, whose
  // type binds no mesh axis) those of its first register operand.
  std::optional<RegisterTile> Geometry;
  if (auto It = Ctx.RegisterValues.find(S.Result);
      S.Assigns && It != Ctx.RegisterValues.end() && It->second.Map.empty())
    Geometry = L.Tiles[It->second.Tile];
  else if (Result.Shard)
    Geometry = geometry(S.Result);
  else
    for (ValueId V : S.Operands)
      if (auto It = Ctx.RegisterValues.find(V);
          It != Ctx.RegisterValues.end() && It->second.Map.empty()) {
        Geometry = L.Tiles[It->second.Tile];
        break;
      }
  if (!Geometry) {
    if (!Ctx.failed())
      refuse("none of its operands is a register tile laid out over the "
             "threads");
    return;
  }
  RegisterMathStmt I;
  I.Op = *Op;
  I.To = S.Op == hir::OpKind::Cast ? S.CastTo : Result.Type.Element;
  for (ValueId V : S.Operands) {
    RegisterOperand O;
    const hir::Value &X = value(V);
    if (X.Kind == hir::ValueKind::Scalar) {
      std::optional<ScalarExpr> E = scalar(V);
      if (!E)
        return;
      O.What = RegisterOperand::Kind::Scalar;
      O.Scalar = std::move(*E);
    } else if (auto M = Ctx.Masks.find(V); M != Ctx.Masks.end()) {
      O.What = RegisterOperand::Kind::InBounds;
      O.Bounds = M->second;
    } else {
      const TileRef *Ref = registers(V);
      if (!Ref)
        return;
      O.Tile = Ref->Tile;
      const RegisterTile &From = L.Tiles[Ref->Tile];
      if (!Ref->Map.empty()) {
        if (Ref->Map.size() != static_cast<std::size_t>(Geometry->Registers)) {
          refuse("its operand " + Ctx.valueName(V) +
                 " is a broadcast of another shape than its result");
          return;
        }
        O.Map = Ref->Map;
      } else if (!sameGeometry(From, *Geometry)) {
        std::vector<int> Dims(From.Extents.size());
        for (std::size_t D = 0; D < Dims.size(); ++D)
          Dims[D] = static_cast<int>(D);
        std::optional<std::vector<std::int64_t>> Map =
            From.Extents == Geometry->Extents
                ? mapRegisters(*Geometry, From, Dims)
                : std::nullopt;
        if (!Map) {
          refuse("its operand " + Ctx.valueName(V) +
                 " is laid out over the threads differently from its result");
          return;
        }
        O.Map = std::move(*Map);
      }
    }
    I.Operands.push_back(std::move(O));
  }
  if (S.Assigns && Ctx.RegisterValues.count(S.Result)) {
    I.Dst = Ctx.RegisterValues[S.Result].Tile;
    // Each register is written after its own operands are read; one that
    // reads another register of the result would see it overwritten.
    if (llvm::any_of(I.Operands, [&](const RegisterOperand &O) {
          return O.Tile == I.Dst && !O.Map.empty();
        })) {
      refuse("it assigns " + Ctx.valueName(S.Result) +
             " from a broadcast of itself; assign to a new value");
      return;
    }
  } else {
    Geometry->Element = I.To;
    if (Result.Shard)
      Geometry->Shard = to_string(*Result.Shard);
    else if (I.Operands[0].Tile != None)
      Geometry->Shard = "as " + L.Tiles[I.Operands[0].Tile].Name;
    I.Dst = addTile(std::move(*Geometry), S.Result);
  }
  if (I.Dst == None)
    return;
  Ctx.add(std::move(I), S, Out);
}

void RegisterLowering::broadcast() {
  const ValueId From = S.Operands[0], Like = S.Operands[1];
  (void)Like;
  std::optional<RegisterTile> Geometry = geometry(S.Result);
  if (!Geometry)
    return;
  const int Rank = static_cast<int>(Geometry->Extents.size());
  std::vector<int> Dims;
  for (int D = 0; D < Rank; ++D)
    if (D != static_cast<int>(S.BroadcastMode))
      Dims.push_back(D);
  if (value(From).Type.Where == Storage::gmem) {
    // Each thread reads the elements its registers repeat.
    std::optional<EpilogueLoad> G = globalTile(From, Dims);
    if (!G)
      return;
    Geometry->Element = G->Element;
    const unsigned Tile = addTile(std::move(*Geometry), S.Result);
    if (Tile == None)
      return;
    RegisterLoadStmt I;
    I.Dst = Tile;
    I.Vector = vectorWidth(L.Tiles[Tile], *G, From);
    I.Src = std::move(*G);
    Ctx.add(std::move(I), S, Out);
    return;
  }
  const TileRef *Ref = registers(From);
  if (!Ref)
    return;
  if (!Ref->Map.empty()) {
    refuse("it broadcasts a broadcast");
    return;
  }
  std::optional<std::vector<std::int64_t>> Map =
      mapRegisters(*Geometry, L.Tiles[Ref->Tile], Dims);
  if (!Map) {
    refuse("the threads do not hold the elements of " + Ctx.valueName(From) +
           " that their registers of the result repeat; reduce it over the "
           "lanes that share them");
    return;
  }
  Ctx.RegisterValues[S.Result] = TileRef{Ref->Tile, std::move(*Map)};
}

void RegisterLowering::reduce() {
  const TileRef *Ref = registers(S.Operands[0]);
  if (!Ref)
    return;
  if (!Ref->Map.empty()) {
    refuse("it reduces a broadcast");
    return;
  }
  const RegisterTile &Src = L.Tiles[Ref->Tile];
  const int Mode = static_cast<int>(S.ReduceMode);
  const int Rank = static_cast<int>(Src.Extents.size());
  if (Mode >= Rank) {
    refuse("it reduces mode " + std::to_string(Mode) + " of a tile of rank " +
           std::to_string(Rank));
    return;
  }
  // The lanes that share an element of the result: the thread terms of the
  // reduced dimension, each a power-of-two run of lanes inside a warp that
  // no kept dimension's term also reads.
  RegisterReduceStmt I;
  I.Op = *registerOpOf(S.Op);
  std::uint64_t Reduced = 0, Kept = 0;
  auto Bits = [](const ThreadTerm &T) -> std::optional<std::uint64_t> {
    if (!llvm::isPowerOf2_64(T.Divisor) || !llvm::isPowerOf2_64(T.Extent))
      return std::nullopt;
    return (T.Divisor * T.Extent - 1) & ~(T.Divisor - 1);
  };
  for (int D = 0; D < Rank; ++D)
    for (const ThreadTerm &T : Src.ThreadCoord[D]) {
      std::optional<std::uint64_t> B = Bits(T);
      if (!B) {
        refuse("its tile's threads are not laid out in powers of two, which "
               "the exchange of partials needs");
        return;
      }
      (D == Mode ? Reduced : Kept) |= *B;
    }
  if (Reduced & Kept) {
    refuse("the threads that share a result element also hold other ones");
    return;
  }
  const std::int64_t Lanes = static_cast<std::int64_t>(Reduced & 31),
                     Warps = static_cast<std::int64_t>(Reduced & ~31ull);
  if (Warps && (Role.Begin % 32 || Role.threads() % 32)) {
    refuse("its mode " + std::to_string(Mode) +
           " spans warps, and the role's threads are not whole warps");
    return;
  }
  for (std::uint64_t Mask = 16; Mask >= 1; Mask /= 2)
    if (Lanes & Mask)
      I.LaneMasks.push_back(static_cast<std::int64_t>(Mask));
  // The result's registers: the kept coordinates of the source's, in the
  // order they first appear.
  RegisterTile Dst;
  Dst.Element = value(S.Result).Type.Element;
  for (int D = 0; D < Rank; ++D)
    if (D != Mode) {
      Dst.Extents.push_back(Src.Extents[D]);
      Dst.ThreadCoord.push_back(Src.ThreadCoord[D]);
    }
  Dst.RegisterCoord.resize(Dst.Extents.size());
  std::map<std::vector<std::int64_t>, std::int64_t> Index;
  for (std::int64_t R = 0; R < Src.Registers; ++R) {
    std::vector<std::int64_t> Coord;
    for (int D = 0; D < Rank; ++D)
      if (D != Mode)
        Coord.push_back(Src.RegisterCoord[D][R]);
    auto [It, New] = Index.try_emplace(Coord, Dst.Registers);
    if (New) {
      for (std::size_t D = 0; D < Coord.size(); ++D)
        Dst.RegisterCoord[D].push_back(Coord[D]);
      ++Dst.Registers;
    }
    I.Into.push_back(It->second);
  }
  Dst.Shard = "reduced from " + Src.Name + " along mode " + std::to_string(Mode);
  I.Src = Ref->Tile;
  I.Dst = addTile(std::move(Dst), S.Result);
  if (I.Dst == None)
    return;
  const RegisterOp Op = I.Op;
  const unsigned Result = I.Dst;
  Ctx.add(std::move(I), S, Out);
  if (Warps)
    acrossWarps(Result, Op, Lanes, Warps);
}

void RegisterLowering::acrossWarps(unsigned Tile, RegisterOp Op,
                                   std::int64_t Lanes, std::int64_t Warps) {
  // A thread's slot packs the bits of its index that no lane exchange
  // shares (each group of lanes writes one partial): bit b of the index
  // lands at bit Position[b] of the slot.
  const std::int64_t Threads = Role.threads();
  const int Width = static_cast<int>(llvm::bit_width(
      static_cast<std::uint64_t>(Threads - 1)));
  std::vector<int> Position(Width, -1);
  for (int B = 0, Next = 0; B < Width; ++B)
    if (!(Lanes >> B & 1))
      Position[B] = Next++;
  // The terms of the slot of the bits in Bits: one per run of them.
  auto SlotTerms = [&](std::int64_t Bits) {
    std::vector<ThreadTerm> Terms;
    for (int B = 0; B < Width;) {
      if (!(Bits >> B & 1) || Position[B] < 0) {
        ++B;
        continue;
      }
      int End = B;
      while (End < Width && (Bits >> End & 1) && Position[End] >= 0)
        ++End;
      Terms.push_back({std::int64_t(1) << B, std::int64_t(1) << (End - B),
                       std::int64_t(1) << Position[B]});
      B = End;
    }
    return Terms;
  };
  auto SlotOf = [](llvm::ArrayRef<ThreadTerm> Terms, std::int64_t T) {
    std::int64_t Slot = 0;
    for (const ThreadTerm &X : Terms)
      Slot += T / X.Divisor % X.Extent * X.Scale;
    return Slot;
  };
  const std::int64_t All = (std::int64_t(1) << Width) - 1;
  RegisterShareStmt Share;
  Share.Src = Tile;
  Share.Slot = SlotTerms(All & ~Lanes);
  Share.Writers = Lanes;
  RegisterGatherStmt Gather;
  Gather.Dst = Tile;
  Gather.Op = Op;
  Gather.Slot = SlotTerms(All & ~Lanes & ~Warps);
  // The warps that share an element: each value of the reduced warp bits.
  for (std::int64_t J = 0;; J = (J - Warps) & Warps) {
    Gather.Offsets.push_back(SlotOf(SlotTerms(Warps), J));
    if (J == Warps)
      break;
  }
  for (std::int64_t T = 0; T < Threads; ++T) {
    Share.Slots = std::max(Share.Slots, SlotOf(Share.Slot, T) + 1);
    for (std::int64_t J = Warps;; J = (J - 1) & Warps) {
      if (((T & ~Warps) | J) >= Threads) {
        refuse("its mode spans warps that the role's " +
               std::to_string(Threads) +
               " threads do not all hold; lay it out over a power of two of "
               "warps");
        return;
      }
      if (J == 0)
        break;
    }
  }
  Gather.Slots = Share.Slots;
  // The previous reduction of this body takes the other region: the meet
  // below (every thread's partial written) also orders each thread's reads
  // of that region before any later write to it, so its closing meet goes.
  // One of another body (this is a loop's, that the scope's around it)
  // closes here, before this write.
  unsigned Turn = 0;
  auto Pending = Ctx.PendingMeets.find(RoleIndex);
  if (Pending != Ctx.PendingMeets.end()) {
    if (Pending->second.Body == &Out)
      Turn = 1 - Pending->second.Turn;
    else
      Ctx.Protocol->meet(Ctx, Ctx.Roles[RoleIndex],
                         Ctx.H.Stmts[Pending->second.Op],
                         *Pending->second.Body);
    Ctx.PendingMeets.erase(Pending);
  }
  // The scratch: partial r of slot s at float r * Slots + s.
  const std::int64_t Bytes =
      Share.Slots * L.Tiles[Tile].Registers * static_cast<std::int64_t>(sizeof(float));
  const RegionId Scratch = scratchRegion(Ctx, RoleIndex, Turn, Bytes);
  Share.Scratch = Gather.Scratch = Scratch;
  Ctx.add(std::move(Share), S, Out);
  Ctx.Protocol->meet(Ctx, Ctx.Roles[RoleIndex], S, Out);
  Ctx.add(std::move(Gather), S, Out);
  // Before any thread writes this region again, every one has read it: a
  // meet, written by the next reduction or closeReductions.
  Ctx.PendingMeets[RoleIndex] = {&Out, Turn, Id};
}

void RegisterLowering::run() {
  switch (hir::opInfo(S.Op).Class) {
  case hir::OpClass::Allocate:
    allocate();
    return;
  case hir::OpClass::Copy:
    copy();
    return;
  case hir::OpClass::Mask:
    if (std::optional<EpilogueLoad> G =
            globalTile(S.Operands[0], [&] {
              std::vector<int> Dims(value(S.Operands[0]).TileOffsets.size());
              for (std::size_t D = 0; D < Dims.size(); ++D)
                Dims[D] = static_cast<int>(D);
              return Dims;
            }()))
      Ctx.Masks[S.Result] = std::move(*G);
    return;
  case hir::OpClass::Broadcast:
    broadcast();
    return;
  case hir::OpClass::Reduce:
    reduce();
    return;
  default:
    math();
    return;
  }
}

} // namespace

void closeReductions(LoweringContext &Ctx, std::vector<InstId> &Body) {
  for (auto It = Ctx.PendingMeets.begin(); It != Ctx.PendingMeets.end();) {
    const LoweringContext::PendingMeet &P = It->second;
    if (P.Body != &Body) {
      ++It;
      continue;
    }
    // The last reduction wrote region 1: whatever reduction of the role
    // comes next (the body's next pass, a later body) starts at region 0,
    // and writes region 1 only after the meet of a region-0 reduction,
    // which every thread reaches after these reads. After region 0, a
    // meet: the next reduction writes it first.
    if (P.Turn == 0)
      Ctx.Protocol->meet(Ctx, Ctx.Roles[It->first], Ctx.H.Stmts[P.Op], Body);
    It = Ctx.PendingMeets.erase(It);
  }
}

void lowerRegisterOp(LoweringContext &Ctx, hir::StmtId Op, int R,
                     std::vector<InstId> &Out) {
  RegisterLowering(Ctx, Op, R, Out).run();
}

} // namespace tf::lower
