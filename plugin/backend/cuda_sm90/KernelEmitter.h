//===- plugin/backend/cuda_sm90/KernelEmitter.h - One kernel -*- C++ -*-===//
//
// The CUDA backend's writer of one kernel (private to backend/cuda_sm90):
// what it collects from the LIR before writing (EmitterAnalysis.cpp), how it
// names LIR things in C++ (EmitterNames.cpp), the device function's
// structured statements (DeviceFunction.cpp) and instructions
// (DeviceInstructions.cpp), and the host launcher (CudaEmitter.cpp, which
// also writes the file around the kernels).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BACKEND_CUDA_SM90_KERNELEMITTER_H
#define TF_PLUGIN_BACKEND_CUDA_SM90_KERNELEMITTER_H

#include "backend/cuda_sm90/AccumulatorStore.h"
#include "backend/cuda_sm90/CudaEmitter.h"
#include "backend/cuda_sm90/Forms.h"

#include "lower/LIR.h"
#include "lower/sm90/Sm90.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tf::backend::sm90 {

/// A C++ identifier for an LIR name: `lhs_ring.full` -> `lhs_ring_full`,
/// `gemm::gemm` -> `gemm_gemm`.
std::string identifier(llvm::StringRef Name);
/// `file:line:column` of \p R, for comments naming where code comes from.
std::string position(const hir::SourceRange &R);
/// The runtime's enumerators for a swizzle mode: the shared-memory
/// descriptor's and the tensor map's.
const char *smemSwizzle(SwizzleMode M);
const char *tmaSwizzle(SwizzleMode M);
/// The runtime's `tf::DType` enumerator of \p T.
std::string dtypeEnum(DType T);
/// The device function, named as elementwiseName(\p Op), that a fused
/// epilogue calls for \p Op; null for the ops written as an expression.
const char *activationFunction(lower::ElementwiseOp Op);
/// The activation a register op computes with a function of
/// activationFunction (gelu, silu); none for the others.
std::optional<lower::ElementwiseOp> activationOf(lower::RegisterOp Op);
/// The device functions through which fused epilogues read global memory.
const char *epilogueLoadFunctions();

/// One kernel's device function and launcher.
class KernelEmitter {
public:
  KernelEmitter(const lower::Kernel &K, const CudaOptions &Opts,
                llvm::raw_ostream &OS)
      : K(K), Opts(Opts), OS(OS), Id(identifier(K.Name)) {}

  llvm::Error run();

private:
  // Analysis before writing anything (EmitterAnalysis.cpp).
  llvm::Error collect();
  void collectUses(const std::vector<lower::InstId> &Body, lower::InstId Role,
                   llvm::Error &Err);
  std::set<std::string>
  usedVariables(const std::vector<lower::InstId> &Body) const;
  llvm::Expected<std::pair<std::int64_t, std::int64_t>>
  groupStrides(llvm::ArrayRef<lower::InstId> Run) const;
  /// Whether statement \p Id is a WGMMA atom call.
  bool isWgmma(lower::InstId Id) const {
    return lower::as<lower::sm90::Wgmma>(K.Insts[Id]);
  }

  // Pieces of the file: the constants and the __global__ function
  // (DeviceFunction.cpp), the host launcher and its registrar
  // (CudaEmitter.cpp).
  void constants();
  void deviceFunction();
  void launcher();
  void registrar();

  // Statements: structured ones (DeviceFunction.cpp), instructions
  // (DeviceInstructions.cpp).
  void body(const std::vector<lower::InstId> &Body, unsigned Indent);
  /// Statements [From, To) of \p Body.
  void body(const std::vector<lower::InstId> &Body, std::size_t From,
            std::size_t To, unsigned Indent);
  void stmt(lower::InstId Id, unsigned Indent);
  void extension(const lower::Stmt &S, const lower::sm90::Inst &I,
                 unsigned Indent);
  void role(lower::InstId Id, unsigned Indent);
  void wgmmaRun(const std::vector<lower::InstId> &Body, std::size_t &At,
                unsigned Indent);
  void storeFragment(lower::InstId Id, unsigned Indent);
  /// An element of a register pair as the epilogue reads other tensors at
  /// it: its tile position (Row, Col), which of the pair it is, and whether
  /// each tensor's pair was loaded as one (`NAME_pair`, storeFragment).
  struct PairElement {
    std::string Row, Col;
    unsigned Second = 0;
    bool PairLoaded = false;
  };
  /// The f32 expression of \p X after \p Ops for element \p At.
  std::string fragmentValue(llvm::ArrayRef<lower::FragmentOp> Ops,
                            std::string X, const PairElement &At) const;
  /// The read of \p L at element \p At.
  std::string loadValue(const lower::EpilogueLoad &L,
                        const PairElement &At) const;
  /// The register-pair loops of a store (storeFragment), with the pair
  /// loads of \p Paired (tensor, load) when not empty.
  void storePairs(lower::InstId Id, unsigned Indent,
                  llvm::ArrayRef<std::pair<std::string,
                                           const lower::EpilogueLoad *>>
                      Paired);
  void origin(const lower::Stmt &S, unsigned Indent);

  // Register programs (RegisterProgram.cpp).
  void collectRegisterStmt(const lower::Stmt &S);
  /// The register tiles' coordinate arrays and the register maps.
  void registerConstants();
  /// Declares the register tiles role \p Role writes, with the thread's
  /// part of each coordinate.
  void declareTiles(lower::InstId Role, unsigned Indent);
  void registerStmt(const lower::Stmt &S, unsigned Indent);
  void globalAccess(unsigned Tile, const lower::EpilogueLoad &G,
                    std::int64_t Vector, bool Store, unsigned Indent);
  /// Whether \p G's vector runs are aligned: unit stride along the last
  /// dimension, the other strides, the origin (\p Origin, one expression
  /// per dimension) and the data pointer multiples of the vector.
  std::string alignedCondition(const lower::EpilogueLoad &G,
                               llvm::ArrayRef<std::string> Origin,
                               std::int64_t Vector, DType Element) const;
  /// The condition under which every register access at the top of \p Body
  /// from \p From on needs no element check: each tile, all the role's
  /// threads' elements (its span, not one thread's part), lies inside its
  /// tensor, but for vector runs along the last dimension, which are
  /// aligned and inside or past its end as a whole (the extent a multiple
  /// of the vector; each run is predicated). The same for every thread of
  /// the role, so both copies body() writes may hold the role's barriers.
  /// Its terms, each distinct check once.
  std::vector<std::string>
  wholeTilesCondition(const std::vector<lower::InstId> &Body,
                      std::size_t From) const;
  /// Where \p Body splits into its leading lets and a register program
  /// written twice (wholeTilesCondition): the index of the first statement
  /// that is not a let, or none when the body holds no register access at
  /// its top, a let follows other statements, a load follows a store, or
  /// a copy is being written.
  std::optional<std::size_t>
  wholeTilesSplit(const std::vector<lower::InstId> &Body) const;
  void registerMath(const lower::RegisterMathStmt &I, unsigned Indent);
  void registerReduce(const lower::RegisterReduceStmt &I, unsigned Indent);
  void registerShare(const lower::RegisterShareStmt &I, unsigned Indent);
  void registerGather(const lower::RegisterGatherStmt &I, unsigned Indent);
  /// `partials[i * Slots + slot + Offset]`'s declarations: the scratch
  /// region's floats and the thread's slot, from \p Slot's terms.
  void declarePartials(lower::RegionId Scratch,
                       llvm::ArrayRef<lower::ThreadTerm> Slot, bool Write,
                       unsigned Indent);
  std::string scalarValue(const lower::ScalarExpr &E) const;
  std::string tileName(unsigned Tile) const;
  /// The first tile whose registers lie where \p Tile's do: the one whose
  /// coordinate arrays and thread parts \p Tile's accesses read.
  unsigned coordOwner(unsigned Tile) const;
  /// Coordinate \p D of register \p Reg (an expression) of tile \p Tile.
  std::string tileIndex(unsigned Tile, int D, const std::string &Reg) const;
  std::string registerMap(llvm::ArrayRef<std::int64_t> Map) const;
  /// The tensor parameters the device code reads or writes element by
  /// element (data and strides are kernel parameters), in order.
  std::set<unsigned> globalTensors() const {
    std::set<unsigned> All = LoadedTensors;
    All.insert(StoredTensors.begin(), StoredTensors.end());
    return All;
  }

  // Names and expressions (EmitterNames.cpp).
  std::string expr(lower::ExprId E) const;
  std::string barrier(lower::BarrierId Bar, lower::ExprId Slot) const {
    return identifier(K.Barriers[Bar].Name) + "[" + expr(Slot) + "]";
  }
  std::string stageAddress(hir::ValueId Ring, lower::ExprId Slot) const;
  std::string viewAddress(const lower::OperandView &V) const;
  std::string mapName(unsigned Map) const { return MapNames[Map]; }
  std::string accName(hir::ValueId Acc) const {
    return Accumulators.size() == 1 ? "acc" : "acc_" + std::to_string(Acc);
  }
  std::string descName(hir::ValueId Ring,
                       const lower::sm90::SmemDescriptor &D) const;
  const lower::Region &firstStage(hir::ValueId Ring) const;

  /// A broken invariant: the backend's supports test and lowering rules
  /// (backend/cuda_sm90) refuse, at their ops, what the emitter cannot
  /// write, so each problem found here is a bug in tf.
  llvm::Error problem(const hir::SourceRange &R, const llvm::Twine &What) {
    return lower::problemAt(R, "kernel " + K.Name + ": the CUDA backend " + What);
  }

  const lower::Kernel &K;
  const CudaOptions &Opts;
  llvm::raw_ostream &OS;
  const std::string Id;

  std::vector<std::string> MapNames;
  /// The run-time extents the device code reads: (parameter index, dim).
  std::set<std::pair<unsigned, unsigned>> Extents;
  /// The tensor parameters fused epilogues read from global memory (their
  /// data and strides are kernel parameters).
  std::set<unsigned> LoadedTensors;
  /// The tensor parameters register programs store into.
  std::set<unsigned> StoredTensors;
  /// The register maps of register programs (operands' Map, reductions'
  /// Into), each a constexpr array of this name.
  std::map<std::vector<std::int64_t>, std::string> RegisterMaps;
  /// (tile geometry owner, dimension): the coordinates accesses read.
  std::set<std::pair<unsigned, int>> UsedCoords;
  /// Ring value -> bytes between stages.
  std::map<hir::ValueId, std::int64_t> StageBytes;
  /// Accumulator value -> (N, blocks per issuing warpgroup, warpgroups).
  struct AccInfo {
    std::int64_t N = 0, Blocks = 0, Groups = 0;
  };
  std::map<hir::ValueId, AccInfo> Accumulators;
  /// Distinct descriptor templates (start 0) per ring, in first-use order.
  std::map<hir::ValueId, std::vector<lower::sm90::SmemDescriptor>> Descriptors;
  /// StoreFragment instruction -> its address decomposition.
  std::map<lower::InstId, AccumulatorStore> Stores;
  /// The roles whose bodies issue per-warpgroup work (WGMMA, fragment
  /// stores) and so need the thread's coordinates.
  std::set<lower::InstId> RoleNeedsGroups;
  /// The spatial axis' name per role (`group`).
  std::map<lower::InstId, std::string> RoleAxis;
  /// Per run of WGMMA instructions (by its first): the bytes by which warpgroup
  /// g's A and B operands start after warpgroup 0's, divided by g.
  std::map<lower::InstId, std::pair<std::int64_t, std::int64_t>> GroupStrides;
  /// The source line of the last origin comment written.
  unsigned LastLine = 0;
  /// The variables the statements being written read: a let nobody reads
  /// (the loader's tile coordinates in the compute role) is left out.
  std::set<std::string> Used;
  lower::InstId CurrentRole = lower::None;
  /// Whether the statements being written are the copy of a register
  /// program that runs where every tile access lies inside its tensor,
  /// aligned: accesses move vectors without checks. The fallback
  /// element-by-element paths keep ptxas from fitting LayerNorm's whole
  /// row in 64 registers when they share the program (280 bytes spilled
  /// at 8192 columns on 256 threads; none in the unchecked copy).
  bool WholeTiles = false;
  lower::InstId TileLoop = lower::None;
};

} // namespace tf::backend::sm90

#endif // TF_PLUGIN_BACKEND_CUDA_SM90_KERNELEMITTER_H
