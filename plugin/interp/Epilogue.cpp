//===- plugin/interp/Epilogue.cpp - the fragment store ----------------------===//
//
// See Run.h: StoreFragment applies the fused ops to each accumulator
// element, rounds it to the view's type and writes it where the view's
// layout and swizzle put it, after checking that the instruction's shard
// puts each element on the thread the WGMMA fragment holds it in.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

#include "tf/layout/shard_layout.hpp"
#include "tf/ops/activation_math.hpp"
#include "tf/layout/text/parse.hpp"

#include <cmath>
#include <limits>

namespace tf::interp::impl {

//===- Meshes and shards from their text ----------------------------------===//

/// The mesh printed as `Mesh(level, LAYOUT + OFFSET, name, ...)`
/// (tf/layout/mesh_text.hpp), which the LIR keeps as text.
static llvm::Expected<Mesh> parseMeshText(llvm::StringRef Text) {
  llvm::StringRef Inner = Text.trim();
  if (!Inner.consume_front("Mesh(") || !Inner.consume_back(")"))
    return fail("'" + Text + "' is not a Mesh(level, layout, names...)");
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  int Depth = 0;
  std::size_t Start = 0;
  for (std::size_t I = 0; I < Inner.size(); ++I) {
    if (Inner[I] == '(')
      ++Depth;
    else if (Inner[I] == ')')
      --Depth;
    else if (Inner[I] == ',' && Depth == 0) {
      Parts.push_back(Inner.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Parts.push_back(Inner.drop_front(Start).trim());
  if (Parts.size() < 2)
    return fail("'" + Text + "' names no layout");
  Result<LayoutText> L =
      parse_layout_text(std::string_view(Parts[1].data(), Parts[1].size()));
  if (!L || L->has_axes || L->has_swizzle)
    return fail("the layout of '" + Text + "' does not parse as a mesh's");
  Mesh M;
  M.level = Name(std::string_view(Parts[0].data(), Parts[0].size()));
  M.layout = L->layout;
  M.offset = L->has_offset ? L->offset : Int(0);
  for (std::size_t I = 2; I < Parts.size(); ++I)
    M.axes.push_back(Name(std::string_view(Parts[I].data(), Parts[I].size())));
  if (!M.axes.empty() && static_cast<int>(M.axes.size()) != M.rank())
    return fail("'" + Text + "' names " + llvm::Twine(M.axes.size()) +
                " axes for " + llvm::Twine(M.rank()) + " modes");
  return M;
}

/// The accumulator's shard as the LIR prints it: `LAYOUT over MESH`.
static llvm::Expected<ShardLayout> parseShardText(llvm::StringRef Text) {
  auto [LayoutPart, MeshPart] = Text.split(" over ");
  if (MeshPart.empty())
    return fail("shard '" + Text + "' is not 'LAYOUT over Mesh(...)'");
  Result<LayoutText> L =
      parse_layout_text(std::string_view(LayoutPart.data(), LayoutPart.size()));
  if (!L || !L->has_axes)
    return fail("shard layout '" + LayoutPart + "' does not parse");
  llvm::Expected<Mesh> M = parseMeshText(MeshPart);
  if (!M)
    return M.takeError();
  Result<ShardLayout> S = make_shard(L->layout, L->axes, *M);
  if (!S)
    return fail("shard '" + Text + "': " + S.error().message());
  return *S;
}

llvm::Expected<const StorePlan *> Run::storePlan(const Stmt &S,
                                                 const Walker &W) {
  const auto &I = S.get<lower::StoreFragmentStmt>();
  auto Cached = Plans.find(&S);
  if (Cached != Plans.end())
    return &Cached->second;
  auto AccIt = Accs.find(I.Acc);
  if (AccIt == Accs.end())
    return fail("stores an accumulator no WGMMA computes");
  const AccInfo &Acc = AccIt->second;
  if (I.Blocks.count() != Acc.Blocks)
    return fail("stores " + llvm::Twine(I.Blocks.count()) +
                " accumulator blocks per warpgroup; its WGMMAs compute " +
                llvm::Twine(Acc.Blocks));
  const lower::RegisterFragment &Regs = I.Registers;
  if (Regs.threads() != WarpgroupThreads || Regs.rows() != Acc.Op.M ||
      Regs.columns() != Acc.Op.N)
    return fail("stores the accumulator as a fragment of " +
                llvm::Twine(Regs.threads()) + " threads and " +
                llvm::Twine(Regs.rows()) + " x " + llvm::Twine(Regs.columns()) +
                " elements; its WGMMAs compute " + llvm::Twine(Acc.Op.M) +
                " x " + llvm::Twine(Acc.Op.N) + " per warpgroup");
  const lower::RoleStmt &Role = *W.Role;
  StorePlan Plan;
  Plan.N = Acc.Op.N * I.Blocks.Columns;
  Plan.Groups = (Role.End - Role.Begin) / WarpgroupThreads;
  const std::int64_t Rows = Acc.Op.M * I.Blocks.Rows * Plan.Groups,
                     N = Plan.N;

  // The view: (m, n) -> element offset through its layout (a linear index
  // of the (rows, columns) shape, read lexicographically), in bytes, then
  // its swizzle.
  if (I.View >= K.Regions.size())
    return fail("names no shared-memory view");
  const Region &View = K.Regions[I.View];
  Result<LayoutText> Text = parse_layout_text(View.Layout);
  if (!Text)
    return fail("the layout '" + View.Layout + "' of " + View.Name +
                " does not parse: " + Text.error().message());
  if (Text->has_offset || Text->has_axes)
    return fail("the layout '" + View.Layout + "' of " + View.Name +
                " is not a plain view");
  if (View.Shape.size() != 2 || View.Shape[0] != Rows || View.Shape[1] != N)
    return fail(View.Name + " is not the " + llvm::Twine(Rows) + " x " +
                llvm::Twine(N) + " accumulator tile");
  const Swizzle Sw = Text->has_swizzle ? Text->swizzle : Swizzle{};
  const std::int64_t E = bytes(View.Element);
  Plan.Offset.resize(static_cast<std::size_t>(Rows * N));
  for (std::int64_t L = 0; L < Rows * N; ++L) {
    Result<std::int64_t> At = evaluate(Text->layout, L);
    if (!At || *At < 0)
      return fail("the layout of " + View.Name + " does not map element " +
                  llvm::Twine(L));
    Plan.Offset[static_cast<std::size_t>(L)] = Sw(*At * E);
  }

  // The shard must put each element where the WGMMA fragment holds it:
  // register Reg of block b of thread t of warpgroup g holds the tile's
  // element I.Blocks.at(Registers, g, b, t, Reg).
  llvm::Expected<ShardLayout> Shard = parseShardText(I.Shard);
  if (!Shard)
    return Shard.takeError();
  if (Shard->layout.rank() != 2)
    return fail("the accumulator's shard is not a matrix");
  Result<detail::ShardTable> Table = detail::shard_table(*Shard);
  if (!Table)
    return fail("the accumulator's shard: " + Table.error().message());
  // Leaf extents of the two modes, for the lexicographic split of m and n.
  llvm::SmallVector<std::int64_t, 8> Leaves[2];
  for (int Mode = 0; Mode < 2; ++Mode) {
    IntTuple S = Shard->layout.shape.mode(Mode);
    for (int J = 0; J < S.leaf_count(); ++J)
      Leaves[Mode].push_back(S.leaf_at(J).value);
  }
  std::int64_t Coord[max_int_tuple_nodes] = {};
  for (std::int64_t T = Role.Begin; T < Role.End; ++T) {
    const std::int64_t G = (T - Role.Begin) / WarpgroupThreads;
    for (std::int64_t B = 0; B < I.Blocks.count(); ++B)
      for (std::int64_t Reg = 0; Reg < Regs.registers(); ++Reg) {
        const lower::FragmentCoord Place = I.Blocks.at(
            Regs, G, B, (T - Role.Begin) % WarpgroupThreads, Reg);
        const std::int64_t Mn[2] = {Place.Row, Place.Col};
        int Leaf = 0;
        for (int Mode = 0; Mode < 2; ++Mode) {
          std::int64_t C = Mn[Mode];
          const int First = Leaf;
          Leaf += static_cast<int>(Leaves[Mode].size());
          for (int L = Leaf - 1; L >= First; --L) {
            const std::int64_t Extent = Leaves[Mode][L - First];
            Coord[L] = C % Extent;
            C /= Extent;
          }
        }
        bool Held = false;
        std::int64_t Other = -1;
        detail::for_each_replica(*Table, Coord,
                                 [&](std::int64_t Unit, std::int64_t) {
                                   Held |= Unit == T;
                                   Other = Unit;
                                   return !Held;
                                 });
        if (!Held)
          return fail(
              "the accumulator's shard puts element (" + llvm::Twine(Mn[0]) +
              ", " + llvm::Twine(Mn[1]) + ") on thread " + llvm::Twine(Other) +
              "; the WGMMA fragment holds it in thread " + llvm::Twine(T));
      }
  }
  return &Plans.emplace(&S, std::move(Plan)).first->second;
}

float EpilogueInputs::load(const lower::EpilogueLoad &L, std::int64_t Row,
                           std::int64_t Col) const {
  const Load &At = Loads.at(&L);
  llvm::SmallVector<std::int64_t, 2> Coord;
  for (std::size_t D = 0; D < L.Dims.size(); ++D) {
    const std::int64_t C = At.Origin[D] + (L.Dims[D] == 0 ? Row : Col);
    if (C < 0 || C >= At.Arg->Extents[D])
      return 0.0f;
    Coord.push_back(C);
  }
  return loadAsFloat(At.Arg->at(Coord), L.Element);
}

llvm::Expected<EpilogueInputs>
Run::epilogueInputs(const Walker &W, llvm::ArrayRef<lower::FragmentOp> Ops) {
  EpilogueInputs In;
  for (std::size_t P = 0; P < K.Parameters.size(); ++P)
    if (K.Parameters[P].What == lower::Parameter::Kind::Float)
      In.Scalars[K.Parameters[P].Name] = static_cast<float>(Args[P].Float);
  for (const lower::FragmentOp &F : Ops)
    if (F.Op == lower::ElementwiseOp::Scale && !In.Scalars.count(F.Scalar))
      return fail("scales by '" + F.Scalar + "', which is no float parameter");
  llvm::Error Err = llvm::Error::success();
  lower::forEachLoad(Ops, [&](const lower::EpilogueLoad &L) {
    if (Err)
      return;
    auto It = llvm::find_if(K.Parameters, [&](const lower::Parameter &P) {
      return P.Name == L.Tensor && P.What == lower::Parameter::Kind::Tensor;
    });
    if (It == K.Parameters.end()) {
      Err = fail("reads '" + L.Tensor + "', which is no tensor parameter");
      return;
    }
    const TensorArg &Arg = Args[static_cast<std::size_t>(It - K.Parameters.begin())];
    if (Arg.Element != L.Element || !isModeledFloat(L.Element) ||
        Arg.Extents.size() != L.Dims.size() ||
        L.Origin.size() != L.Dims.size()) {
      Err = fail("reads '" + L.Tensor + "' as a rank-" +
                 llvm::Twine(L.Dims.size()) + " tensor of " +
                 name(L.Element).data());
      return;
    }
    EpilogueInputs::Load At;
    At.Arg = &Arg;
    for (ExprId E : L.Origin) {
      llvm::Expected<std::int64_t> V = eval(W, E);
      if (!V) {
        Err = V.takeError();
        return;
      }
      At.Origin.push_back(*V);
    }
    In.Loads[&L] = std::move(At);
  });
  if (Err)
    return Err;
  return In;
}

/// \p X, the element at tile position (Row, Col), after the fused
/// elementwise ops of a fragment store, in order, in f32 (a cast rounds to
/// its type and continues with the rounded value; an add adds its
/// operand's element after that operand's own ops). The activations are
/// the header-only ops' own formulas and every op is one f32 operation in
/// the header-only op's order, so the two agree bit for bit.
static float applyEpilogue(llvm::ArrayRef<lower::FragmentOp> Ops, float X,
                           std::int64_t Row, std::int64_t Col,
                           const EpilogueInputs &In) {
  for (const lower::FragmentOp &F : Ops)
    switch (F.Op) {
    case lower::ElementwiseOp::Scale:
      X = X * In.Scalars.at(F.Scalar);
      break;
    case lower::ElementwiseOp::Add: {
      const lower::FragmentOperand &Added = F.Operand.front();
      X = X + applyEpilogue(Added.Ops, In.load(Added.Load, Row, Col), Row,
                            Col, In);
      break;
    }
    case lower::ElementwiseOp::Relu:
      X = X > 0.0f ? X : 0.0f;
      break;
    case lower::ElementwiseOp::Neg:
      X = -X;
      break;
    case lower::ElementwiseOp::Exp:
      X = std::exp(X);
      break;
    case lower::ElementwiseOp::GeluTanh:
      X = activation::gelu_tanh(X);
      break;
    case lower::ElementwiseOp::GeluErf:
      X = activation::gelu_erf(X);
      break;
    case lower::ElementwiseOp::Silu:
      X = activation::silu(X);
      break;
    case lower::ElementwiseOp::Cast: {
      std::uint8_t Bytes[4];
      storeFromFloat(Bytes, F.To, X);
      X = loadAsFloat(Bytes, F.To);
      break;
    }
    }
  return X;
}

llvm::Error Run::storeFragment(Walker &W, const Stmt &S) {
  const auto &I = S.get<lower::StoreFragmentStmt>();
  if (!W.Warpgroups)
    return fail("stores an accumulator from a role that is not made of "
                "whole warpgroups");
  if (accumulatorInFlight(W, I.Acc))
    return fail("reads the accumulator while a WGMMA on it is in flight "
                "(no wgmma.wait_group before)");
  llvm::Expected<const StorePlan *> Plan = storePlan(S, W);
  if (!Plan)
    return Plan.takeError();
  const Region &View = K.Regions[I.View];
  if (I.CastTo != View.Element)
    return fail("casts to " + llvm::Twine(name(I.CastTo).data()) + " but " +
                View.Name + " holds " + name(View.Element).data());
  if (!isModeledFloat(View.Element))
    return fail("a cast to " + llvm::Twine(name(View.Element).data()) +
                " is not modeled");
  for (const lower::FragmentOp &F : I.Epilogue)
    if (F.Op == lower::ElementwiseOp::Cast && !isModeledFloat(F.To))
      return fail("an epilogue cast to " + llvm::Twine(name(F.To).data()) +
                  " is not modeled");
  llvm::Expected<EpilogueInputs> In = epilogueInputs(W, I.Epilogue);
  if (!In)
    return In.takeError();
  const lower::MmaAtom &Atom = Accs.at(I.Acc).Op;
  const std::vector<float> Poison(static_cast<std::size_t>(Atom.M * Atom.N),
                                  std::numeric_limits<float>::quiet_NaN());
  const std::int64_t E = bytes(View.Element);
  CtaState &Cta = cta(W);
  for (std::int64_t B = 0; B < I.Blocks.count(); ++B) {
    // Block B's M x N registers (never computed: poison).
    auto It = Cta.AccRegs.find({I.Acc, W.Group, B});
    const std::vector<float> &D = It == Cta.AccRegs.end() ? Poison : It->second;
    for (std::int64_t T = W.Begin; T < W.End; ++T)
      for (std::int64_t Reg = 0; Reg < I.Registers.registers(); ++Reg) {
        const lower::FragmentCoord C = I.Registers.coord(T - W.Begin, Reg);
        const lower::FragmentCoord At =
            I.Blocks.at(I.Registers, W.Group, B, T - W.Begin, Reg);
        const std::int64_t Address =
            View.Offset +
            (*Plan)->Offset[static_cast<std::size_t>(At.Row * (*Plan)->N +
                                                     At.Col)];
        if (Address < View.Offset || Address + E > View.Offset + View.Bytes)
          return fail("element (" + llvm::Twine(At.Row) + ", " +
                      llvm::Twine(At.Col) + ") lands outside " + View.Name);
        storeFromFloat(
            &Cta.Smem[static_cast<std::size_t>(Address)], View.Element,
            applyEpilogue(I.Epilogue,
                          D[static_cast<std::size_t>(C.Row * Atom.N + C.Col)],
                          At.Row, At.Col, *In));
      }
  }
  W.Fenced = false; // a register access: the next WGMMA needs a fence
  return llvm::Error::success();
}

} // namespace tf::interp::impl
