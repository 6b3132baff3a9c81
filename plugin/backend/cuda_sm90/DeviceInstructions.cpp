//===- plugin/backend/cuda_sm90/DeviceInstructions.cpp - Instructions -------===//
//
// The device side's instructions: each sm90 LIR instruction as one call into
// the runtime's sm90 library (TMA, mbarrier, fences, WGMMA runs) and the
// staged store of an accumulator fragment with its fused elementwise ops.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/KernelEmitter.h"
#include "backend/cuda_sm90/Forms.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

namespace tf::backend::sm90 {

using namespace lower;
namespace ext = lower::sm90;

namespace {

/// Expression \p X (an f32) after elementwise op \p F.
std::string applyOp(const FragmentOp &F, const std::string &X) {
  switch (F.Op) {
  case ElementwiseOp::Relu:
    return "fmaxf(" + X + ", 0.0f)";
  case ElementwiseOp::Neg:
    return "-(" + X + ")";
  case ElementwiseOp::Exp:
    return "expf(" + X + ")";
  case ElementwiseOp::GeluTanh:
  case ElementwiseOp::GeluErf:
  case ElementwiseOp::Silu:
    // A device function of the generated file (activationFunction): x is
    // used more than once.
    return std::string(elementwiseName(F.Op)) + "(" + X + ")";
  case ElementwiseOp::Scale:
    return "(" + X + " * " + identifier(F.Scalar) + ")";
  case ElementwiseOp::Add:
    break; // KernelEmitter::fragmentValue: it reads global memory
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

} // namespace

const char *activationFunction(ElementwiseOp Op) {
  // tf/ops/activation_math.hpp's formulas, in its expression order, in
  // f32. The exp and the division are CUDA's intrinsics (__expf, a few f32
  // ulps off; __fdividef, 2 ulps): the IEEE division's slow path and expf's
  // range reduction need registers that the GEMM's 128 accumulator
  // registers per thread leave none of (ptxas spills), and an f32 ulp is
  // far below the output's.
  switch (Op) {
  case ElementwiseOp::GeluTanh:
    return "__device__ __forceinline__ float gelu_tanh(float x) {\n"
           "  return __fdividef(x, 1.0f + __expf(-1.5957691216057308f * "
           "(x + 0.044715f * x * x * x)));\n"
           "}\n";
  case ElementwiseOp::GeluErf:
    return "__device__ __forceinline__ float gelu_erf(float x) {\n"
           "  return 0.5f * x * (1.0f + erff(x * 0.7071067811865476f));\n"
           "}\n";
  case ElementwiseOp::Silu:
    return "__device__ __forceinline__ float silu(float x) {\n"
           "  return __fdividef(x, 1.0f + __expf(-x));\n"
           "}\n";
  case ElementwiseOp::Cast:
  case ElementwiseOp::Relu:
  case ElementwiseOp::Neg:
  case ElementwiseOp::Exp:
  case ElementwiseOp::Scale:
  case ElementwiseOp::Add:
    return nullptr;
  }
  return nullptr;
}

const char *epilogueLoadFunctions() {
  // Each thread reads the elements its accumulator registers meet, straight
  // from global memory; a tile past the tensor's edge reads 0 there (its
  // results are not stored: the TMA store clips them).
  return "\n// The fused epilogues' reads of global memory: element (i) or (i, "
         "j) as f32, 0\n// outside the tensor's extents.\n"
         "__device__ __forceinline__ float epilogue_f32(float x) { return x; "
         "}\n"
         "__device__ __forceinline__ float epilogue_f32(__nv_bfloat16 x) { "
         "return __bfloat162float(x); }\n"
         "__device__ __forceinline__ float epilogue_f32(__half x) { return "
         "__half2float(x); }\n"
         "template <class T>\n"
         "__device__ __forceinline__ float epilogue_load(const T *data, int i, "
         "int extent, int stride) {\n"
         "  return i < extent ? epilogue_f32(data[i * stride]) : 0.0f;\n"
         "}\n"
         "template <class T>\n"
         "__device__ __forceinline__ float epilogue_load(const T *data, int i, "
         "int j, int extent_i, int extent_j,\n"
         "                                               int stride_i, "
         "int stride_j) {\n"
         "  return i < extent_i && j < extent_j\n"
         "             ? epilogue_f32(data[i * stride_i + j * stride_j])\n"
         "             : 0.0f;\n"
         "}\n"
         "// A tensor's address, read afresh in each tile's epilogue: the "
         "opaque move\n// keeps the compiler from computing the epilogue's "
         "addresses before the\n// main loop and holding them across it next "
         "to the accumulator's\n// registers (ptxas spilled them).\n"
         "template <class T>\n"
         "__device__ __forceinline__ const T *epilogue_address(const T *data) "
         "{\n"
         "  const T *fresh;\n"
         "  asm volatile(\"mov.b64 %0, %1;\" : \"=l\"(fresh) : "
         "\"l\"(data));\n"
         "  return fresh;\n"
         "}\n"
         "// Elements (j, j + 1) at p, adjacent and aligned to two elements, "
         "as f32, (0, 0)\n"
         "// when !in: one load through the non-coherent path (the kernel "
         "never writes\n"
         "// what its epilogues read), so the loads of a tile's pairs need "
         "not wait for\n"
         "// its shared-memory stores. The predicate is inside the load: no "
         "branch\n"
         "// between the loads, and ptxas folds constant offsets into them.\n"
         "__device__ __forceinline__ std::uint32_t epilogue_ldg_b32(const void "
         "*p, bool in) {\n"
         "  std::uint32_t r;\n"
         "  asm(\"{\\n\\t.reg .pred q;\\n\\tsetp.ne.b32 q, %2, 0;\\n\\tmov.b32 "
         "%0, 0;\\n\\t@q ld.global.nc.b32 %0, [%1];\\n\\t}\"\n"
         "      : \"=r\"(r) : \"l\"(p), \"r\"(static_cast<int>(in)));\n"
         "  return r;\n"
         "}\n"
         "__device__ __forceinline__ std::uint64_t epilogue_ldg_b64(const void "
         "*p, bool in) {\n"
         "  std::uint64_t r;\n"
         "  asm(\"{\\n\\t.reg .pred q;\\n\\tsetp.ne.b32 q, %2, 0;\\n\\tmov.b64 "
         "%0, 0;\\n\\t@q ld.global.nc.b64 %0, [%1];\\n\\t}\"\n"
         "      : \"=l\"(r) : \"l\"(p), \"r\"(static_cast<int>(in)));\n"
         "  return r;\n"
         "}\n"
         "__device__ __forceinline__ float2 epilogue_load_pair(const float *p, "
         "bool in) {\n"
         "  const std::uint64_t r = epilogue_ldg_b64(p, in);\n"
         "  return make_float2(__uint_as_float(static_cast<std::uint32_t>(r)),\n"
         "                     __uint_as_float(static_cast<std::uint32_t>(r >> "
         "32)));\n"
         "}\n"
         "__device__ __forceinline__ float2 epilogue_load_pair(const "
         "__nv_bfloat16 *p, bool in) {\n"
         "  const std::uint32_t r = epilogue_ldg_b32(p, in);\n"
         "  return make_float2(__uint_as_float(r << 16), __uint_as_float(r & "
         "0xffff0000u));\n"
         "}\n"
         "__device__ __forceinline__ float2 epilogue_load_pair(const __half *p, "
         "bool in) {\n"
         "  const std::uint32_t r = epilogue_ldg_b32(p, in);\n"
         "  return __half22float2(*reinterpret_cast<const __half2 *>(&r));\n"
         "}\n"
         "template <class T>\n"
         "__device__ __forceinline__ bool epilogue_pair_aligned(const T *data) "
         "{\n"
         "  return reinterpret_cast<std::uintptr_t>(data) % (2 * sizeof(T)) == "
         "0;\n"
         "}\n";
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

std::string KernelEmitter::loadValue(const EpilogueLoad &L,
                                     const PairElement &At) const {
  const std::string Name = identifier(L.Tensor);
  if (At.PairLoaded)
    return Name + (At.Second ? "_pair.y" : "_pair.x");
  std::string Out = "epilogue_load(" + Name + "_address";
  for (std::size_t D = 0; D < L.Dims.size(); ++D)
    Out += ", " + expr(L.Origin[D]) + " + " + (L.Dims[D] == 0 ? At.Row : At.Col);
  for (std::size_t D = 0; D < L.Dims.size(); ++D)
    Out += ", " + Name + "_extent" + std::to_string(D);
  for (std::size_t D = 0; D < L.Dims.size(); ++D)
    Out += ", " + Name + "_stride" + std::to_string(D);
  return Out + ")";
}

std::string KernelEmitter::fragmentValue(llvm::ArrayRef<FragmentOp> Ops,
                                         std::string X,
                                         const PairElement &At) const {
  for (const FragmentOp &F : Ops)
    if (F.Op == ElementwiseOp::Add) {
      const FragmentOperand &Added = F.Operand.front();
      X = "(" + X + " + " +
          fragmentValue(Added.Ops, loadValue(Added.Load, At), At) + ")";
    } else {
      X = applyOp(F, X);
    }
  return X;
}

namespace {

/// The dimension of \p L that follows the tile's columns, where a register
/// pair's two elements lie side by side: the last, when no other does.
std::optional<std::size_t> pairColumn(const EpilogueLoad &L) {
  if (L.Dims.empty() || L.Dims.back() != 1 ||
      llvm::count(L.Dims, 1) != 1 || llvm::count(L.Dims, 0) > 1)
    return std::nullopt;
  return L.Dims.size() - 1;
}

/// The tensors \p I's epilogue reads, each with its load, when all of them
/// can be read a register pair at a time (KernelEmitter::storeFragment):
/// each read the same way wherever it is added, with a column dimension
/// (pairColumn), of a type with a pair load, and every pair starting at an
/// even column so that the two elements share an aligned word. Empty
/// otherwise.
std::vector<std::pair<std::string, const EpilogueLoad *>>
pairLoads(const StoreFragmentStmt &I, const AccumulatorStore &S) {
  std::vector<std::pair<std::string, const EpilogueLoad *>> Loads;
  bool Loadable = readsGlobal(I);
  forEachLoad(I.Epilogue, [&](const EpilogueLoad &L) {
    Loadable &= pairColumn(L).has_value() && loadedType(L.Element) != nullptr;
    const auto Seen = llvm::find_if(
        Loads, [&](const auto &Load) { return Load.first == L.Tensor; });
    if (Seen == Loads.end())
      Loads.emplace_back(L.Tensor, &L);
    else
      Loadable &= *Seen->second == L;
  });
  auto Even = [](const AccumulatorStore::Coord &C) { return C.Col % 2 == 0; };
  if (!Loadable || !llvm::all_of(S.Pair, Even) ||
      !llvm::all_of(std::array{S.Group, S.Warp, S.Lane8, S.Lane4}, Even))
    Loads.clear();
  return Loads;
}

} // namespace

void KernelEmitter::storeFragment(InstId Id, unsigned Indent) {
  const auto &I = K.Insts[Id].get<StoreFragmentStmt>();
  const AccumulatorStore &S = Stores.at(Id);
  const Region &View = K.Regions[I.View];
  const std::string Axis = RoleAxis.count(CurrentRole)
                               ? identifier(RoleAxis.at(CurrentRole))
                               : "group";
  OS.indent(Indent) << "{\n";
  OS.indent(Indent + 2) << "// ";
  for (const FragmentOp &F : I.Epilogue)
    OS << elementwiseName(F.Op)
       << (F.Op == ElementwiseOp::Cast ? "." + std::string(name(F.To))
           : F.Op == ElementwiseOp::Scale ? " by " + F.Scalar
           : F.Op == ElementwiseOp::Add   ? " " + F.Operand.front().Load.Tensor
                                          : "")
       << ", then ";
  OS << "cast to " << name(View.Element)
                        << ", stored as the accumulator's shard " << I.Shard
                        << " puts it\n";
  OS.indent(Indent + 2) << "const std::uint32_t base = " << Axis << " * "
                        << S.GroupBytes << " + warp * " << S.WarpBytes
                        << " + lane8 * " << S.RowBytes << " + lane4 * "
                        << S.QuadBytes << ";\n";
  // Each loaded tensor's address, afresh for this tile.
  std::vector<std::string> Loaded;
  forEachLoad(I.Epilogue, [&](const EpilogueLoad &L) {
    const std::string Tensor = identifier(L.Tensor);
    if (llvm::is_contained(Loaded, Tensor))
      return;
    Loaded.push_back(Tensor);
    OS.indent(Indent + 2) << "const " << loadedType(L.Element) << " *const "
                          << Tensor << "_address = epilogue_address("
                          << Tensor << "_data);\n";
  });
  // The tile's rows and columns the epilogue's loads read at.
  const std::array<bool, 2> Reads = loadAxes(I);
  {
    // The thread's first element in the tile, as the base above.
    auto Linear = [&](auto Part) {
      std::vector<std::string> Terms;
      const std::pair<std::string, AccumulatorStore::Coord> Units[] = {
          {Axis, S.Group}, {"warp", S.Warp}, {"lane8", S.Lane8},
          {"lane4", S.Lane4}};
      for (const auto &[Name, C] : Units)
        if (const std::int64_t Step = Part(C))
          Terms.push_back(Name + (Step == 1 ? "" : " * " + std::to_string(Step)));
      return Terms.empty() ? std::string("0") : llvm::join(Terms, " + ");
    };
    if (Reads[0])
      OS.indent(Indent + 2) << "const int row0 = " << Linear([](auto C) {
        return C.Row;
      }) << ";\n";
    if (Reads[1])
      OS.indent(Indent + 2) << "const int col0 = " << Linear([](auto C) {
        return C.Col;
      }) << ";\n";
  }
  // Tensors whose column dimension has stride 1 hold a pair's two elements
  // side by side: one load reads both. A thread takes that path when, at
  // run time, every such tensor is aligned for it and holds all the
  // columns the thread reads (the tile's last columns past an edge take the
  // element loads); rows past the edge read 0 through the load's predicate.
  const std::vector<std::pair<std::string, const EpilogueLoad *>> Paired =
      pairLoads(I, S);
  if (!Paired.empty()) {
    std::int64_t LastCol = 0;
    for (const AccumulatorStore::Coord &C : S.Pair)
      LastCol = std::max(LastCol, C.Col + 1);
    std::vector<std::string> Conditions;
    for (const auto &[Tensor, L] : Paired) {
      const std::string Name = identifier(Tensor);
      const std::size_t Col = *pairColumn(*L);
      const std::string ColOrigin = "(" + expr(L->Origin[Col]) + ")";
      Conditions.push_back(Name + "_stride" + std::to_string(Col) + " == 1");
      for (std::size_t D = 0; D < L->Dims.size(); ++D)
        if (D != Col)
          Conditions.push_back(Name + "_stride" + std::to_string(D) +
                               " % 2 == 0");
      Conditions.push_back(ColOrigin + " % 2 == 0");
      Conditions.push_back("epilogue_pair_aligned(" + Name + "_address)");
      Conditions.push_back(ColOrigin + " + col0 + " +
                           std::to_string(LastCol + 1) + " <= " + Name +
                           "_extent" + std::to_string(Col));
    }
    OS.indent(Indent + 2) << "if ("
                          << llvm::join(Conditions,
                                        " &&\n" + std::string(Indent + 6, ' '))
                          << ") {\n";
    for (const auto &[Tensor, L] : Paired) {
      const std::string Name = identifier(Tensor);
      std::string Offset;
      for (std::size_t D = 0; D < L->Dims.size(); ++D)
        Offset += (Offset.empty() ? "" : " + ") +
                  (L->Dims[D] == 1 ? "(" + expr(L->Origin[D]) + " + col0)"
                                   : "(" + expr(L->Origin[D]) + ") * " + Name +
                                         "_stride" + std::to_string(D));
      OS.indent(Indent + 4) << "const " << loadedType(L->Element) << " *const "
                            << Name << "_tile = epilogue_address(" << Name
                            << "_address + " << Offset << ");\n";
      for (std::size_t D = 0; D < L->Dims.size(); ++D)
        if (L->Dims[D] == 0)
          OS.indent(Indent + 4) << "const int " << Name << "_rows = " << Name
                                << "_extent" << D << " - (" << expr(L->Origin[D])
                                << ");\n";
    }
    storePairs(Id, Indent + 2, Paired);
    OS.indent(Indent + 2) << "} else {\n";
    storePairs(Id, Indent + 2, {});
    OS.indent(Indent + 2) << "}\n";
  } else {
    storePairs(Id, Indent, {});
  }
  OS.indent(Indent) << "}\n";
}

void KernelEmitter::storePairs(
    InstId Id, unsigned Indent,
    llvm::ArrayRef<std::pair<std::string, const EpilogueLoad *>> Paired) {
  const auto &I = K.Insts[Id].get<StoreFragmentStmt>();
  const AccumulatorStore &S = Stores.at(Id);
  const Region &View = K.Regions[I.View];
  const auto [Convert, Word] = *pairConversion(View.Element);
  const std::string Name = identifier(View.Name);
  const std::array<bool, 2> Reads = loadAxes(I);
  // One loop over a block's register pairs, inside one over the blocks
  // when a warpgroup holds several (the tables are indexed b * Pairs + p).
  const bool Blocked = I.Blocks.count() > 1;
  unsigned Inner = Indent + 2;
  const std::string Block = Blocked ? "b" : "0";
  const std::string Pair =
      Blocked ? "b * " + std::to_string(S.Pairs) + " + p" : "p";
  if (Blocked) {
    OS.indent(Inner) << "#pragma unroll\n";
    OS.indent(Inner) << "for (int b = 0; b < " << I.Blocks.count()
                     << "; ++b) {\n";
    Inner += 2;
  }
  OS.indent(Inner) << "#pragma unroll\n";
  OS.indent(Inner) << "for (int p = 0; p < " << S.Pairs << "; ++p) {\n";
  if (Reads[0])
    OS.indent(Inner + 2) << "const int row = row0 + " << Name << "_pair_rows["
                         << Pair << "];\n";
  if (Reads[1] && Paired.empty())
    OS.indent(Inner + 2) << "const int col = col0 + " << Name << "_pair_cols["
                         << Pair << "];\n";
  for (const auto &[Tensor, L] : Paired) {
    const std::string T = identifier(Tensor);
    std::string At = T + "_tile", In = "true";
    for (std::size_t D = 0; D < L->Dims.size(); ++D)
      if (L->Dims[D] == 0) {
        At += " + (row < " + T + "_rows ? row : 0) * " + T + "_stride" +
              std::to_string(D);
        In = "row < " + T + "_rows";
      } else {
        At += " + " + Name + "_pair_cols[" + Pair + "]";
      }
    OS.indent(Inner + 2) << "const float2 " << T << "_pair = epilogue_load_pair("
                         << At << ", " << In << ");\n";
  }
  std::string Address = "base + " + Name + "_pairs[" + Pair + "]";
  if (!S.Sw.is_identity())
    Address = "sm90::swizzle<" + std::to_string(S.Sw.bits) + ", " +
              std::to_string(S.Sw.base) + ", " + std::to_string(S.Sw.shift) +
              ">(" + Address + ")";
  OS.indent(Inner + 2) << "*reinterpret_cast<" << Word << " *>(smem + " << Name
                       << "_offset + " << Address << ") =\n";
  auto Element = [&](const char *Index, const char *Col, unsigned Second) {
    return fragmentValue(I.Epilogue,
                         accName(I.Acc) + "[" + Block + "][" + Index + "]",
                         PairElement{"row", Col, Second, !Paired.empty()});
  };
  OS.indent(Inner + 6) << Convert << "(" << Element("2 * p", "col", 0) << ",";
  if (I.Epilogue.empty()) {
    OS << " ";
  } else {
    OS << "\n";
    OS.indent(Inner + 6 + std::strlen(Convert) + 1);
  }
  OS << Element("2 * p + 1", "(col + 1)", 1) << ");\n";
  OS.indent(Inner) << "}\n";
  if (Blocked)
    OS.indent(Indent + 2) << "}\n";
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
    if (!X.Cluster) {
      OS << barrier(X.Bar, X.Slot) << ".arrive();\n";
      return;
    }
    // The slot is free for the peers' multicast loads once every CTA's
    // readers released it: thread r of each warpgroup arrives on its
    // barrier in the CTA of rank r.
    OS << "if (threadIdx.x % 128 < " << K.ClusterCtas << ") "
       << barrier(X.Bar, X.Slot) << ".arrive_cluster(threadIdx.x % 128);\n";
    return;
  }
  case ext::Kind::ClusterBarrier:
    Line() << "sm90::cluster_sync();\n";
    return;
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
    if (X.Multicast > 1)
      // Box X.Issuer of the cluster's share-out: issued by that rank, into
      // every CTA of the cluster.
      OS << "if (cta_x % " << K.ClusterCtas << " == " << X.Issuer << ") "
         << "tma::load_multicast(" << viewAddress(*Shared) << ", "
         << mapName(Global->Map) << ", " << barrier(X.Bar, X.Slot) << ", 0x"
         << llvm::utohexstr((std::uint64_t(1) << X.Multicast) - 1) << ", "
         << llvm::join(Coords, ", ") << ");";
    else if (!X.Store)
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

} // namespace tf::backend::sm90
