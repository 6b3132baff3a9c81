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
// This file writes the file around the kernels and each kernel's host
// launcher; KernelEmitter.h says where the rest of a kernel is written.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/CudaEmitter.h"
#include "backend/cuda_sm90/KernelEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace tf::backend::sm90 {

using namespace lower;

void KernelEmitter::launcher() {
  OS << "void launch(const tf::runtime::LaunchRequest &request) {\n";
  OS << "  const tf::runtime::CudaCheck check{\"" << K.Name << "\"};\n";
  OS << "  if (request.args.size() != " << K.Parameters.size() << ")\n";
  OS << "    check.fail(\"launcher: %zu arguments given, the kernel has "
     << K.Parameters.size() << "\", request.args.size());\n";
  // Every parameter, checked against what the kernel was generated for
  // (a tensor read only for its extents too). A tensor with a map is found
  // in device memory when its map is encoded, not on every launch
  // (tf/runtime/host/arguments.hpp).
  for (std::size_t P = 0; P < K.Parameters.size(); ++P) {
    const Parameter &X = K.Parameters[P];
    if (X.What == Parameter::Kind::Integer) {
      OS << "  const int " << identifier(X.Name)
         << " = tf::runtime::integer_arg<" << X.ScalarType << ">(request, "
         << P << ", \"" << X.Name << "\", check);\n";
      continue;
    }
    if (X.What == Parameter::Kind::Float) {
      OS << "  const float " << identifier(X.Name)
         << " = tf::runtime::float_arg<" << X.ScalarType << ">(request, " << P
         << ", \"" << X.Name << "\", check);\n";
      continue;
    }
    const bool Mapped = llvm::any_of(
        K.Maps, [&](const TensorMap &T) { return T.Tensor == X.Name; });
    OS << "  const tf::runtime::TensorArg &" << identifier(X.Name)
       << " = tf::runtime::" << (Mapped ? "tensor_arg" : "device_tensor")
       << "(request, " << P << ", \"" << X.Name << "\", "
       << dtypeEnum(X.Element) << ", " << X.Rank << ", check);\n";
  }
  for (unsigned P : globalTensors())
    OS << "  tf::runtime::int32_offsets(" << identifier(K.Parameters[P].Name)
       << ", \"" << K.Parameters[P].Name << "\", check);\n";
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
  if (K.Persistent && K.ClusterCtas > 1)
    OS << "  // Persistent clusters: no more clusters than super-tiles (the\n"
          "  // loop's tiles); whole clusters of " << K.ClusterCtas << " CTAs.\n"
          "  const int grid = imin(topology, tiles * " << K.ClusterCtas << ");\n";
  else if (K.Persistent)
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
    OS << "  const std::uint32_t " << MapNames[M] << "_order[] = {"
       << llvm::join(
              llvm::map_range(T.Order, [](int D) { return std::to_string(D); }),
              ", ")
       << "};\n";
    OS << "  const CUtensorMap " << MapNames[M]
       << " = tf::runtime::cached_tensor_map(" << identifier(T.Tensor) << ", "
       << MapNames[M] << "_box, " << MapNames[M] << "_order, "
       << tmaSwizzle(T.Swizzle) << ", check);\n";
  }
  // Once per device, not inside every launch's host time.
  OS << "  static tf::runtime::PerDeviceOnce shared_memory_limit;\n"
     << "  shared_memory_limit(check, "
        "\"cudaFuncSetAttribute(MaxDynamicSharedMemorySize)\", [] {\n"
     << "    return cudaFuncSetAttribute(" << Id
     << ", cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);\n"
     << "  });\n";
  std::vector<std::string> Args(MapNames);
  for (auto [P, Dim] : Extents)
    Args.push_back(identifier(K.Parameters[P].Name) + "_extent" +
                   std::to_string(Dim));
  for (unsigned P : globalTensors()) {
    const Parameter &X = K.Parameters[P];
    const std::string Name = identifier(X.Name);
    Args.push_back("static_cast<" +
                   std::string(StoredTensors.count(P) ? "" : "const ") +
                   loadedType(X.Element) + " *>(" + Name + ".data)");
    for (int D = 0; D < X.Rank; ++D)
      Args.push_back("static_cast<int>(" + Name + ".strides[" +
                     std::to_string(D) + "])");
  }
  for (const Parameter &P : K.Parameters)
    if (P.What != Parameter::Kind::Tensor)
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
     << "#include \"tf/runtime/host/per_device_once.hpp\"\n"
     << "#include \"tf/runtime/host/tensor_map_cache.hpp\"\n"
     << "#include \"tf/runtime/kernel_args.hpp\"\n"
     << "#include \"tf/runtime/registry.hpp\"\n"
     << "#include \"tf/runtime/sm90/mbarrier.cuh\"\n"
     << "#include \"tf/runtime/sm90/register_tile.cuh\"\n"
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
  const bool Waits = llvm::any_of(
      Kernels, [](const Kernel &K) { return !K.Barriers.empty(); });
  if (!Waits)
    ; // no barriers, nothing waits
  else if (Opts.DebugWaits)
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
  // The activations the kernels' fused epilogues call, each once.
  std::set<ElementwiseOp> Activations;
  for (const Kernel &K : Kernels)
    for (const Stmt &S : K.Insts) {
      if (const auto *Store = S.getIf<StoreFragmentStmt>())
        for (const FragmentOp &F : Store->Epilogue)
          if (activationFunction(F.Op))
            Activations.insert(F.Op);
      if (const auto *Math = S.getIf<RegisterMathStmt>())
        if (std::optional<ElementwiseOp> Op = activationOf(Math->Op))
          Activations.insert(*Op);
    }
  if (!Activations.empty())
    OS << "\n// The fused epilogues' activations (tf/ops/activation_math.hpp "
          "in CUDA's f32 math).\n";
  for (ElementwiseOp Op : Activations)
    OS << activationFunction(Op);
  if (llvm::any_of(Kernels, [](const Kernel &K) {
        return llvm::any_of(K.Insts, [](const Stmt &S) {
          const auto *Store = S.getIf<StoreFragmentStmt>();
          return Store && readsGlobal(*Store);
        });
      }))
    OS << epilogueLoadFunctions();
  OS << "} // namespace tf_generated\n\n";
  llvm::Error Err = llvm::Error::success();
  for (const Kernel &K : Kernels)
    Err = llvm::joinErrors(std::move(Err), KernelEmitter(K, Opts, OS).run());
  return Err;
}

} // namespace tf::backend::sm90
