//===- plugin/backend/cuda_sm90/CudaEmitter.cpp - CUDA for sm_90a --------===//
//
// See CudaEmitter.h. The emitter decides nothing the LIR does not say: each
// LIR instruction becomes one call into the runtime's sm90 library (or a
// short fixed sequence), each LIR expression the same expression in 32-bit
// `int` arithmetic (extents are checked to fit by the launcher), each
// structured statement the same C++ statement. What it adds is naming:
// `lhs_ring.full` becomes the `lhs_ring_full` array of Mbarrier objects at
// the constexpr offset `lhs_ring_full_offset`, tensor map N of parameter
// `a` the kernel parameter `a_map`. It refuses nothing a user can write:
// what it cannot write, the backend refuses earlier at the op concerned
// (backend/cuda_sm90/Forms.h), and a problem found here is an internal error.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/CudaEmitter.h"
#include "backend/cuda_sm90/AccumulatorStore.h"
#include "backend/cuda_sm90/Forms.h"

#include "lower/sm90/Sm90.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace tf::backend::sm90 {

using namespace lower;
using lower::sm90::SmemDescriptor;
namespace ext = lower::sm90;

namespace {

/// A C++ identifier for an LIR name: `lhs_ring.full` -> `lhs_ring_full`,
/// `gemm::gemm` -> `gemm_gemm`.
std::string identifier(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name) {
    const bool Keep = llvm::isAlnum(C) || C == '_';
    if (Keep)
      Out += C;
    else if (!Out.empty() && Out.back() != '_')
      Out += '_';
  }
  while (!Out.empty() && Out.back() == '_')
    Out.pop_back();
  if (Out.empty() || llvm::isDigit(Out.front()))
    Out.insert(0, "_");
  return Out;
}

const char *smemSwizzle(SwizzleMode M) {
  switch (M) {
  case SwizzleMode::none:
    return "sm90::SmemSwizzle::none";
  case SwizzleMode::bytes32:
    return "sm90::SmemSwizzle::bytes32";
  case SwizzleMode::bytes64:
    return "sm90::SmemSwizzle::bytes64";
  case SwizzleMode::bytes128:
    return "sm90::SmemSwizzle::bytes128";
  }
  return "?";
}

const char *tmaSwizzle(SwizzleMode M) {
  switch (M) {
  case SwizzleMode::none:
    return "tf::runtime::TmaSwizzle::none";
  case SwizzleMode::bytes32:
    return "tf::runtime::TmaSwizzle::bytes32";
  case SwizzleMode::bytes64:
    return "tf::runtime::TmaSwizzle::bytes64";
  case SwizzleMode::bytes128:
    return "tf::runtime::TmaSwizzle::bytes128";
  }
  return "?";
}

std::string dtypeEnum(DType T) { return "tf::DType::" + std::string(name(T)); }

std::string position(const hir::SourceRange &R) {
  if (R.File.empty())
    return "<unknown>";
  return R.File + ":" + std::to_string(R.Line) + ":" + std::to_string(R.Column);
}

/// Expression \p X (an f32) after elementwise op \p F.
std::string applyOp(const FragmentOp &F, const std::string &X) {
  switch (F.Op) {
  case ElementwiseOp::Relu:
    return "fmaxf(" + X + ", 0.0f)";
  case ElementwiseOp::Neg:
    return "-(" + X + ")";
  case ElementwiseOp::Exp:
    return "expf(" + X + ")";
  case ElementwiseOp::Cast:
    switch (F.To) {
    case DType::bf16:
      return "__bfloat162float(__float2bfloat16_rn(" + X + "))";
    case DType::f16:
      return "__half2float(__float2half_rn(" + X + "))";
    default:
      return X;
    }
  }
  return X;
}

/// One kernel's device function and launcher.
class KernelEmitter {
public:
  KernelEmitter(const Kernel &K, const CudaOptions &Opts, llvm::raw_ostream &OS)
      : K(K), Opts(Opts), OS(OS), Id(identifier(K.Name)) {}

  llvm::Error run();

private:
  // Analysis before writing anything.
  llvm::Error collect();
  void collectUses(const std::vector<InstId> &Body, InstId Role,
                   llvm::Error &Err);
  std::set<std::string> usedVariables(const std::vector<InstId> &Body) const;
  llvm::Expected<std::pair<std::int64_t, std::int64_t>>
  groupStrides(llvm::ArrayRef<InstId> Run) const;
  /// Whether statement \p Id is a WGMMA atom call.
  bool isWgmma(InstId Id) const { return as<ext::Wgmma>(K.Insts[Id]); }

  // Pieces of the file.
  void constants();
  void deviceFunction();
  void launcher();
  void registrar();

  // Statements.
  void body(const std::vector<InstId> &Body, unsigned Indent);
  void stmt(InstId Id, unsigned Indent);
  void extension(const Stmt &S, const ext::Inst &I, unsigned Indent);
  void role(InstId Id, unsigned Indent);
  void wgmmaRun(const std::vector<InstId> &Body, std::size_t &At,
                unsigned Indent);
  void storeFragment(InstId Id, unsigned Indent);
  void origin(const Stmt &S, unsigned Indent);

  // Names and expressions.
  std::string expr(ExprId E) const;
  std::string barrier(BarrierId Bar, ExprId Slot) const {
    return identifier(K.Barriers[Bar].Name) + "[" + expr(Slot) + "]";
  }
  std::string stageAddress(hir::ValueId Ring, ExprId Slot) const;
  std::string viewAddress(const OperandView &V) const;
  std::string mapName(unsigned Map) const { return MapNames[Map]; }
  std::string accName(hir::ValueId Acc) const {
    return Accumulators.size() == 1 ? "acc" : "acc_" + std::to_string(Acc);
  }
  std::string descName(hir::ValueId Ring, const SmemDescriptor &D) const;
  const Region &firstStage(hir::ValueId Ring) const;

  /// A broken invariant: the backend's supports test and lowering rules
  /// (backend/cuda_sm90) refuse, at their ops, what the emitter cannot
  /// write, so each problem found here is a bug in tf.
  llvm::Error problem(const hir::SourceRange &R, const llvm::Twine &What) {
    return problemAt(R, "kernel " + K.Name + ": the CUDA backend " + What);
  }

  const Kernel &K;
  const CudaOptions &Opts;
  llvm::raw_ostream &OS;
  const std::string Id;

  std::vector<std::string> MapNames;
  /// The run-time extents the device code reads: (parameter index, dim).
  std::set<std::pair<unsigned, unsigned>> Extents;
  /// Ring value -> bytes between stages.
  std::map<hir::ValueId, std::int64_t> StageBytes;
  /// Accumulator value -> (N, blocks per issuing warpgroup, warpgroups).
  struct AccInfo {
    std::int64_t N = 0, Blocks = 0, Groups = 0;
  };
  std::map<hir::ValueId, AccInfo> Accumulators;
  /// Distinct descriptor templates (start 0) per ring, in first-use order.
  std::map<hir::ValueId, std::vector<SmemDescriptor>> Descriptors;
  /// StoreFragment instruction -> its address decomposition.
  std::map<InstId, AccumulatorStore> Stores;
  /// The roles whose bodies issue per-warpgroup work (WGMMA, fragment
  /// stores) and so need the thread's coordinates.
  std::set<InstId> RoleNeedsGroups;
  /// The spatial axis' name per role (`group`).
  std::map<InstId, std::string> RoleAxis;
  /// Per run of WGMMA instructions (by its first): the bytes by which warpgroup
  /// g's A and B operands start after warpgroup 0's, divided by g.
  std::map<InstId, std::pair<std::int64_t, std::int64_t>> GroupStrides;
  /// The source line of the last origin comment written.
  unsigned LastLine = 0;
  /// The variables the statements being written read: a let nobody reads
  /// (the loader's tile coordinates in the compute role) is left out.
  std::set<std::string> Used;
  InstId CurrentRole = None;
  InstId TileLoop = None;
};

//===- Analysis
//------------------------------------------------------------===//

const Region &KernelEmitter::firstStage(hir::ValueId Ring) const {
  for (const Region &R : K.Regions)
    if (R.Kind == RegionKind::RingStage && R.Value == Ring)
      return R;
  llvm_unreachable("a ring without stages passed the verifier");
}

/// The issuing warpgroups of a WGMMA run execute one sequence: warpgroup
/// g's instructions are warpgroup 0's with the operand starts moved by g
/// times a fixed number of bytes (its M block of A, its N block of B). The
/// emitted code then has no branch around the WGMMAs, which ptxas would
/// otherwise serialise (warning C7520).
llvm::Expected<std::pair<std::int64_t, std::int64_t>>
KernelEmitter::groupStrides(llvm::ArrayRef<InstId> Run) const {
  std::map<std::int64_t, std::vector<InstId>> ByGroup;
  for (InstId Id : Run)
    ByGroup[as<ext::Wgmma>(K.Insts[Id])->AxisValue].push_back(Id);
  const std::vector<InstId> &First = ByGroup.begin()->second;
  std::pair<std::int64_t, std::int64_t> Strides{0, 0};
  for (const auto &[G, Insts] : ByGroup) {
    if (G == 0)
      continue;
    bool Same = Insts.size() == First.size();
    for (std::size_t J = 0; Same && J < Insts.size(); ++J) {
      const auto &A = *as<ext::Wgmma>(K.Insts[First[J]]),
                 &B = *as<ext::Wgmma>(K.Insts[Insts[J]]);
      const std::int64_t BlockA =
          K.Insts[First[J]].get<AtomCallStmt>().operand("C")->Block;
      const std::int64_t BlockB =
          K.Insts[Insts[J]].get<AtomCallStmt>().operand("C")->Block;
      const std::int64_t DA = (B.A.Start - A.A.Start) / G,
                         DB = (B.B.Start - A.B.Start) / G;
      if (G == 1 && J == 0)
        Strides = {DA, DB};
      SmemDescriptor AA = A.A, BA = B.A, AB = A.B, BB = B.B;
      AA.Start = BA.Start = AB.Start = BB.Start = 0;
      Same = A.Atom == B.Atom && BlockA == BlockB && A.KStep == B.KStep &&
             A.TransA == B.TransA && A.TransB == B.TransB && AA == BA &&
             AB == BB && B.A.Start - A.A.Start == G * Strides.first &&
             B.B.Start - A.B.Start == G * Strides.second;
    }
    if (!Same || ByGroup.begin()->first != 0)
      return problemAt(K.Insts[First.front()].Range,
                       "kernel " + K.Name +
                           ": the CUDA backend needs the warpgroups' WGMMA "
                           "sequences to differ only by a per-warpgroup "
                           "operand offset");
  }
  return Strides;
}

void KernelEmitter::collectUses(const std::vector<InstId> &Body, InstId Role,
                                llvm::Error &Err) {
  for (std::size_t At = 0; At < Body.size(); ++At) {
    const InstId Id = Body[At];
    const Stmt &S = K.Insts[Id];
    const auto *W = as<ext::Wgmma>(S);
    if (W && (At == 0 || !isWgmma(Body[At - 1]))) {
      std::size_t End = At;
      while (End < Body.size() && isWgmma(Body[End]))
        ++End;
      llvm::Expected<std::pair<std::int64_t, std::int64_t>> Strides =
          groupStrides(llvm::ArrayRef(Body).slice(At, End - At));
      if (Strides)
        GroupStrides[Id] = *Strides;
      else
        Err = llvm::joinErrors(std::move(Err), Strides.takeError());
    }
    if (S.is<RoleStmt>())
      Role = Id;
    if (S.is<TileLoopStmt>() && TileLoop == None)
      TileLoop = Id;
    if (W) {
      if (!wgmmaType(W->Atom.A) || !wgmmaType(W->Atom.B) ||
          W->Atom.D != WgmmaAccumulator) {
        Err = llvm::joinErrors(
            std::move(Err),
            problem(S.Range, "has no runtime wrapper for '" +
                                 ext::wgmmaOpcode(W->Atom) + "'"));
        continue;
      }
      const AtomCallStmt &Call = S.get<AtomCallStmt>();
      const OperandView &C = *Call.operand("C");
      AccInfo &A = Accumulators[C.Fragment];
      A.N = W->Atom.N;
      A.Blocks = std::max(A.Blocks, C.Block + 1);
      A.Groups = std::max(A.Groups, W->AxisValue + 1);
      RoleNeedsGroups.insert(Role);
      RoleAxis[Role] = W->Axis;
      for (auto [Ring, D] : {std::pair{Call.operand("A")->Ring, W->A},
                             std::pair{Call.operand("B")->Ring, W->B}}) {
        D.Start = 0;
        std::vector<SmemDescriptor> &List = Descriptors[Ring];
        if (!llvm::is_contained(List, D))
          List.push_back(D);
      }
    }
    if (S.is<StoreFragmentStmt>())
      RoleNeedsGroups.insert(Role);
    collectUses(S.Body, Role, Err);
  }
}

llvm::Error KernelEmitter::collect() {
  // Tensor maps: `<param>_map`, numbered when one parameter has several.
  for (const TensorMap &M : K.Maps) {
    const auto Same = llvm::count_if(
        K.Maps, [&](const TensorMap &O) { return O.Tensor == M.Tensor; });
    std::string Name = identifier(M.Tensor) + "_map";
    if (Same > 1)
      Name += std::to_string(MapNames.size());
    MapNames.push_back(Name);
  }
  for (const Expr &E : K.Exprs)
    if (E.Kind == ExprKind::Extent) {
      auto It = llvm::find_if(
          K.Parameters, [&](const Parameter &P) { return P.Name == E.Name; });
      if (It == K.Parameters.end())
        return problem(K.Range, "found the extent of '" + E.Name +
                                    "', which is no parameter");
      Extents.insert({unsigned(It - K.Parameters.begin()), E.Dim});
    }
  // Ring stages must be evenly spaced: the slot's address is then one
  // multiply-add of the clock's slot.
  for (const Region &R : K.Regions) {
    if (R.Kind != RegionKind::RingStage)
      continue;
    const Region &First = firstStage(R.Value);
    if (R.Stage == 1)
      StageBytes[R.Value] = R.Offset - First.Offset;
    else if (R.Stage > 1 &&
             R.Offset != First.Offset + R.Stage * StageBytes[R.Value])
      return problem(K.Range, "needs evenly spaced ring stages; '" + R.Name +
                                  "' is not");
    else if (R.Stage == 0)
      StageBytes.try_emplace(R.Value, R.Bytes);
  }
  llvm::Error Err = llvm::Error::success();
  collectUses(K.Body, None, Err);
  if (Err)
    return Err;
  for (const auto &[Acc, A] : Accumulators)
    if (A.Blocks != 1)
      return problem(K.Range, "emits one accumulator block per warpgroup; "
                              "this kernel has " +
                                  llvm::Twine(A.Blocks));
  for (const Stmt &St : K.Insts)
    if (const auto *Store = St.getIf<StoreFragmentStmt>()) {
      const StoreFragmentStmt &I = *Store;
      auto A = Accumulators.find(I.Acc);
      if (A == Accumulators.end())
        return problem(St.Range, "stores an accumulator no WGMMA computes");
      llvm::Expected<AccumulatorStore> S =
          accumulatorStore(K.Regions[I.View], A->second.N, A->second.Groups);
      if (!S)
        return problem(St.Range, llvm::toString(S.takeError()));
      if (!pairConversion(K.Regions[I.View].Element))
        return problem(St.Range,
                       "cannot convert f32 to " +
                           llvm::Twine(name(K.Regions[I.View].Element)));
      for (const FragmentOp &F : I.Epilogue)
        if (F.Op == ElementwiseOp::Cast && !pairConversion(F.To))
          return problem(St.Range, "cannot round f32 to " +
                                      llvm::Twine(name(F.To)) +
                                      " in an epilogue");
      Stores.emplace(InstId(&St - K.Insts.data()), *S);
    }
  return llvm::Error::success();
}

std::set<std::string>
KernelEmitter::usedVariables(const std::vector<InstId> &Body) const {
  std::vector<InstId> Order;
  std::function<void(const std::vector<InstId> &)> Flatten =
      [&](const std::vector<InstId> &B) {
        for (InstId Id : B) {
          Order.push_back(Id);
          Flatten(K.Insts[Id].Body);
        }
      };
  Flatten(Body);
  std::set<std::string> Vars;
  std::function<void(ExprId)> Read = [&](ExprId E) {
    if (E == None)
      return;
    const Expr &X = K.Exprs[E];
    if (X.Kind == ExprKind::Var)
      Vars.insert(X.Name);
    Read(X.Lhs);
    Read(X.Rhs);
  };
  // Lets last to first: a let is read if a later statement reads it.
  for (InstId Id : llvm::reverse(Order)) {
    const Stmt &S = K.Insts[Id];
    if (const auto *L = S.getIf<LetStmt>()) {
      if (Vars.count(L->Var))
        Read(L->Value);
      continue;
    }
    if (const auto *L = S.getIf<TileLoopStmt>())
      for (ExprId E : {L->Start, L->Bound, L->Stride})
        Read(E);
    if (const auto *L = S.getIf<KLoopStmt>())
      for (ExprId E : {L->Start, L->Bound})
        Read(E);
    if (const auto *Call = S.getIf<AtomCallStmt>())
      for (const OperandView &O : Call->Operands) {
        Read(O.Slot);
        for (ExprId E : O.Coords)
          Read(E);
      }
    if (const auto *U = as<ext::BarrierUse>(S))
      Read(U->Slot);
    if (const auto *W = as<ext::Wait>(S))
      Read(W->Phase);
    if (const auto *T = as<ext::Tma>(S))
      Read(T->Slot);
  }
  return Vars;
}

//===- Names and expressions
//-----------------------------------------------===//

int precedence(ExprKind K) {
  switch (K) {
  case ExprKind::Xor:
    return 1;
  case ExprKind::And:
    return 2;
  case ExprKind::Add:
  case ExprKind::Sub:
    return 3;
  case ExprKind::Mul:
  case ExprKind::Div:
  case ExprKind::Mod:
    return 4;
  default:
    return 5;
  }
}

std::string KernelEmitter::expr(ExprId E) const {
  const Expr &X = K.Exprs[E];
  switch (X.Kind) {
  case ExprKind::Constant:
    return std::to_string(X.Value);
  case ExprKind::Var:
    return identifier(X.Name);
  case ExprKind::Extent:
    return identifier(X.Name) + "_extent" + std::to_string(X.Dim);
  case ExprKind::CeilDiv:
    return "ceil_div(" + expr(X.Lhs) + ", " + expr(X.Rhs) + ")";
  case ExprKind::Min:
    return "imin(" + expr(X.Lhs) + ", " + expr(X.Rhs) + ")";
  case ExprKind::Max:
    return "imax(" + expr(X.Lhs) + ", " + expr(X.Rhs) + ")";
  default:
    break;
  }
  static const std::map<ExprKind, const char *> Infix = {
      {ExprKind::Add, " + "}, {ExprKind::Sub, " - "}, {ExprKind::Mul, " * "},
      {ExprKind::Div, " / "}, {ExprKind::Mod, " % "}, {ExprKind::And, " & "},
      {ExprKind::Xor, " ^ "}};
  const int P = precedence(X.Kind);
  auto Side = [&](ExprId C, bool Right) {
    const ExprKind CK = K.Exprs[C].Kind;
    const bool Bits = X.Kind == ExprKind::And || X.Kind == ExprKind::Xor;
    const bool Paren = (Bits && Infix.count(CK)) || precedence(CK) < P ||
                       (Right && precedence(CK) == P &&
                        !(X.Kind == ExprKind::Add ||
                          (X.Kind == ExprKind::Mul && CK == ExprKind::Mul)));
    return Paren ? "(" + expr(C) + ")" : expr(C);
  };
  return Side(X.Lhs, false) + Infix.at(X.Kind) + Side(X.Rhs, true);
}

std::string KernelEmitter::stageAddress(hir::ValueId Ring, ExprId Slot) const {
  const Region &First = firstStage(Ring);
  const std::string Base =
      identifier(First.Name.substr(0, First.Name.rfind('[')));
  return "smem + " + Base + "_offset + (" + expr(Slot) + ") * " + Base +
         "_stage_bytes";
}

std::string KernelEmitter::viewAddress(const OperandView &V) const {
  std::string Address =
      V.Ring != hir::None
          ? stageAddress(V.Ring, V.Slot)
          : "smem + " + identifier(K.Regions[V.View].Name) + "_offset";
  if (V.Offset)
    Address += " + " + std::to_string(V.Offset);
  return Address;
}

std::string KernelEmitter::descName(hir::ValueId Ring,
                                    const SmemDescriptor &D) const {
  const Region &First = firstStage(Ring);
  std::string Name =
      identifier(First.Name.substr(0, First.Name.rfind('['))) + "_desc";
  const std::vector<SmemDescriptor> &List = Descriptors.at(Ring);
  if (List.size() > 1) {
    SmemDescriptor Template = D;
    Template.Start = 0;
    Name += std::to_string(llvm::find(List, Template) - List.begin());
  }
  return Name;
}

//===- The file's pieces
//---------------------------------------------------===//

void KernelEmitter::constants() {
  OS << "// Launch shape: " << K.BlockThreads << " threads";
  if (K.Persistent)
    OS << ", at most " << expr(K.Grid) << " persistent CTAs";
  OS << ".\n";
  OS << "constexpr int block_threads = " << K.BlockThreads << ";\n";
  OS << "// The shared-memory map (`tf finalize`): byte offsets from the "
        "dynamic\n// shared memory's base, which is "
     << K.SharedAlign << "-byte aligned.\n";
  OS << "constexpr std::uint32_t shared_bytes = " << K.SharedBytes << ";\n";
  OS << "constexpr std::uint32_t shared_align = " << K.SharedAlign << ";\n";
  for (const Region &R : K.Regions) {
    if (R.Kind == RegionKind::RingStage && R.Stage != 0)
      continue;
    if (R.Kind == RegionKind::Barrier) {
      // One line per barrier array, at its first object.
      for (const Barrier &B : K.Barriers)
        if (B.Regions.front() == RegionId(&R - K.Regions.data())) {
          OS << "constexpr std::uint32_t " << identifier(B.Name)
             << "_offset = " << R.Offset << "; // " << B.Count
             << " mbarrier(s), " << B.Arrivals << " arrival(s)";
          if (B.TxBytes)
            OS << " + " << B.TxBytes << " transaction bytes";
          OS << " per phase\n";
        }
      continue;
    }
    const bool Ring = R.Kind == RegionKind::RingStage;
    const std::string Name =
        identifier(Ring ? R.Name.substr(0, R.Name.rfind('[')) : R.Name);
    OS << "// " << Name << ": " << R.Layout << ", "
       << llvm::join(
              llvm::map_range(R.Shape,
                              [](std::int64_t S) { return std::to_string(S); }),
              " x ")
       << " " << name(R.Element) << "\n";
    OS << "constexpr std::uint32_t " << Name << "_offset = " << R.Offset
       << ";\n";
    if (Ring)
      OS << "constexpr std::uint32_t " << Name
         << "_stage_bytes = " << StageBytes.at(R.Value) << ";\n";
  }
  for (const auto &[Ring, List] : Descriptors)
    for (const SmemDescriptor &D : List) {
      OS << "// WGMMA descriptor of a "
         << firstStage(Ring).Name.substr(0, firstStage(Ring).Name.rfind('['))
         << " operand; the start (the operand's shared address) is added "
            "per use.\n";
      OS << "__device__ constexpr sm90::SmemDescriptor " << descName(Ring, D)
         << " = sm90::SmemDescriptor::make(\n    0, "
         << (D.LeadingUsed ? std::to_string(D.LeadingBytes)
                           : "16 /* LBO unused by this layout */")
         << ", " << D.StrideBytes << ", " << smemSwizzle(D.Swizzle) << ", "
         << D.BaseOffset << ");\n";
    }
  for (const auto &[Id, S] : Stores) {
    const auto &I = K.Insts[Id].get<StoreFragmentStmt>();
    OS << "// Pre-swizzle byte offsets of accumulator register pairs "
          "(2p, 2p + 1) in\n// "
       << K.Regions[I.View].Name
       << ", added to each thread's base (PTX's wgmma D fragment).\n";
    OS << "__device__ constexpr std::uint32_t "
       << identifier(K.Regions[I.View].Name) << "_pairs[" << S.PairBytes.size()
       << "] = {";
    for (std::size_t P = 0; P < S.PairBytes.size(); ++P)
      OS << (P % 8 ? " " : "\n    ") << S.PairBytes[P] << ",";
    OS << "\n};\n";
  }
  OS << "\n";
}

void KernelEmitter::deviceFunction() {
  OS << "// " << K.Name << " at " << position(K.Range) << ", lowered for "
     << K.Target << ".\n";
  OS << "__global__ void __launch_bounds__(block_threads, 1)\n" << Id << "(";
  std::vector<std::string> Params;
  for (std::size_t M = 0; M < K.Maps.size(); ++M)
    Params.push_back("const __grid_constant__ CUtensorMap " + MapNames[M]);
  for (auto [P, Dim] : Extents)
    Params.push_back("int " + identifier(K.Parameters[P].Name) + "_extent" +
                     std::to_string(Dim));
  for (const Parameter &P : K.Parameters)
    if (P.What == Parameter::Kind::Integer)
      Params.push_back("int " + identifier(P.Name));
  OS << llvm::join(Params, ",\n" + std::string(Id.size() + 1, ' ')) << ") {\n";
  OS << "  extern __shared__ __align__(shared_align) std::uint8_t smem[];\n";
  Used = usedVariables(K.Body);
  OS << "  const int cta_x = blockIdx.x;\n";
  for (const Barrier &B : K.Barriers)
    OS << "  sm90::Mbarrier *const " << identifier(B.Name)
       << " = reinterpret_cast<sm90::Mbarrier *>(smem + " << identifier(B.Name)
       << "_offset);\n";
  body(K.Body, 2);
  OS << "}\n\n";
}

void KernelEmitter::origin(const Stmt &S, unsigned Indent) {
  if (S.Range.valid() || !S.Range.File.empty())
    OS.indent(Indent) << "// " << position(S.Range) << "\n";
}

void KernelEmitter::body(const std::vector<InstId> &Body, unsigned Indent) {
  for (std::size_t At = 0; At < Body.size(); ++At) {
    const Stmt &S = K.Insts[Body[At]];
    // A comment naming the source line each group of statements comes from.
    if (S.Range.Line && S.Range.Line != LastLine && !S.is<RoleStmt>()) {
      LastLine = S.Range.Line;
      origin(S, Indent);
    }
    if (isWgmma(Body[At])) {
      wgmmaRun(Body, At, Indent);
      continue;
    }
    stmt(Body[At], Indent);
  }
}

void KernelEmitter::role(InstId Id, unsigned Indent) {
  const std::vector<InstId> &Body = K.Insts[Id].Body;
  const RoleStmt &I = K.Insts[Id].get<RoleStmt>();
  OS.indent(Indent) << "// " << I.Name;
  if (!I.Mesh.empty())
    OS << " = " << I.Mesh;
  OS << "\n";
  OS.indent(Indent);
  if (I.End - I.Begin == 1)
    OS << "if (threadIdx.x == " << I.Begin << ") {\n";
  else
    OS << "if (threadIdx.x >= " << I.Begin << " && threadIdx.x < " << I.End
       << ") {\n";
  if (RoleNeedsGroups.count(Id)) {
    // The thread's coordinates in its warpgroup (PTX's wgmma fragments).
    const std::string Axis =
        RoleAxis.count(Id) ? identifier(RoleAxis.at(Id)) : "group";
    OS.indent(Indent + 2) << "const int " << Axis << " = (threadIdx.x - "
                          << I.Begin << ") / 128;\n";
    OS.indent(Indent + 2) << "const int warp = threadIdx.x / 32 % 4, lane8 = "
                             "threadIdx.x % 32 / 4, lane4 = threadIdx.x % 4;\n";
  }
  const InstId Saved = CurrentRole;
  std::set<std::string> SavedUsed = std::exchange(Used, usedVariables(Body));
  CurrentRole = Id;
  body(Body, Indent + 2);
  CurrentRole = Saved;
  Used = std::move(SavedUsed);
  OS.indent(Indent) << "}\n";
}

/// A run of Wgmma instructions (one HIR mma site's unrolled sequence): the
/// operands' shared addresses once, moved to the issuing warpgroup's blocks,
/// then warpgroup 0's instructions with compile-time descriptor fields and
/// start offsets.
void KernelEmitter::wgmmaRun(const std::vector<InstId> &Body, std::size_t &At,
                             unsigned Indent) {
  std::size_t End = At;
  while (End < Body.size() && isWgmma(Body[End]))
    ++End;
  const auto &First = *as<ext::Wgmma>(K.Insts[Body[At]]);
  const AtomCallStmt &FirstCall = K.Insts[Body[At]].get<AtomCallStmt>();
  const auto [StrideA, StrideB] = GroupStrides.at(Body[At]);
  const std::string Axis =
      identifier(First.Axis.empty() ? "group" : First.Axis);
  auto Slot = [&](const char *Name, hir::ValueId Ring, ExprId SlotE,
                  std::int64_t Stride) {
    OS.indent(Indent + 2) << "const std::uint32_t " << Name
                          << " = sm90::smem_address("
                          << stageAddress(Ring, SlotE) << ")";
    if (Stride)
      OS << " + " << Axis << " * " << Stride;
    OS << ";\n";
  };
  OS.indent(Indent) << "{\n";
  if (StrideA || StrideB)
    OS.indent(Indent + 2) << "// The operands of this warpgroup's block.\n";
  const OperandView &FirstA = *FirstCall.operand("A"),
                    &FirstB = *FirstCall.operand("B");
  Slot("a_slot", FirstA.Ring, FirstA.Slot, StrideA);
  Slot("b_slot", FirstB.Ring, FirstB.Slot, StrideB);
  for (std::size_t I = At; I < End; ++I) {
    const auto &W = *as<ext::Wgmma>(K.Insts[Body[I]]);
    const AtomCallStmt &Call = K.Insts[Body[I]].get<AtomCallStmt>();
    if (W.AxisValue != 0)
      continue;
    const OperandView &C = *Call.operand("C");
    OS.indent(Indent + 2) << "wgmma::mma<" << W.Atom.N << ", "
                          << wgmmaType(W.Atom.A) << ", "
                          << wgmmaType(W.Atom.B)
                          << ", wgmma::Major::" << (W.TransA ? "mn" : "k")
                          << ", wgmma::Major::" << (W.TransB ? "mn" : "k")
                          << ">( // k-step " << W.KStep << "\n";
    OS.indent(Indent + 6) << accName(C.Fragment) << "[" << C.Block << "], "
                          << descName(Call.operand("A")->Ring, W.A)
                          << ".advanced(a_slot + " << W.A.Start << "),\n";
    OS.indent(Indent + 6) << descName(Call.operand("B")->Ring, W.B)
                          << ".advanced(b_slot + "
                          << W.B.Start << "), wgmma::ScaleD::accumulate);\n";
  }
  OS.indent(Indent) << "}\n";
  At = End - 1;
}

void KernelEmitter::storeFragment(InstId Id, unsigned Indent) {
  const auto &I = K.Insts[Id].get<StoreFragmentStmt>();
  const AccumulatorStore &S = Stores.at(Id);
  const Region &View = K.Regions[I.View];
  const auto [Convert, Word] = *pairConversion(View.Element);
  const std::string Name = identifier(View.Name);
  const std::string Axis = RoleAxis.count(CurrentRole)
                               ? identifier(RoleAxis.at(CurrentRole))
                               : "group";
  OS.indent(Indent) << "{\n";
  OS.indent(Indent + 2) << "// ";
  for (const FragmentOp &F : I.Epilogue)
    OS << elementwiseName(F.Op)
       << (F.Op == ElementwiseOp::Cast ? "." + std::string(name(F.To)) : "")
       << ", then ";
  OS << "cast to " << name(View.Element)
                        << ", stored as the accumulator's shard " << I.Shard
                        << " puts it\n";
  OS.indent(Indent + 2) << "const std::uint32_t base = " << Axis << " * "
                        << S.GroupBytes << " + warp * " << S.WarpBytes
                        << " + lane8 * " << S.RowBytes << " + lane4 * "
                        << S.QuadBytes << ";\n";
  OS.indent(Indent + 2) << "#pragma unroll\n";
  OS.indent(Indent + 2) << "for (int p = 0; p < " << S.PairBytes.size()
                        << "; ++p) {\n";
  std::string At = "base + " + Name + "_pairs[p]";
  if (!S.Sw.is_identity())
    At = "sm90::swizzle<" + std::to_string(S.Sw.bits) + ", " +
         std::to_string(S.Sw.base) + ", " + std::to_string(S.Sw.shift) + ">(" +
         At + ")";
  OS.indent(Indent + 4) << "*reinterpret_cast<" << Word << " *>(smem + " << Name
                        << "_offset + " << At << ") =\n";
  auto Element = [&](const char *Index) {
    std::string X = accName(I.Acc) + "[0][" + Index + "]";
    for (const FragmentOp &F : I.Epilogue)
      X = applyOp(F, X);
    return X;
  };
  OS.indent(Indent + 8) << Convert << "(" << Element("2 * p") << ",";
  if (I.Epilogue.empty()) {
    OS << " ";
  } else {
    OS << "\n";
    OS.indent(Indent + 8 + std::strlen(Convert) + 1);
  }
  OS << Element("2 * p + 1") << ");\n";
  OS.indent(Indent + 2) << "}\n";
  OS.indent(Indent) << "}\n";
}

void KernelEmitter::stmt(InstId Id, unsigned Indent) {
  const Stmt &S = K.Insts[Id];
  auto Line = [&]() -> llvm::raw_ostream & { return OS.indent(Indent); };
  if (const auto *I = as<ext::Inst>(S)) {
    extension(S, *I, Indent);
    return;
  }
  switch (S.kind()) {
  case StmtKind::Role:
    role(Id, Indent);
    return;
  case StmtKind::TileLoop: {
    const auto &I = S.get<TileLoopStmt>();
    Line() << "// " << (I.Persistent ? "persistent_tiles" : "grid_tiles")
           << ", group_m = " << I.GroupM << "\n";
    Line() << "for (int task = " << expr(I.Start) << "; task < "
           << expr(I.Bound) << "; task += " << expr(I.Stride) << ") {\n";
    body(S.Body, Indent + 2);
    Line() << "}\n";
    return;
  }
  case StmtKind::KLoop: {
    const auto &I = S.get<KLoopStmt>();
    Line() << "for (int " << identifier(I.Var) << " = " << expr(I.Start)
           << "; " << identifier(I.Var) << " < " << expr(I.Bound) << "; "
           << identifier(I.Var) << " += " << I.Step << ") {\n";
    body(S.Body, Indent + 2);
    Line() << "}\n";
    return;
  }
  case StmtKind::Let: {
    const auto &I = S.get<LetStmt>();
    if (!Used.count(I.Var))
      return;
    Line() << "const int " << identifier(I.Var) << " = " << expr(I.Value)
           << ";\n";
    return;
  }
  case StmtKind::ZeroFragment: {
    const hir::ValueId Acc = S.get<ZeroFragmentStmt>().Acc;
    const AccInfo &A = Accumulators.at(Acc);
    Line() << "float " << accName(Acc) << "[" << A.Blocks << "][" << A.N / 2
           << "];\n";
    Line() << "#pragma unroll\n";
    Line() << "for (int i = 0; i < " << A.N / 2 << "; ++i)\n";
    OS.indent(Indent + 2) << accName(Acc) << "[0][i] = 0.0f;\n";
    return;
  }
  case StmtKind::StoreFragment:
    storeFragment(Id, Indent);
    return;
  case StmtKind::AtomCall:
  case StmtKind::Extension:
    llvm_unreachable("the verifier admits only sm90 atom calls and "
                     "extension statements");
  }
}

/// A statement of the sm90 extension, or a TMA atom call it encodes (WGMMA
/// calls are written in runs by wgmmaRun).
void KernelEmitter::extension(const Stmt &S, const ext::Inst &I,
                              unsigned Indent) {
  auto Line = [&]() -> llvm::raw_ostream & { return OS.indent(Indent); };
  auto Elected = [&](std::int64_t Thread) {
    if (Thread >= 0)
      OS << "if (threadIdx.x == " << Thread << ") ";
  };
  switch (I.sm90Kind()) {
  case ext::Kind::BarrierInit: {
    const auto &X = llvm::cast<ext::BarrierInit>(I);
    const Barrier &B = K.Barriers[X.Bar];
    Line() << "for (int s = 0; s < " << B.Count << "; ++s)\n";
    OS.indent(Indent + 2) << identifier(B.Name) << "[s].init(" << X.Count
                          << ");\n";
    return;
  }
  case ext::Kind::FenceBarrierInit:
    Line() << "sm90::fence_barrier_init();\n";
    Line() << "__syncthreads();\n";
    return;
  case ext::Kind::Wait: {
    const auto &X = llvm::cast<ext::Wait>(I);
    Line() << barrier(X.Bar, X.Slot) << ".wait<waits>(" << expr(X.Phase)
           << ", \"" << K.Barriers[X.Bar].Name << "\");\n";
    return;
  }
  case ext::Kind::ArriveExpectTx: {
    const auto &X = llvm::cast<ext::ArriveExpectTx>(I);
    Line();
    Elected(X.Elected);
    OS << barrier(X.Bar, X.Slot) << ".arrive_expect_tx(" << X.Bytes << ");\n";
    return;
  }
  case ext::Kind::Arrive: {
    const auto &X = llvm::cast<ext::Arrive>(I);
    Line();
    Elected(X.Elected);
    OS << barrier(X.Bar, X.Slot) << ".arrive();\n";
    return;
  }
  case ext::Kind::Tma: {
    const auto &X = llvm::cast<ext::Tma>(I);
    const AtomCallStmt &Call = S.get<AtomCallStmt>();
    const OperandView *Global = nullptr, *Shared = nullptr;
    for (const OperandView &O : Call.Operands)
      (O.Place == OperandPlace::Global ? Global : Shared) = &O;
    std::vector<std::string> Coords;
    for (ExprId C : Global->Coords)
      Coords.push_back(expr(C));
    Line();
    Elected(Call.Elected);
    if (!X.Store)
      OS << "tma::load(" << viewAddress(*Shared) << ", "
         << mapName(Global->Map) << ", " << barrier(X.Bar, X.Slot) << ", "
         << llvm::join(Coords, ", ") << ");";
    else
      OS << "tma::store(" << mapName(Global->Map) << ", "
         << viewAddress(*Shared) << ", " << llvm::join(Coords, ", ") << ");";
    OS << " // " << X.Bytes << " bytes\n";
    return;
  }
  case ext::Kind::BulkCommit:
    Line() << "tma::commit_group();\n";
    return;
  case ext::Kind::BulkWaitRead:
    Line() << "tma::wait_group_read<0>();\n";
    return;
  case ext::Kind::WgmmaFence:
    Line() << "wgmma::fence();\n";
    return;
  case ext::Kind::Wgmma:
    llvm_unreachable("WGMMA runs are emitted by wgmmaRun");
  case ext::Kind::WgmmaCommit:
    Line() << "wgmma::commit_group();\n";
    return;
  case ext::Kind::WgmmaWait:
    Line() << "wgmma::wait_group<" << llvm::cast<ext::WgmmaWait>(I).Count
           << ">();\n";
    return;
  case ext::Kind::FenceProxyAsync:
    Line() << "tma::fence_proxy_async_shared();\n";
    return;
  case ext::Kind::NamedBarrier: {
    const auto &X = llvm::cast<ext::NamedBarrier>(I);
    Line() << "sm90::named_barrier_sync(" << X.Id << ", " << X.Count
           << ");\n";
    return;
  }
  }
}

void KernelEmitter::launcher() {
  OS << "void launch(const tf::runtime::LaunchRequest &request) {\n";
  OS << "  const tf::runtime::CudaCheck check{\"" << K.Name << "\"};\n";
  OS << "  if (request.args.size() != " << K.Parameters.size() << ")\n";
  OS << "    check.fail(\"launcher: %zu arguments given, the kernel has "
     << K.Parameters.size() << "\", request.args.size());\n";
  // Every parameter, checked against what the kernel was generated for
  // (a tensor read only for its extents too).
  for (std::size_t P = 0; P < K.Parameters.size(); ++P) {
    const Parameter &X = K.Parameters[P];
    if (X.What == Parameter::Kind::Integer) {
      OS << "  const int " << identifier(X.Name)
         << " = tf::runtime::integer_arg<" << X.ScalarType << ">(request, "
         << P << ", \"" << X.Name << "\", check);\n";
      continue;
    }
    OS << "  const tf::runtime::TensorArg &" << identifier(X.Name)
       << " = tf::runtime::device_tensor(request, " << P << ", \"" << X.Name
       << "\", " << dtypeEnum(X.Element) << ", " << X.Rank << ", check);\n";
  }
  for (auto [P, Dim] : Extents) {
    const std::string Name = identifier(K.Parameters[P].Name);
    OS << "  const int " << Name << "_extent" << Dim << " = static_cast<int>("
       << Name << ".extents[" << Dim << "]);\n";
  }
  // The kernel-level lets (tile counts) the grid needs.
  for (InstId Id : K.Body)
    if (const auto *L = K.Insts[Id].getIf<LetStmt>())
      OS << "  const int " << identifier(L->Var) << " = " << expr(L->Value)
         << ";\n";
  const auto &Loop = K.Insts[TileLoop].get<TileLoopStmt>();
  OS << "  const int tiles = " << expr(Loop.Bound) << ";\n";
  OS << "  const int topology = " << expr(K.Grid) << ";\n";
  OS << "  if (request.grid != topology)\n";
  OS << "    check.fail(\"launcher: tf::grid(%lld) given, the kernel's CTA "
        "topology has %d\",\n";
  OS << "               static_cast<long long>(request.grid), topology);\n";
  OS << "  if (tiles == 0)\n    return;\n";
  if (K.Persistent)
    OS << "  // Persistent: no more CTAs than tiles.\n"
          "  const int grid = imin(topology, tiles);\n";
  else
    OS << "  const int grid = tiles;\n";
  for (std::size_t M = 0; M < K.Maps.size(); ++M) {
    const TensorMap &T = K.Maps[M];
    OS << "  const std::uint32_t " << MapNames[M] << "_box[] = {"
       << llvm::join(
              llvm::map_range(T.Box,
                              [](std::int64_t B) { return std::to_string(B); }),
              ", ")
       << "};\n";
    OS << "  const CUtensorMap " << MapNames[M]
       << " = tf::runtime::make_tensor_map(" << identifier(T.Tensor) << ", "
       << MapNames[M] << "_box, " << tmaSwizzle(T.Swizzle) << ", check);\n";
  }
  OS << "  check(cudaFuncSetAttribute(" << Id
     << ", cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes),\n"
     << "        \"cudaFuncSetAttribute(MaxDynamicSharedMemorySize)\");\n";
  std::vector<std::string> Args(MapNames);
  for (auto [P, Dim] : Extents)
    Args.push_back(identifier(K.Parameters[P].Name) + "_extent" +
                   std::to_string(Dim));
  for (const Parameter &P : K.Parameters)
    if (P.What == Parameter::Kind::Integer)
      Args.push_back(identifier(P.Name));
  OS << "  " << Id << "<<<grid, block_threads, shared_bytes>>>("
     << llvm::join(Args, ", ") << ");\n";
  OS << "  check.launch(\"" << Id << "<<<grid, " << K.BlockThreads << ", "
     << K.SharedBytes << ">>>\");\n";
  if (Opts.DebugWaits)
    OS << "  // Debug waits: a trapped wait is reported here, with the "
          "kernel's name.\n"
          "  check(cudaDeviceSynchronize(), \"cudaDeviceSynchronize\");\n";
  OS << "}\n\n";
}

void KernelEmitter::registrar() {
  OS << "const tf::runtime::Registrar registrar{\n"
     << "    reinterpret_cast<const void *>(&tf_generated::user::" << Id
     << "), \"" << K.Name << "\", &launch};\n";
}

llvm::Error KernelEmitter::run() {
  if (llvm::Error E = collect())
    return E;
  if (TileLoop == None)
    return problem(K.Range, "needs a tile loop to size the grid");
  OS << "namespace tf_generated::user {\n";
  OS << "// " << K.Name
     << ", the host function the launcher is registered "
        "under.\n";
  OS << "void " << Id << "() __asm__(\"" << K.MangledName << "\");\n";
  OS << "} // namespace tf_generated::user\n\n";
  OS << "namespace tf_generated::" << Id << " {\n";
  OS << "namespace {\n\n";
  constants();
  deviceFunction();
  launcher();
  registrar();
  OS << "\n} // namespace\n";
  OS << "} // namespace tf_generated::" << Id << "\n";
  return llvm::Error::success();
}

} // namespace

llvm::Error emitCuda(llvm::ArrayRef<Kernel> Kernels, const CudaOptions &Opts,
                     llvm::raw_ostream &OS) {
  const std::string File = llvm::sys::path::stem(Opts.Source).str();
  OS << "//===- " << File << ".tf.cu - generated by tf; do not edit ";
  OS << "---===//\n";
  OS << "//\n";
  OS << "// The CUDA backend's output for " << Opts.Source
     << " (docs/backend-cuda.md):\n";
  OS << "// per kernel, the lowered form `tf finalize` prints as a "
        "__global__ function\n";
  OS << "// for sm_90a and a launcher that tf::launch finds by the kernel's "
        "address.\n";
  OS << "// Compile with nvcc -std=c++20 "
        "-gencode=arch=compute_90a,code=sm_90a\n";
  OS << "// -I<tf>/include -I<tf>/runtime/include and link with the "
        "user's program.\n";
  OS << "//\n";
  OS << "//===------------------------------------------------------------"
        "----------===//\n";
  OS << "#include \"tf/runtime/host/arguments.hpp\"\n"
     << "#include \"tf/runtime/host/check.hpp\"\n"
     << "#include \"tf/runtime/host/tensor_map.hpp\"\n"
     << "#include \"tf/runtime/kernel_args.hpp\"\n"
     << "#include \"tf/runtime/registry.hpp\"\n"
     << "#include \"tf/runtime/sm90/mbarrier.cuh\"\n"
     << "#include \"tf/runtime/sm90/smem_descriptor.cuh\"\n"
     << "#include \"tf/runtime/sm90/swizzle.cuh\"\n"
     << "#include \"tf/runtime/sm90/sync.cuh\"\n"
     << "#include \"tf/runtime/sm90/tma.cuh\"\n"
     << "#include \"tf/runtime/sm90/wgmma.cuh\"\n\n"
     << "#include <cuda_bf16.h>\n"
     << "#include <cuda_fp16.h>\n\n"
     << "#include <cstdint>\n\n";
  OS << "namespace tf_generated {\n";
  OS << "namespace sm90 = tf::sm90;\n";
  OS << "namespace tma = tf::sm90::tma;\n";
  OS << "namespace wgmma = tf::sm90::wgmma;\n\n";
  if (Opts.DebugWaits)
    OS << "// emit-debug-waits: a wait that polls this often traps with the "
          "barrier's name.\n"
          "constexpr sm90::WaitPolicy waits = sm90::trap_after(1u << 26);\n";
  else
    OS << "// Waits poll until the phase completes (emit-debug-waits bounds "
          "them).\n"
          "constexpr sm90::WaitPolicy waits = sm90::wait_forever;\n";
  OS << "\n// The index arithmetic of the lowered form, on 32-bit "
        "non-negative values.\n";
  OS << "__host__ __device__ constexpr int ceil_div(int a, int b) { return "
        "(a + b - 1) / b; }\n";
  OS << "__host__ __device__ constexpr int imin(int a, int b) { return a < b "
        "? a : b; }\n";
  OS << "__host__ __device__ constexpr int imax(int a, int b) { return a < b "
        "? b : a; }\n";
  OS << "} // namespace tf_generated\n\n";
  llvm::Error Err = llvm::Error::success();
  for (const Kernel &K : Kernels)
    Err = llvm::joinErrors(std::move(Err), KernelEmitter(K, Opts, OS).run());
  return Err;
}

} // namespace tf::backend::sm90
