//===- plugin/backend/cuda_sm90/RegisterProgram.cpp - Register tiles ------===//
//
// The register statements of the LIR (row kernels) in CUDA: each register
// tile a local array of its element type, declared at the top of its role
// with the thread's part of each coordinate; the registers' parts are
// constexpr arrays, indexed in unrolled loops so that each access is one
// register. Loads and stores move Vector registers at a time
// (tf::sm90::load_vector / store_vector) where the run lies inside the
// tensor and the address is aligned, else element by element with a bound
// check; math is done in f32 register by register; a reduction folds a
// thread's registers, then exchanges partials with __shfl_xor_sync, and
// across warps writes them to the role's scratch in shared memory, where
// (after the role's bar.sync) every thread folds its element's warps'.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/Forms.h"
#include "backend/cuda_sm90/KernelEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>

namespace tf::backend::sm90 {

using namespace lower;

namespace {

/// \p E, in parentheses unless it is one name or number.
std::string parenthesized(const std::string &E) {
  return llvm::all_of(E, [](char C) { return llvm::isAlnum(C) || C == '_'; })
             ? E
             : "(" + E + ")";
}

/// \p E + \p K as the emitted code writes it.
std::string plus(const std::string &E, std::int64_t K) {
  if (K == 0)
    return E;
  return parenthesized(E) + (K < 0 ? " - " : " + ") +
         std::to_string(K < 0 ? -K : K);
}

/// The least and greatest coordinate \p D of \p X's elements over all
/// threads of the role and all registers.
std::pair<std::int64_t, std::int64_t> tileSpan(const RegisterTile &X, int D) {
  const std::vector<std::int64_t> &Regs = X.RegisterCoord[D];
  const auto [Low, High] = std::minmax_element(Regs.begin(), Regs.end());
  std::int64_t Min = *Low, Max = *High;
  for (const ThreadTerm &Term : X.ThreadCoord[D]) {
    const std::int64_t Far = (Term.Extent - 1) * Term.Scale;
    Min += std::min<std::int64_t>(Far, 0);
    Max += std::max<std::int64_t>(Far, 0);
  }
  return {Min, Max};
}

std::string listText(llvm::ArrayRef<std::int64_t> Values) {
  std::string Out;
  for (std::size_t I = 0; I < Values.size(); ++I)
    Out += (I ? (I % 16 ? ", " : ",\n    ") : "") + std::to_string(Values[I]);
  return Out;
}

/// The f32 literal of \p V.
std::string floatLiteral(double V) {
  if (V == std::numeric_limits<double>::infinity())
    return "INFINITY";
  if (V == -std::numeric_limits<double>::infinity())
    return "-INFINITY";
  return llvm::formatv("{0:e9}f", V).str();
}

/// A register's CUDA type.
const char *registerType(DType T) { return loadedType(T); }

} // namespace

std::optional<ElementwiseOp> activationOf(RegisterOp Op) {
  switch (Op) {
  case RegisterOp::GeluTanh: return ElementwiseOp::GeluTanh;
  case RegisterOp::GeluErf: return ElementwiseOp::GeluErf;
  case RegisterOp::Silu: return ElementwiseOp::Silu;
  default: return std::nullopt;
  }
}

std::string KernelEmitter::tileName(unsigned Tile) const {
  return "r_" + identifier(K.Tiles[Tile].Name);
}

std::string KernelEmitter::registerMap(llvm::ArrayRef<std::int64_t> Map) const {
  return RegisterMaps.at(std::vector<std::int64_t>(Map.begin(), Map.end()));
}

unsigned KernelEmitter::coordOwner(unsigned Tile) const {
  const RegisterTile &X = K.Tiles[Tile];
  for (unsigned U = 0; U < Tile; ++U)
    if (K.Tiles[U].ThreadCoord == X.ThreadCoord &&
        K.Tiles[U].RegisterCoord == X.RegisterCoord)
      return U;
  return Tile;
}

void KernelEmitter::collectRegisterStmt(const Stmt &S) {
  auto Tensor = [&](const EpilogueLoad &G, std::set<unsigned> &Into) {
    auto It = llvm::find_if(K.Parameters, [&](const Parameter &P) {
      return P.Name == G.Tensor && P.What == Parameter::Kind::Tensor;
    });
    if (It == K.Parameters.end())
      return;
    const unsigned P = unsigned(It - K.Parameters.begin());
    Into.insert(P);
    for (unsigned D = 0; D < G.Dims.size(); ++D)
      Extents.insert({P, D});
  };
  auto Map = [&](llvm::ArrayRef<std::int64_t> M) {
    if (!M.empty())
      RegisterMaps.try_emplace(std::vector<std::int64_t>(M.begin(), M.end()),
                               "register_map" +
                                   std::to_string(RegisterMaps.size()));
  };
  auto Coords = [&](unsigned Tile, const EpilogueLoad &G) {
    for (int D : G.Dims)
      UsedCoords.insert({coordOwner(Tile), D});
  };
  if (const auto *I = S.getIf<RegisterLoadStmt>()) {
    Tensor(I->Src, LoadedTensors);
    Coords(I->Dst, I->Src);
  }
  if (const auto *I = S.getIf<RegisterStoreStmt>()) {
    Tensor(I->Dst, StoredTensors);
    Coords(I->Src, I->Dst);
  }
  if (const auto *I = S.getIf<RegisterMathStmt>())
    for (const RegisterOperand &O : I->Operands) {
      Map(O.Map);
      if (O.What == RegisterOperand::Kind::InBounds) {
        std::set<unsigned> Unused;
        Tensor(O.Bounds, Unused);
        Coords(I->Dst, O.Bounds);
      }
    }
  if (const auto *I = S.getIf<RegisterReduceStmt>())
    Map(I->Into);
  if (const auto *I = S.getIf<RegisterGatherStmt>())
    Map(I->Offsets);
}

void KernelEmitter::registerConstants() {
  if (K.Tiles.empty())
    return;
  OS << "// Register tiles: register r of a thread holds the element whose "
        "coordinate d is\n// the thread's part (NAME_cD) plus "
        "NAME_rD[r].\n";
  for (auto [T, D] : UsedCoords)
    OS << "__device__ constexpr int " << tileName(T) << "_r" << D << "["
       << K.Tiles[T].Registers << "] = {\n    "
       << listText(K.Tiles[T].RegisterCoord[D]) << "};\n";
  for (const auto &[Map, Name] : RegisterMaps)
    OS << "__device__ constexpr int " << Name << "[" << Map.size()
       << "] = {\n    " << listText(Map) << "};\n";
}

void KernelEmitter::declareTiles(InstId Role, unsigned Indent) {
  const RoleStmt &R = K.Insts[Role].get<RoleStmt>();
  std::set<unsigned> Tiles;
  std::function<void(const std::vector<InstId> &)> Walk =
      [&](const std::vector<InstId> &Body) {
        for (InstId Id : Body) {
          const Stmt &S = K.Insts[Id];
          if (const auto *I = S.getIf<RegisterLoadStmt>())
            Tiles.insert(I->Dst);
          if (const auto *I = S.getIf<RegisterMathStmt>())
            Tiles.insert(I->Dst);
          if (const auto *I = S.getIf<RegisterReduceStmt>())
            Tiles.insert(I->Dst);
          if (const auto *I = S.getIf<RegisterGatherStmt>())
            Tiles.insert(I->Dst);
          Walk(S.Body);
        }
      };
  Walk(K.Insts[Role].Body);
  if (Tiles.empty())
    return;
  OS.indent(Indent) << "const int thread = threadIdx.x"
                    << (R.Begin ? " - " + std::to_string(R.Begin) : "")
                    << ";\n";
  for (unsigned T : Tiles) {
    const RegisterTile &X = K.Tiles[T];
    OS.indent(Indent) << "// " << X.Name << ": " << X.Shard << "\n";
    OS.indent(Indent) << registerType(X.Element) << " " << tileName(T) << "["
                      << X.Registers << "];\n";
  }
  // The thread's part of each coordinate the accesses read, per tile
  // geometry (named after its first tile).
  for (auto [T, D] : UsedCoords) {
    if (!Tiles.count(T) &&
        llvm::none_of(Tiles, [&](unsigned U) { return coordOwner(U) == T; }))
      continue;
    std::string Part;
    for (const ThreadTerm &Term : K.Tiles[T].ThreadCoord[D]) {
      std::string X = "thread";
      if (Term.Divisor != 1)
        X += " / " + std::to_string(Term.Divisor);
      X += " % " + std::to_string(Term.Extent);
      if (Term.Scale != 1)
        X += " * " + std::to_string(Term.Scale);
      Part += (Part.empty() ? "" : " + ") + X;
    }
    OS.indent(Indent) << "const int " << tileName(T) << "_c" << D << " = "
                      << (Part.empty() ? "0" : Part) << ";\n";
  }
}

std::string KernelEmitter::tileIndex(unsigned Tile, int D,
                                     const std::string &Reg) const {
  const std::string Owner = tileName(coordOwner(Tile));
  return Owner + "_c" + std::to_string(D) + " + " + Owner + "_r" +
         std::to_string(D) + "[" + Reg + "]";
}

void KernelEmitter::globalAccess(unsigned Tile, const EpilogueLoad &G,
                                 std::int64_t Vector, bool Store,
                                 unsigned Indent) {
  const std::string T = identifier(G.Tensor);
  const std::string Reg = tileName(Tile);
  const RegisterTile &X = K.Tiles[Tile];
  const std::size_t Rank = G.Dims.size();
  auto Line = [&](unsigned Extra = 0) -> llvm::raw_ostream & {
    return OS.indent(Indent + Extra);
  };
  Line() << "{\n";
  for (std::size_t D = 0; D < Rank; ++D)
    Line(2) << "const int o" << D << " = " << expr(G.Origin[D]) << ";\n";
  // The index of tensor dimension D for register R, and whether R is
  // inside the tensor.
  auto Index = [&](std::size_t D, const std::string &R) {
    return "o" + std::to_string(D) + " + " + tileIndex(Tile, G.Dims[D], R);
  };
  auto Address = [&](const std::string &R) {
    std::string A = T + "_data";
    for (std::size_t D = 0; D < Rank; ++D)
      A += " + (" + Index(D, R) + ") * " + T + "_stride" + std::to_string(D);
    return A;
  };
  auto Inside = [&](const std::string &R, std::int64_t Run,
                    std::size_t RunDim) {
    std::vector<std::string> Terms;
    for (std::size_t D = 0; D < Rank; ++D) {
      const std::string I = Index(D, R);
      Terms.push_back(I + " >= 0");
      Terms.push_back(D == RunDim && Run > 1
                          ? I + " + " + std::to_string(Run) + " <= " + T +
                                "_extent" + std::to_string(D)
                          : I + " < " + T + "_extent" + std::to_string(D));
    }
    return llvm::join(Terms, " && ");
  };
  const char *Verb = Store ? "stores" : "loads";
  auto Element = [&](unsigned Extra, const std::string &R) {
    if (Store) {
      if (!WholeTiles)
        Line(Extra) << "if (" << Inside(R, 1, Rank) << ")\n";
      Line(Extra + (WholeTiles ? 0 : 2))
          << "*(" << Address(R) << ") = " << Reg << "[" << R << "];\n";
      return;
    }
    if (WholeTiles) {
      Line(Extra) << Reg << "[" << R << "] = *(" << Address(R) << ");\n";
      return;
    }
    Line(Extra) << Reg << "[" << R << "] = (" << Inside(R, 1, Rank) << ")\n";
    Line(Extra + 4) << "? *(" << Address(R) << ")\n";
    Line(Extra + 4) << ": sm90::from_f32<" << registerType(X.Element)
                    << ">(0.0f);\n";
  };
  if (Vector == 1) {
    Line(2) << "// " << Verb << " one register at a time\n";
    Line(2) << "#pragma unroll\n";
    Line(2) << "for (int r = 0; r < " << X.Registers << "; ++r)\n";
    Element(4, "r");
    Line() << "}\n";
    return;
  }
  auto VectorMove = [&](unsigned Extra) {
    if (Store)
      Line(Extra) << "sm90::store_vector<" << Vector << ">(" << Address("r")
                  << ", " << Reg << " + r);\n";
    else
      Line(Extra) << "sm90::load_vector<" << Vector << ">(" << Reg << " + r, "
                  << Address("r") << ");\n";
  };
  // The run of Vector registers lies along the tensor's last dimension,
  // its unit-stride one: a vector where it is inside and aligned.
  const std::size_t Unit = Rank - 1;
  if (WholeTiles) {
    // Aligned, and the last extent a multiple of the vector: each run is
    // inside or past the end as a whole.
    const std::string RunInside = Index(Unit, "r") + " + " +
                                  std::to_string(Vector) + " <= " + T +
                                  "_extent" + std::to_string(Unit);
    Line(2) << "// " << Verb << " " << Vector
            << " registers at a time, the runs past the tensor's end "
            << (Store ? "left out" : "zeros") << "\n";
    Line(2) << "#pragma unroll\n";
    Line(2) << "for (int r = 0; r < " << X.Registers << "; r += " << Vector
            << ")\n";
    if (Store) {
      Line(4) << "if (" << RunInside << ")\n";
      VectorMove(6);
    } else {
      Line(4) << "sm90::load_vector_if<" << Vector << ">(" << Reg << " + r, "
              << Address("r") << ", " << RunInside << ");\n";
    }
    Line() << "}\n";
    return;
  }
  std::vector<std::string> Origin;
  for (std::size_t D = 0; D < Rank; ++D)
    Origin.push_back("o" + std::to_string(D));
  Line(2) << "// " << Verb << " " << Vector << " registers at a time where "
          << "the run is inside the tensor and aligned\n";
  Line(2) << "const bool aligned = "
          << alignedCondition(G, Origin, Vector, X.Element) << ";\n";
  // Where all of the thread's registers lie inside the tensor (the usual
  // case: every tile but those at an edge), vectors only. Without this
  // path ptxas keeps the element-by-element fallback's registers live
  // beside the vectors' (LayerNorm's whole-row kernel: 221 registers
  // against 128).
  std::vector<std::string> Whole;
  const std::string Owner = tileName(coordOwner(Tile));
  for (std::size_t D = 0; D < Rank; ++D) {
    const std::vector<std::int64_t> &Regs = X.RegisterCoord[G.Dims[D]];
    const auto [Low, High] = std::minmax_element(Regs.begin(), Regs.end());
    const std::string Thread =
        "o" + std::to_string(D) + " + " + Owner + "_c" + std::to_string(G.Dims[D]);
    auto Plus = [](std::int64_t V) {
      return V ? " + " + std::to_string(V) : std::string();
    };
    Whole.push_back(Thread + Plus(*Low) + " >= 0");
    Whole.push_back(Thread + Plus(*High) + " < " + T + "_extent" +
                    std::to_string(D));
  }
  Line(2) << "// all of the thread's registers inside: vectors only\n";
  Line(2) << "if (aligned && " << llvm::join(Whole, " && ") << ") {\n";
  Line(4) << "#pragma unroll\n";
  Line(4) << "for (int r = 0; r < " << X.Registers << "; r += " << Vector
          << ")\n";
  VectorMove(6);
  Line(2) << "} else {\n";
  Line(4) << "#pragma unroll\n";
  Line(4) << "for (int r = 0; r < " << X.Registers << "; r += " << Vector
          << ") {\n";
  Line(6) << "if (aligned && " << Inside("r", Vector, Unit) << ")\n";
  VectorMove(8);
  Line(6) << "else\n";
  Line(8) << "#pragma unroll\n";
  Line(8) << "for (int v = r; v < r + " << Vector << "; ++v)\n";
  Element(10, "v");
  Line(4) << "}\n";
  Line(2) << "}\n";
  Line() << "}\n";
}

std::string KernelEmitter::alignedCondition(const EpilogueLoad &G,
                                            llvm::ArrayRef<std::string> Origin,
                                            std::int64_t Vector,
                                            DType Element) const {
  const std::string T = identifier(G.Tensor);
  const std::size_t Unit = G.Dims.size() - 1;
  std::string C = T + "_stride" + std::to_string(Unit) + " == 1";
  for (std::size_t D = 0; D < G.Dims.size(); ++D)
    if (D != Unit)
      C += " && " + T + "_stride" + std::to_string(D) + " % " +
           std::to_string(Vector) + " == 0";
  // A literal origin is checked here.
  std::int64_t Literal = 0;
  if (llvm::StringRef(Origin[Unit]).getAsInteger(10, Literal))
    C += " && " + parenthesized(Origin[Unit]) + " % " +
         std::to_string(Vector) + " == 0";
  else if (Literal % Vector != 0)
    C += " && false";
  return C + " && sm90::aligned<" + std::to_string(Vector * bytes(Element)) +
         ">(" + T + "_data)";
}

std::vector<std::string>
KernelEmitter::wholeTilesCondition(const std::vector<InstId> &Body,
                                   std::size_t From) const {
  std::vector<std::string> Terms;
  auto Add = [&](unsigned Tile, const EpilogueLoad &G, std::int64_t Vector) {
    const RegisterTile &X = K.Tiles[Tile];
    const std::string T = identifier(G.Tensor);
    std::vector<std::string> Origin;
    for (std::size_t D = 0; D < G.Dims.size(); ++D) {
      Origin.push_back(expr(G.Origin[D]));
      const auto [Min, Max] = tileSpan(X, G.Dims[D]);
      const std::string Extent = T + "_extent" + std::to_string(D);
      // Vector runs along the last dimension may pass its end (each as a
      // whole: the extent a multiple of the vector).
      const bool Runs = Vector > 1 && D + 1 == G.Dims.size();
      const std::string Upper =
          Runs ? Extent + " % " + std::to_string(Vector) + " == 0" : "";
      std::int64_t Literal = 0;
      if (llvm::StringRef(Origin[D]).getAsInteger(10, Literal)) {
        Terms.push_back(plus(Origin[D], Min) + " >= 0");
        Terms.push_back(Runs ? Upper : plus(Origin[D], Max) + " < " + Extent);
        continue;
      }
      // A literal origin: its lower bound is checked here.
      if (Literal + Min < 0)
        Terms.push_back("false");
      Terms.push_back(Runs ? Upper
                           : std::to_string(Literal + Max) + " < " + Extent);
    }
    if (Vector > 1)
      Terms.push_back(alignedCondition(G, Origin, Vector, X.Element));
  };
  for (std::size_t At = From; At < Body.size(); ++At) {
    const Stmt &S = K.Insts[Body[At]];
    if (const auto *I = S.getIf<RegisterLoadStmt>())
      Add(I->Dst, I->Src, I->Vector);
    else if (const auto *I = S.getIf<RegisterStoreStmt>())
      Add(I->Src, I->Dst, I->Vector);
  }
  // One term per distinct check, in first-use order.
  std::vector<std::string> Distinct;
  for (std::string &Term : Terms)
    if (llvm::find(Distinct, Term) == Distinct.end())
      Distinct.push_back(std::move(Term));
  return Distinct;
}

std::optional<std::size_t>
KernelEmitter::wholeTilesSplit(const std::vector<InstId> &Body) const {
  if (WholeTiles)
    return std::nullopt;
  std::size_t Split = 0;
  while (Split < Body.size() && K.Insts[Body[Split]].is<LetStmt>())
    ++Split;
  bool Accesses = false, Stored = false;
  for (std::size_t At = Split; At < Body.size(); ++At) {
    const Stmt &S = K.Insts[Body[At]];
    // A load after a store (the fused residual kernels store the sum,
    // then load the weight) stays one checked copy: written twice, ptxas
    // spilled 136 bytes in the whole copy too (residual_rmsnorm_cta at
    // 8192 columns, none in one copy), and it lost a third of its speed.
    if (S.is<LetStmt>() || (Stored && S.is<RegisterLoadStmt>()))
      return std::nullopt;
    Stored |= S.is<RegisterStoreStmt>();
    Accesses |= S.is<RegisterLoadStmt>() || Stored;
  }
  if (!Accesses)
    return std::nullopt;
  return Split;
}

std::string KernelEmitter::scalarValue(const ScalarExpr &E) const {
  using Kind = ScalarExpr::Kind;
  switch (E.What) {
  case Kind::Constant: return floatLiteral(E.Value);
  case Kind::Parameter: return identifier(E.Parameter);
  case Kind::Index: return "static_cast<float>(" + expr(E.Index) + ")";
  case Kind::Neg: return "(-" + scalarValue(E.Args[0]) + ")";
  default: break;
  }
  const char *Op = E.What == Kind::Add   ? " + "
                   : E.What == Kind::Sub ? " - "
                   : E.What == Kind::Mul ? " * "
                                         : " / ";
  return "(" + scalarValue(E.Args[0]) + Op + scalarValue(E.Args[1]) + ")";
}

void KernelEmitter::registerMath(const RegisterMathStmt &I, unsigned Indent) {
  std::vector<std::string> A;
  for (const RegisterOperand &O : I.Operands) {
    switch (O.What) {
    case RegisterOperand::Kind::Tile:
      A.push_back("sm90::to_f32(" + tileName(O.Tile) + "[" +
                  (O.Map.empty() ? "r" : registerMap(O.Map) + "[r]") + "])");
      break;
    case RegisterOperand::Kind::Scalar:
      A.push_back(scalarValue(O.Scalar));
      break;
    case RegisterOperand::Kind::InBounds: {
      std::vector<std::string> Terms;
      const std::string T = identifier(O.Bounds.Tensor);
      for (std::size_t D = 0; D < O.Bounds.Dims.size(); ++D) {
        const std::string Index = expr(O.Bounds.Origin[D]) + " + " +
                                  tileIndex(I.Dst, O.Bounds.Dims[D], "r");
        Terms.push_back(Index + " < " + T + "_extent" + std::to_string(D));
      }
      A.push_back("(" + llvm::join(Terms, " && ") + ")");
      break;
    }
    }
  }
  std::string V;
  switch (I.Op) {
  case RegisterOp::Cast: V = A[0]; break;
  case RegisterOp::Add: V = A[0] + " + " + A[1]; break;
  case RegisterOp::Sub: V = A[0] + " - " + A[1]; break;
  case RegisterOp::Mul: V = A[0] + " * " + A[1]; break;
  case RegisterOp::Div: V = A[0] + " / " + A[1]; break;
  case RegisterOp::Max: V = "fmaxf(" + A[0] + ", " + A[1] + ")"; break;
  case RegisterOp::Min: V = "fminf(" + A[0] + ", " + A[1] + ")"; break;
  case RegisterOp::Neg: V = "-" + A[0]; break;
  case RegisterOp::Exp: V = "expf(" + A[0] + ")"; break;
  case RegisterOp::Exp2: V = "exp2f(" + A[0] + ")"; break;
  case RegisterOp::Rsqrt: V = "rsqrtf(" + A[0] + ")"; break;
  case RegisterOp::Relu: V = "fmaxf(" + A[0] + ", 0.0f)"; break;
  case RegisterOp::GeluTanh: V = "gelu_tanh(" + A[0] + ")"; break;
  case RegisterOp::GeluErf: V = "gelu_erf(" + A[0] + ")"; break;
  case RegisterOp::Silu: V = "silu(" + A[0] + ")"; break;
  case RegisterOp::Select: V = A[0] + " ? " + A[1] + " : " + A[2]; break;
  }
  const RegisterTile &Dst = K.Tiles[I.Dst];
  OS.indent(Indent) << "#pragma unroll\n";
  OS.indent(Indent) << "for (int r = 0; r < " << Dst.Registers << "; ++r)\n";
  OS.indent(Indent + 2) << tileName(I.Dst) << "[r] = sm90::from_f32<"
                        << registerType(Dst.Element) << ">(" << V << ");\n";
}

void KernelEmitter::registerReduce(const RegisterReduceStmt &I,
                                   unsigned Indent) {
  const std::string Dst = tileName(I.Dst), Src = tileName(I.Src);
  const bool Sum = I.Op == RegisterOp::Add;
  auto Fold = [&](const std::string &A, const std::string &B) {
    return Sum ? A + " + " + B : "fmaxf(" + A + ", " + B + ")";
  };
  auto Line = [&](unsigned Extra = 0) -> llvm::raw_ostream & {
    return OS.indent(Indent + Extra);
  };
  Line() << "// " << (Sum ? "sum" : "maximum")
         << ": each thread folds its registers, then the lanes that share an "
            "element exchange partials\n";
  Line() << "#pragma unroll\n";
  Line() << "for (int i = 0; i < " << K.Tiles[I.Dst].Registers << "; ++i)\n";
  Line(2) << Dst << "[i] = " << (Sum ? "0.0f" : "-INFINITY") << ";\n";
  Line() << "#pragma unroll\n";
  Line() << "for (int r = 0; r < " << K.Tiles[I.Src].Registers << "; ++r)\n";
  Line(2) << Dst << "[" << registerMap(I.Into) << "[r]] = "
          << Fold(Dst + "[" + registerMap(I.Into) + "[r]]",
                  "sm90::to_f32(" + Src + "[r])")
          << ";\n";
  if (I.LaneMasks.empty())
    return;
  Line() << "#pragma unroll\n";
  Line() << "for (int i = 0; i < " << K.Tiles[I.Dst].Registers << "; ++i) {\n";
  for (std::int64_t Mask : I.LaneMasks)
    Line(2) << Dst << "[i] = "
            << Fold(Dst + "[i]", "__shfl_xor_sync(0xffffffffu, " + Dst +
                                     "[i], " + std::to_string(Mask) + ")")
            << ";\n";
  Line() << "}\n";
}

void KernelEmitter::declarePartials(RegionId Scratch,
                                    llvm::ArrayRef<ThreadTerm> Slot, bool Write,
                                    unsigned Indent) {
  const std::string Const = Write ? "" : "const ";
  OS.indent(Indent) << Const << "float *const partials = reinterpret_cast<"
                    << Const << "float *>(smem + "
                    << identifier(K.Regions[Scratch].Name) << "_offset);\n";
  std::vector<std::string> Terms;
  for (const ThreadTerm &X : Slot)
    Terms.push_back("thread / " + std::to_string(X.Divisor) + " % " +
                    std::to_string(X.Extent) + " * " + std::to_string(X.Scale));
  OS.indent(Indent) << "const int slot = "
                    << (Terms.empty() ? "0" : llvm::join(Terms, " + "))
                    << ";\n";
}

void KernelEmitter::registerShare(const RegisterShareStmt &I, unsigned Indent) {
  OS.indent(Indent) << "// the warps' partials into shared memory, one lane "
                       "of each group that shares them\n";
  OS.indent(Indent) << "if ((thread & " << I.Writers << ") == 0) {\n";
  declarePartials(I.Scratch, I.Slot, true, Indent + 2);
  OS.indent(Indent + 2) << "#pragma unroll\n";
  OS.indent(Indent + 2) << "for (int i = 0; i < " << K.Tiles[I.Src].Registers
                        << "; ++i)\n";
  OS.indent(Indent + 4) << "partials[i * " << I.Slots
                        << " + slot] = sm90::to_f32(" << tileName(I.Src)
                        << "[i]);\n";
  OS.indent(Indent) << "}\n";
}

void KernelEmitter::registerGather(const RegisterGatherStmt &I,
                                   unsigned Indent) {
  const bool Sum = I.Op == RegisterOp::Add;
  const std::string Offsets = registerMap(I.Offsets);
  const RegisterTile &Dst = K.Tiles[I.Dst];
  OS.indent(Indent) << "{ // each thread folds the partials of its "
                       "element's warps\n";
  declarePartials(I.Scratch, I.Slot, false, Indent + 2);
  OS.indent(Indent + 2) << "#pragma unroll\n";
  OS.indent(Indent + 2) << "for (int i = 0; i < " << Dst.Registers
                        << "; ++i) {\n";
  OS.indent(Indent + 4) << "float v = partials[i * " << I.Slots << " + slot + "
                        << Offsets << "[0]];\n";
  OS.indent(Indent + 4) << "#pragma unroll\n";
  OS.indent(Indent + 4) << "for (int j = 1; j < " << I.Offsets.size()
                        << "; ++j)\n";
  const std::string Partial =
      "partials[i * " + std::to_string(I.Slots) + " + slot + " + Offsets +
      "[j]]";
  OS.indent(Indent + 6) << "v = "
                        << (Sum ? "v + " + Partial
                                : "fmaxf(v, " + Partial + ")")
                        << ";\n";
  OS.indent(Indent + 4) << tileName(I.Dst) << "[i] = sm90::from_f32<"
                        << registerType(Dst.Element) << ">(v);\n";
  OS.indent(Indent + 2) << "}\n";
  OS.indent(Indent) << "}\n";
}

void KernelEmitter::registerStmt(const Stmt &S, unsigned Indent) {
  if (const auto *I = S.getIf<RegisterLoadStmt>())
    globalAccess(I->Dst, I->Src, I->Vector, false, Indent);
  else if (const auto *I = S.getIf<RegisterStoreStmt>())
    globalAccess(I->Src, I->Dst, I->Vector, true, Indent);
  else if (const auto *I = S.getIf<RegisterMathStmt>())
    registerMath(*I, Indent);
  else if (const auto *I = S.getIf<RegisterReduceStmt>())
    registerReduce(*I, Indent);
  else if (const auto *I = S.getIf<RegisterShareStmt>())
    registerShare(*I, Indent);
  else if (const auto *I = S.getIf<RegisterGatherStmt>())
    registerGather(*I, Indent);
}

} // namespace tf::backend::sm90
