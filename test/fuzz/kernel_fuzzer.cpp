//===- test/fuzz/kernel_fuzzer.cpp - Kernels from the language's grammar --===//
//
// A structure-aware fuzzer: the input bytes choose, production by
// production, a kernel source from the language's grammar -- meshes and
// their sub-meshes, tensor types with generated layout text (nested
// shapes, strides, axes, swizzles, offsets), atoms and schedules, tile
// loops (grid, persistent, K), ops (copy, matmul, schedule, casts,
// elementwise, reductions, insert_slice) and, now and then, what the
// language refuses (goto, while, early return, throw, recursion, wrong
// attribute subjects and arguments, huge and negative extents). The source
// is compiled in-process by the tf tool's driver (plugin/cli/ToolRunner.h):
// Clang's frontend with the plugin's consumer, checks, inference and
// lowering. Diagnostics are fine; a crash, a hang, a leak or undefined
// behaviour is not. Run with -close_fd_mask=3: diagnostics are printed.
//
//===----------------------------------------------------------------------===//
#include "ToolRunner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef TF_SOURCE_DIR
#error "TF_SOURCE_DIR (the source tree, for its include/) must be defined"
#endif

namespace {

/// Writes one kernel source, each choice taken from the input.
class KernelWriter {
public:
  explicit KernelWriter(FuzzedDataProvider &In) : In(In) {}

  std::string source() {
    Out += "#include <tf/tf.hpp>\n\nnamespace k {\n\n";
    constants();
    meshes();
    types();
    if (In.ConsumeBool())
      Out += "int recurse(int n) { return n ? recurse(n - 1) : 0; }\n";
    kernel();
    Out += "\n} // namespace k\n";
    return Out;
  }

private:
  FuzzedDataProvider &In;
  std::string Out;
  int Depth = 0;

  template <std::size_t N> const char *pick(const char *const (&Options)[N]) {
    return Options[In.ConsumeIntegralInRange<std::size_t>(0, N - 1)];
  }

  /// A number: mostly the sizes kernels use, sometimes an edge.
  std::string number() {
    static const char *const Numbers[] = {
        "1",  "2",   "3",   "4",   "8",    "16",  "32",        "64",
        "64", "128", "128", "192", "256",  "256", "384",       "512",
        "0",  "-1",  "-64", "7",   "4096", "132", "2147483647", "4294967296",
        "9223372036854775807"};
    return pick(Numbers);
  }

  /// Layout text from the notation's grammar (docs/layout/notation.md).
  std::string shape(int Level) {
    if (Level > 2 || In.ConsumeIntegralInRange(0, 2) == 0) {
      std::string Leaf = In.ConsumeIntegralInRange(0, 9) == 0 ? "?" : number();
      if (In.ConsumeIntegralInRange(0, 5) == 0)
        Leaf += std::string("@") + pick({"group", "warp", "lane8", "lane4"});
      return Leaf;
    }
    std::string T = "(";
    int Rank = In.ConsumeIntegralInRange(1, 3);
    for (int I = 0; I < Rank; ++I)
      T += (I ? "," : "") + shape(Level + 1);
    return T + ")";
  }

  std::string strides(const std::string &Shape) {
    std::string S;
    for (char C : Shape) {
      if (C == '(' || C == ')' || C == ',')
        S += C;
      else if (S.empty() || S.back() == '(' || S.back() == ',')
        S += number();
    }
    return S;
  }

  std::string layoutText() {
    static const char *const Known[] = {
        "(128,64)",
        "(64,256)",
        "(128,256)",
        "(?,?)",
        "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)",
        "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)",
        "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)",
        "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((16384,16,8,1),(512,"
        "128,64))",
        "[2@group 4@warp 8@lane8 4@lane4; 128 32 4 1]"};
    if (In.ConsumeBool())
      return pick(Known);
    std::string S = shape(0);
    std::string T = S;
    if (In.ConsumeBool())
      T += ":" + strides(S);
    if (In.ConsumeIntegralInRange(0, 3) == 0)
      T += " + " + number();
    if (In.ConsumeIntegralInRange(0, 3) == 0)
      T += " | Swizzle(" + number() + "," + number() + "," + number() + ")";
    return T;
  }

  const char *element() {
    return pick({"tf::bf16", "tf::bf16", "float", "tf::f16", "tf::fp8e4m3",
                 "tf::fp8e5m2", "tf::tf32", "int"});
  }

  void constants() {
    Out += "constexpr int BM = " + number() + ", BN = " + number() +
           ", BK = " + number() + ", STAGES = " + number() +
           ", CTAS = " + number() + ";\n";
  }

  void meshes() {
    Out += "inline constexpr tf::Mesh cta = tf::mesh(\"cta\", tf::layout<\"(" +
           (In.ConsumeBool() ? number() : std::string("?")) + ")\">, \"" +
           pick({"persistent", "tile"}) + "\");\n";
    std::string Groups = pick({"3", "2", "1", "4", "0"});
    Out += "inline constexpr tf::Mesh threads = tf::mesh(\"thread\", "
           "tf::layout<\"(" +
           Groups + ",128)\">, \"warpgroup\", \"participant\");\n";
    Out += "inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, " +
           std::string(pick({"1", "1", "2", "0"})) + "));\n";
    Out += "inline constexpr tf::Mesh compute = threads.sub(tf::range(1, " +
           Groups + "), tf::_).reshape<\"(" + pick({"2", "1", "3"}) +
           ",4,8,4)\">(\"group\", \"warp\", \"lane8\", \"lane4\");\n";
  }

  void types() {
    Out += std::string("using Wgmma = tf::nv::sm90::Wgmma<") +
           pick({"256", "128", "192", "64", "8", "24", "7"}) + ", " +
           element() + ", tf::Form::" + pick({"SS", "RS"}) + ", tf::Major::" +
           pick({"K", "MN"}) +
           (In.ConsumeBool() ? std::string(", tf::Major::") + pick({"K", "MN"})
                             : std::string()) +
           ">;\n";
    for (const char *Name : {"Acc", "LhsSlot", "RhsSlot", "Staged"}) {
      Out += std::string("using ") + Name + " = tf::Tensor<" +
             (Name[0] == 'A' ? std::string(In.ConsumeBool() ? "float"
                                                            : element())
                             : element()) +
             ", \"" + layoutText() + "\", " +
             pick({"tf::smem", "tf::rmem", "tf::gmem", "tf::smem"}) + ">;\n";
    }
    // Row- and column-major matrices (the majors of NT, TN and TT), and
    // what is not a matrix.
    Out += std::string("using Matrix = tf::Tensor<") + element() + ", \"" +
           pick({"(?,?)", "(?,?)", "(?,?):(1,?)", "(?,?,?)", "(?)",
                 "(4096,4096)"}) +
           "\">;\n";
    Out += std::string("using Vector = tf::Tensor<") + element() + ", \"" +
           pick({"(?)", "(?)", "(?,?)", "(256)"}) + "\">;\n";
  }

  void kernel() {
    if (In.ConsumeIntegralInRange(0, 7) == 0)
      Out += pick({"[[tf::kernel]]\n", "[[tf::kernel(1 +)]]\n",
                   "[[tf::mesh(cta)]]\n", "[[tf::kernel(tf::Mesh)]]\n",
                   "[[kernel(tf::target(\"nvidia.h200_sxm\"))]]\n"});
    else
      Out += std::string("[[tf::kernel(tf::target(\"") +
             pick({"nvidia.h200_sxm", "nvidia.h200_sxm", "nvidia.h100_sxm",
                   "nvidia.a100_sxm", "intel.xeon_amx", "no.such_target"}) +
             "\"), tf::topology(\"cta\", " +
             pick({"CTAS", "tf::dyn", "132", "0", "-1"}) +
             "), tf::topology(\"thread\", " +
             pick({"384", "256", "128", "383", "0"}) + "))]]\n";
    // Scalar parameters and epilogue operands (a C matrix, a bias vector).
    Out += std::string("void gemm(Matrix a, Matrix b, Matrix out") +
           pick({"", ", int scale", ", float alpha", ", Matrix c, float alpha",
                 ", Vector bias", ", Vector bias, float alpha, double beta"}) +
           ") {\n";
    Out += "  tf::Ring<LhsSlot, STAGES> lhs_ring;\n"
           "  tf::Ring<RhsSlot, STAGES> rhs_ring;\n"
           "  auto staged_tile = tf::empty<Staged>();\n"
           "  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);\n"
           "  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);\n";
    if (In.ConsumeBool())
      Out += "  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, "
             "{.group_m = " +
             number() + "})) {\n";
    else
      Out += "  for (auto [m, n] : tf::grid_tiles(cta, GM, GN)) {\n";
    statements(2);
    Out += "  }\n}\n";
  }

  /// Where a statement runs: on the loader, on compute, nowhere said, or
  /// somewhere the language refuses.
  std::string mesh() {
    return pick({"[[tf::mesh(compute)]] ", "[[tf::mesh(loader)]] ", "",
                 "[[tf::mesh(compute)]] ", "[[tf::mesh(threads)]] ",
                 "[[tf::mesh(cta)]] ", "[[tf::mesh(1)]] ",
                 "[[tf::layout(\"(4,4)\")]] "});
  }

  void statements(int Indent) {
    int Count = In.ConsumeIntegralInRange(1, 6);
    for (int I = 0; I < Count && In.remaining_bytes(); ++I)
      statement(Indent);
  }

  void statement(int Indent) {
    std::string Pad(Indent * 2, ' ');
    switch (In.ConsumeIntegralInRange(0, 15)) {
    case 0:
    case 1:
      Out += Pad + mesh() + "auto acc = tf::zeros<Acc>();\n";
      return;
    case 2:
    case 3:
      if (Depth > 2)
        return;
      ++Depth;
      Out += Pad + "for (std::int64_t k : tf::tile_offsets(a.extent(" +
             pick({"1", "0", "2"}) + "), " + pick({"BK", "BM", "0", "-1"}) +
             ")) {\n";
      statements(Indent + 1);
      Out += Pad + "}\n";
      --Depth;
      return;
    case 4:
      Out += Pad + mesh() +
             "auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, "
             "BK>(m * BM, " +
             pick({"k", "0", "n"}) + "), lhs_ring);\n";
      return;
    case 5:
      Out += Pad + mesh() +
             "auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<BK, "
             "BN>(" +
             pick({"k", "0", "m"}) + ", n * BN), rhs_ring);\n";
      return;
    case 6:
      Out += Pad + mesh() + "acc = tf::schedule<tf::TiledMma<Wgmma>" +
             (In.ConsumeBool() ? ", tf::Repeat<" + number() + ", " +
                                     number() + ", " + number() + ">"
                               : std::string()) +
             ">(acc, lhs, rhs);\n";
      return;
    case 7:
      Out += Pad + mesh() + "auto staged = tf::schedule<tf::Copy>(" +
             epilogue("acc") + ", staged_tile);\n";
      return;
    case 8:
      Out += Pad + mesh() +
             "tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<BM, "
             "BN>(m * BM, n * BN));\n";
      return;
    case 9:
      Out += Pad + "auto lhs = tf::empty<LhsSlot>();\n" + Pad +
             "auto rhs = tf::empty<RhsSlot>();\n" + Pad +
             "tf::copy(a.tile<BM, BK>(m * BM, 0), lhs);\n" + Pad +
             "tf::copy(b.tile<BK, BN>(0, n * BN), rhs);\n";
      return;
    case 10:
      Out += Pad + mesh() + "tf::matmul(acc, lhs, rhs);\n";
      return;
    case 11:
      Out += Pad + "tf::insert_slice(out, " + epilogue("acc") +
             ", m * BM, n * BN);\n";
      return;
    case 12:
      if (Depth > 2)
        return;
      ++Depth;
      Out += Pad + "[[tf::mesh(" + pick({"compute", "loader", "threads"}) +
             ")]] {\n";
      statements(Indent + 1);
      Out += Pad + "}\n";
      --Depth;
      return;
    case 13:
      Out += Pad + "auto red = tf::" + pick({"reduce_sum", "reduce_max"}) +
             "(acc);\n";
      return;
    case 14:
      unsupported(Pad);
      return;
    default:
      Out += Pad + "acc = " + epilogue("acc") + ";\n";
      return;
    }
  }

  /// Control flow and statements the language refuses.
  void unsupported(const std::string &Pad) {
    switch (In.ConsumeIntegralInRange(0, 6)) {
    case 0:
      Out += Pad + "goto done;\n" + Pad + "done:;\n";
      return;
    case 1:
      Out += Pad + "while (GM > 0) { break; }\n";
      return;
    case 2:
      Out += Pad + "if (GM == 0) return;\n";
      return;
    case 3:
      Out += Pad + "if (GN < 0) throw 1;\n";
      return;
    case 4:
      Out += Pad + "(void)recurse(3);\n";
      return;
    case 5:
      Out += Pad + "do { } while (false);\n";
      return;
    default:
      Out += Pad + "switch (GM) { case 0: break; }\n";
      return;
    }
  }

  std::string epilogue(const std::string &Value) {
    switch (In.ConsumeIntegralInRange(0, 8)) {
    case 0:
      return "tf::cast<tf::bf16>(" + Value + ")";
    case 1:
      return "tf::cast<tf::bf16>(tf::relu(" + Value + "))";
    case 2:
      return std::string("tf::") + pick({"neg", "exp", "relu", "gelu_tanh", "gelu_erf", "silu"}) + "(" +
             Value + ")";
    case 3:
      return std::string("tf::") +
             pick({"add", "mul", "sub", "maximum", "minimum"}) + "(" + Value +
             ", " + Value + ")";
    case 4:
      return "tf::cast<" + std::string(element()) + ">(" + Value + ")";
    // The epilogues that read kernel parameters (alpha_beta.cpp,
    // bias_gelu.cpp, residual.cpp): a float scale, a bias broadcast along a
    // mode, a C tile.
    case 5:
      return std::string("tf::scale(") + Value + ", " +
             pick({"alpha", "alpha", "scale", "2"}) + ")";
    case 6:
      return "tf::add(" + Value + ", tf::broadcast<" + pick({"0", "1", "2"}) +
             ">(tf::cast<float>(bias.tile<" + pick({"BN", "BM"}) + ">(" +
             pick({"n * BN", "m * BM", "0"}) + ")), " + Value + "))";
    case 7:
      if (In.ConsumeBool())
        return "tf::add(" + Value + ", tf::cast<float>(c.tile<BM, BN>(m * BM, " +
               "n * BN)))";
      return Value;
    default:
      return Value;
    }
  }
};

/// The fuzzer's directory: the kernel file and the precompiled tf headers.
std::string WorkDir;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("tf-kernel-fuzz", Dir))
    std::abort();
  WorkDir = Dir.str().str();
  const char *Argv[] = {"tf", "--", "-std=c++20", "-I" TF_SOURCE_DIR "/include",
                        "-ferror-limit=0"};
  tf::cli::takeCompilerFlags(5, Argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  FuzzedDataProvider In(Data, Size);
  std::string Source = KernelWriter(In).source();
  llvm::SmallString<128> File(WorkDir);
  llvm::sys::path::append(File, "kernel.cpp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    if (EC)
      std::abort();
    OS << Source;
  }
  tf::cli::ToolOptions Opts;
  Opts.Command = "kernel-fuzzer";
  Opts.Files = {File.str().str()};
  Opts.CacheDir = WorkDir;
  Opts.Sink = [](llvm::StringRef, clang::ASTContext &, tf::hir::Module &,
                 llvm::ArrayRef<const tf::targets::MergedTarget *>) {};
  Opts.LoweredSink = [](llvm::ArrayRef<tf::plugin::LoweredKernel>) {};
  (void)tf::cli::runOnFiles(Opts);
  return 0;
}
