//===- plugin/cli/AnalyzeCommand.cpp - `tf analyze` -----------------------===//
//
//   tf analyze FILE... [--memory] [--rank] [--shape NAME=DxD...,...] [--json]
//              [--targets-dir DIR] -- FLAGS
//   tf analyze FILE... -p BUILD_DIR [...] [-- EXTRA FLAGS]
//
// Compiles each FILE as `tf hir` does (ToolRunner.h) and reports what each
// kernel costs on its target (analysis/Cost.h): waves of its CTAs and what a
// persistent grid (or one CTA per tile) changes, the flop of its
// contractions, the bytes moved through gmem, HBM and shared memory, its
// shared-memory and register peaks, the roofline no schedule beats and
// this schedule's estimated time (the busiest SM at the sustained rate, plus
// a fixed cost per main-loop step). --memory adds one line per buffer with
// its reuse window. --shape binds the run-time
// extents of tensor parameters by name; what stays symbolic is reported with
// precision=unknown. The text is stable and names files by their basename;
// --json prints one document in the form docs/schemas/analyze.schema.json
// describes. docs/analyze.md states the model, docs/cli.md the command;
// test/cli/analyze/ tests it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "QueryOutput.h"
#include "ToolRunner.h"

#include "analysis/Cost.h"
#include "analysis/Residence.h"
#include "hir/HIR.h"
#include "targets/TargetFacts.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace tf::cli {

cl::SubCommand AnalyzeSubcommand(
    "analyze",
    "What the kernels in C++ files cost on their targets: tf analyze FILE... "
    "-- FLAGS\n\n"
    "  tf analyze FILE... -- FLAGS      compile FILEs with these clang++ "
    "flags\n"
    "  tf analyze FILE... -p BUILD_DIR  use BUILD_DIR/compile_commands.json\n"
    "  tf analyze FILE...               no --, no -p: -std=c++20\n\n"
    "Waves of the CTAs (and what a persistent grid changes), flop, bytes "
    "moved per\nmemory level, shared-memory and register peaks, the roofline "
    "no schedule\nbeats and this schedule's estimated time; --memory adds each "
    "buffer's reuse\nwindow. Run-time extents "
    "come from --shape\n(a=8192x5120,b=5120x17408,...); what stays symbolic "
    "has precision=unknown.\nThe exit status is 0 when the query ran, 1 when "
    "a file has errors or --shape\ndoes not fit. See docs/analyze.md and "
    "docs/cli.md");

static cl::OptionCategory AnalyzeCategory("tf analyze options");

static FileOptions CommonOptions(AnalyzeSubcommand, AnalyzeCategory);
static cl::list<std::string>
    Shapes("shape", cl::sub(AnalyzeSubcommand), cl::CommaSeparated,
           cl::value_desc("NAME=DxD...,..."),
           cl::desc("The run-time extents of tensor parameters by name, "
                    "e.g. a=8192x5120,b=5120x17408"),
           cl::cat(AnalyzeCategory));
static cl::opt<bool> Memory("memory", cl::sub(AnalyzeSubcommand),
                            cl::desc("Add each buffer's reuse window"),
                            cl::cat(AnalyzeCategory));
static cl::opt<bool>
    Rank("rank", cl::sub(AnalyzeSubcommand),
         cl::desc("After the reports, the kernels of all FILEs ordered by "
                  "their estimated time (text only)"),
         cl::cat(AnalyzeCategory));
static cl::opt<bool>
    Json("json", cl::sub(AnalyzeSubcommand),
         cl::desc("Print one JSON document (docs/schemas/analyze.schema.json)"),
         cl::cat(AnalyzeCategory));

namespace {

/// The version of the JSON form; bumped when a field changes meaning.
constexpr int JsonVersion = 2;

using analysis::Precision;

/// \p X with at most \p Digits decimals, trailing zeros dropped.
std::string decimal(double X, int Digits = 2) {
  std::string S;
  raw_string_ostream(S) << format("%.*f", Digits, X);
  if (S.find('.') != std::string::npos) {
    while (S.back() == '0')
      S.pop_back();
    if (S.back() == '.')
      S.pop_back();
  }
  return S;
}

/// Bytes for people: "208 KiB", "52.5 MiB", "15.94 GiB".
std::string bytesText(double B) {
  static const char *Units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int U = 0;
  while (U < 4 && B >= 1024) {
    B /= 1024;
    ++U;
  }
  return decimal(B) + " " + Units[U];
}
std::string bytesText(std::optional<double> B) {
  return B ? bytesText(*B) : "unknown";
}
std::string bytesText(std::optional<std::int64_t> B) {
  return B ? bytesText(static_cast<double>(*B)) : "unknown";
}

std::string flopText(double F) {
  if (F >= 1e12)
    return decimal(F / 1e12) + " TFLOP";
  if (F >= 1e9)
    return decimal(F / 1e9) + " GFLOP";
  if (F >= 1e6)
    return decimal(F / 1e6) + " MFLOP";
  return decimal(F, 0) + " flop";
}

std::string secondsText(double S) {
  if (S >= 1)
    return decimal(S, 3) + " s";
  if (S >= 1e-6)
    return decimal(S * 1e3, 3) + " ms";
  return decimal(S * 1e6, 3) + " us";
}

/// "no tile padding", "1.2 % tile padding": the share of \p Flop outside
/// the tensors' extents.
std::string paddingText(double Flop, double Useful) {
  if (Flop <= 0 || Useful >= Flop)
    return "no tile padding";
  return decimal(100 * (1 - Useful / Flop), 1) + " % tile padding";
}

std::string yesNo(std::optional<bool> B) {
  return !B ? "unknown" : *B ? "yes" : "no";
}

std::string intText(std::optional<std::int64_t> X) {
  return X ? std::to_string(*X) : "unknown";
}

std::string precision(Precision P) {
  return ("precision=" + analysis::precisionName(P)).str();
}

std::string dims(const std::vector<std::int64_t> &Xs) {
  std::string Out;
  for (std::size_t I = 0; I < Xs.size(); ++I)
    Out += (I ? "x" : "") + std::to_string(Xs[I]);
  return Out;
}

const char *loopName(hir::LoopKind K) {
  switch (K) {
  case hir::LoopKind::PersistentTiles:
    return "persistent_tiles";
  case hir::LoopKind::GridTiles:
    return "grid_tiles";
  case hir::LoopKind::TileOffsets:
    break;
  }
  return "tile_offsets";
}

//===- --shape ------------------------------------------------------------===//

/// NAME -> extents, from --shape.
struct ShapeArgs {
  std::map<std::string, std::vector<std::int64_t>> Extents;
  /// The names some kernel has as a parameter.
  std::set<std::string> Used;
};

/// Reads --shape into \p Out; the error, if any.
std::optional<std::string> parseShapes(ShapeArgs &Out) {
  for (const std::string &Item : Shapes) {
    auto [Name, Text] = StringRef(Item).split('=');
    Name = Name.trim();
    if (Name.empty() || Text.empty())
      return "--shape '" + Item + "' is not NAME=EXTENTS (e.g. a=8192x5120)";
    SmallVector<StringRef, 4> Parts;
    Text.split(Parts, 'x');
    std::vector<std::int64_t> Extents;
    for (StringRef P : Parts) {
      std::int64_t E = 0;
      if (P.trim().getAsInteger(10, E) || E < 0)
        return "--shape '" + Item + "': '" + P.str() +
               "' is not an extent (a non-negative integer)";
      Extents.push_back(E);
    }
    if (!Out.Extents.emplace(Name.str(), Extents).second)
      return "--shape names '" + Name.str() + "' twice";
  }
  return std::nullopt;
}

/// The bindings of kernel \p K's parameters; the error when a shape does
/// not fit a parameter.
std::optional<std::string> bindShapes(const hir::Kernel &K, ShapeArgs &Args,
                                      analysis::Bindings &B) {
  for (hir::ValueId P : K.Parameters) {
    const hir::Value &V = K.Values[P];
    auto It = Args.Extents.find(V.Name);
    if (It == Args.Extents.end())
      continue;
    Args.Used.insert(V.Name);
    std::vector<std::optional<std::int64_t>> Static =
        analysis::extentsOf(K, P, nullptr);
    const std::vector<std::int64_t> &Given = It->second;
    if (Given.size() != Static.size())
      return "--shape " + V.Name + " has " + std::to_string(Given.size()) +
             " extents; parameter '" + V.Name + "' of " + K.Name + " has " +
             std::to_string(Static.size());
    for (std::size_t D = 0; D < Given.size(); ++D)
      if (Static[D] && *Static[D] != Given[D])
        return "--shape " + V.Name + ": extent " + std::to_string(D) +
               " is " + std::to_string(Given[D]) + "; parameter '" + V.Name +
               "' of " + K.Name + " has the static extent " +
               std::to_string(*Static[D]);
    B.Extents[P] = Given;
  }
  return std::nullopt;
}

//===- Results ------------------------------------------------------------===//

struct KernelResult {
  std::string Name;
  hir::SourceRange Range;
  std::string Target;
  /// Parameter -> its extents (static or bound; -1 where symbolic).
  std::vector<std::pair<std::string, std::vector<std::optional<std::int64_t>>>>
      Shape;
  /// Set when the kernel has a loaded target.
  std::optional<analysis::KernelCost> Cost;
};

using FileResult = FileAnswer<KernelResult>;

//===- Text ---------------------------------------------------------------===//

/// The device memory the traffic model's bytes come from: a GPU's HBM, a
/// CPU's DRAM.
StringRef memoryName(const analysis::WaveReport &W) {
  return W.Cpu ? "dram" : "hbm";
}

void printDistribution(const analysis::WaveReport &W,
                       const analysis::Distribution &D, raw_ostream &OS) {
  if (D.What.empty())
    return;
  OS << "  " << D.What << ": " << intText(D.CTAs) << " " << W.GridUnitName
     << "s";
  if (D.CtasPerSm) {
    OS << ", "
       << (D.CtasPerSmP == Precision::Exact ? "" : "at most ")
       << *D.CtasPerSm << " per " << W.UnitName << " (" << D.LimitedBy << ")";
  }
  OS << ": ";
  if (D.Waves) {
    bool AtLeast = D.WavesP == Precision::LowerBound;
    OS << (AtLeast ? "at least " : "") << *D.Waves
       << (*D.Waves == 1 && !AtLeast ? " wave" : " waves");
    if (AtLeast && D.WavesAtOnePerSm)
      OS << " (" << *D.WavesAtOnePerSm << " at one per " << W.UnitName << ")";
  } else {
    OS << "unknown waves";
  }
  if (D.MaxTilesPerCta && D.MinTilesPerCta && *D.MaxTilesPerCta > 1) {
    OS << "; ";
    if (*D.MinTilesPerCta != *D.MaxTilesPerCta)
      OS << *D.MinTilesPerCta << " to ";
    OS << *D.MaxTilesPerCta << " tiles per " << W.GridUnitName;
  } else if (W.Grid && D.CTAs && W.Grid->tiles() < *D.CTAs) {
    // Fewer tiles than CTAs: the rest find no work.
    OS << "; " << W.Grid->tiles() << " of the " << *D.CTAs << " "
       << W.GridUnitName << "s have a tile";
  }
  OS << "  " << precision(D.Waves ? D.WavesP : Precision::Unknown) << "\n";
}

/// "  time: 2.033 ms (compute-bound) precision=...; 718.3 TFLOP/s ...": a
/// time, what bounds it and the rate it gives, each with its precision.
void printTime(std::optional<double> Seconds, StringRef Bound, Precision TimeP,
               std::optional<double> Tflops, StringRef RateWhat,
               Precision RateP, raw_ostream &OS) {
  if (!Seconds) {
    OS << "  time: unknown " << precision(Precision::Unknown) << "\n";
    return;
  }
  OS << "  time: " << secondsText(*Seconds) << " (" << Bound << "-bound) "
     << precision(TimeP);
  if (Tflops)
    OS << "; " << decimal(*Tflops, 1) << " TFLOP/s" << RateWhat << " "
       << precision(RateP);
  OS << "\n";
}

/// The estimate: the busiest SM's work at the sustained rate, the L2
/// model's HBM bytes, the time and useful TFLOP/s they give.
void printEstimate(const analysis::EstimateReport &E, StringRef Unit,
                   StringRef Memory, raw_ostream &OS) {
  OS << "estimate (this schedule)\n";
  OS << "  compute: ";
  if (E.Tiles && E.TileFlop && E.BusiestTiles && E.BusyUnits && E.Units) {
    OS << *E.Tiles << (*E.Tiles == 1 ? " tile" : " tiles") << " of "
       << flopText(*E.TileFlop) << " on " << *E.BusyUnits << " of "
       << *E.Units << " " << Unit << "s, the busiest " << *E.BusiestTiles
       << (*E.BusiestTiles == 1 ? " tile" : " tiles");
    if (E.Rate)
      OS << " at " << decimal(*E.Rate / static_cast<double>(*E.Units) / 1e12)
         << " TFLOP/s per " << Unit << " (" << E.RateFact << " / "
         << *E.Units << ")";
    OS << " = "
       << (E.ComputeSeconds
               ? secondsText(*E.ComputeSeconds - E.StepSeconds.value_or(0))
               : "unknown")
       << "\n";
  } else {
    OS << "unknown\n";
  }
  if (E.BusiestSteps && E.StepOverhead && E.StepSeconds && E.ComputeSeconds)
    OS << "  steps: " << *E.BusiestSteps
       << " main-loop steps on the busiest " << Unit << " x "
       << secondsText(*E.StepOverhead)
       << " (pipeline.step_overhead) = " << secondsText(*E.StepSeconds)
       << ", compute " << secondsText(*E.ComputeSeconds) << " in all\n";
  OS << "  memory: " << bytesText(E.HbmBytes) << " (" << Memory << " above) = "
     << (E.MemorySeconds ? secondsText(*E.MemorySeconds) : "unknown") << "\n";
  printTime(E.Seconds, E.Bound, Precision::Estimate, E.Tflops, " useful",
            Precision::Estimate, OS);
}

void printCost(const analysis::KernelCost &C, raw_ostream &OS) {
  const analysis::WaveReport &W = C.Waves;
  OS << "waves on " << intText(W.Units) << " " << W.UnitName << "s\n";
  if (W.Loop != hir::None) {
    OS << "  tile loop: " << loopName(W.Kind) << " at " << position(W.Range);
    if (W.Kind == hir::LoopKind::PersistentTiles || W.GroupM > 1)
      OS << ", group_m=" << W.GroupM;
    if (W.ColumnMajor)
      OS << ", column-major";
    OS << ": ";
    if (W.Grid)
      OS << W.Grid->GM << " x " << W.Grid->GN << " = " << W.Grid->tiles()
         << " tiles";
    else
      OS << "unknown tiles (symbolic extents)";
    if (W.TileM && W.TileN)
      OS << " of " << *W.TileM << "x" << *W.TileN;
    OS << "\n";
  }
  OS << "  " << W.GridUnitName << "s per " << W.UnitName << ":";
  for (std::size_t I = 0; I < W.Limits.size(); ++I) {
    const analysis::OccupancyLimit &L = W.Limits[I];
    OS << (I ? "," : "") << " " << L.Resource << " "
       << (L.CtasPerSm ? std::to_string(*L.CtasPerSm) : "unknown") << " ("
       << L.Why << ")";
  }
  OS << "\n";
  printDistribution(W, W.Kernel, OS);
  printDistribution(W, W.Other, OS);

  OS << "compute\n";
  for (const analysis::ComputeOp &Op : C.Compute) {
    OS << "  " << Op.Name << " at " << position(Op.Range) << ": "
       << dims(Op.Domain) << " x " << intText(Op.Trips) << " = ";
    if (Op.Flop) {
      OS << flopText(*Op.Flop) << " (" << decimal(*Op.Flop, 0) << " flop, "
         << name(Op.Input) << ")";
      if (Op.UsefulFlop)
        OS << ", " << paddingText(*Op.Flop, *Op.UsefulFlop);
    } else
      OS << "unknown";
    OS << "  " << precision(Op.Flop ? Precision::Exact : Precision::Unknown)
       << "\n";
  }
  if (C.Compute.empty())
    OS << "  no contractions\n";

  const analysis::MemoryReport &M = C.Memory;
  OS << "memory\n";
  auto PerTensor = [&](bool Reads) {
    std::string Out;
    if (!M.GmemRead)
      return Out;
    for (const analysis::TensorTraffic &T : M.Tensors) {
      std::optional<double> B = Reads ? T.ReadBytes : T.WriteBytes;
      if (B && *B == 0)
        continue;
      Out += (Out.empty() ? "" : ", ") + T.Name + " " + bytesText(B);
    }
    return Out.empty() ? std::string() : " (" + Out + ")";
  };
  OS << "  gmem issued: reads " << bytesText(M.GmemRead) << PerTensor(true)
     << ", writes " << bytesText(M.GmemWrite) << PerTensor(false) << "  "
     << precision(M.GmemRead ? Precision::Exact : Precision::Unknown) << "\n";
  OS << "  reuse window: " << bytesText(M.ReuseWindow) << " of "
     << bytesText(M.CacheCapacity) << " (" << M.CacheFact
     << ") fits=" << yesNo(M.ReuseFits) << " "
     << precision(M.ReuseWindow ? Precision::UpperBound : Precision::Unknown)
     << "\n";
  OS << "  " << memoryName(W) << ": " << bytesText(M.Hbm);
  if (M.Hbm && M.GmemWrite && M.HbmRead)
    OS << " (reads " << bytesText(*M.HbmRead) << ", writes "
       << bytesText(*M.GmemWrite) << ")";
  if (M.CacheHeld && *M.CacheHeld < 1)
    OS << ", the cache holding " << decimal(100 * *M.CacheHeld, 1)
       << " % of the window";
  OS << "  " << precision(M.Hbm ? M.HbmP : Precision::Unknown) << "\n";
  if (M.GmemRead && M.GmemWrite && M.HbmReadIfFits) {
    OS << "    when the window fits " << bytesText(*M.HbmReadIfFits + *M.GmemWrite)
       << ", without reuse " << bytesText(*M.GmemRead + *M.GmemWrite)
       << ", each tensor once " << bytesText(M.Compulsory) << "\n";
  }
  // A CPU's workers have no shared memory or register file to share out:
  // these are a GPU CTA's.
  if (!W.Cpu) {
    OS << "  smem traffic: reads " << bytesText(M.SmemRead) << ", writes "
       << bytesText(M.SmemWrite) << "  "
       << precision(M.SmemRead ? Precision::Exact : Precision::Unknown) << "\n";

    const analysis::SharedMemoryReport &S = C.Smem;
    OS << "  shared memory peak: " << bytesText(S.Peak) << " of "
       << bytesText(S.Capacity) << " per CTA fits=" << yesNo(S.Fits) << " "
       << precision(S.P) << "\n";
    if (!S.Allocations.empty()) {
      OS << "   ";
      for (std::size_t I = 0; I < S.Allocations.size(); ++I) {
        const analysis::SharedAllocation &A = S.Allocations[I];
        OS << (I ? "," : "") << " " << A.Name << " ";
        if (A.Stages > 0 && A.SlotBytes)
          OS << A.Stages << " x " << bytesText(A.SlotBytes) << " = ";
        OS << bytesText(A.bytes());
      }
      OS << "\n";
    }
    const analysis::RegisterReport &R = C.Registers;
    OS << "  registers peak: ";
    if (R.Distributed) {
      OS << R.PerThread << " of " << intText(R.PerThreadMax) << " per thread ("
         << (R.MeshSpelling.empty() ? R.Mesh : R.MeshSpelling) << "), ";
    } else {
      OS << "not distributed over threads, ";
    }
    OS << R.PerCta << " of " << intText(R.PerCtaMax) << " per CTA ("
       << bytesText(static_cast<double>(R.PerCta) * 4)
       << ") fits=" << yesNo(R.Fits) << " " << precision(R.P) << "\n";
  }

  if (Memory) {
    OS << "buffers\n";
    for (const analysis::BufferReport &B : C.Buffers) {
      OS << "  buffer=" << B.Name << " memory=" << name(B.Where)
         << " holds=" << bytesText(B.Holds);
      if (B.HoldsRegisters)
        OS << " (" << *B.HoldsRegisters << " registers/thread)";
      OS << " time=" << B.Time << " space=" << B.Space << " reuse=";
      if (!B.Reused)
        OS << "none";
      else if (!B.Reuse)
        OS << "unknown";
      else if (B.Where == Storage::rmem)
        OS << *B.Reuse << " registers/thread";
      else
        OS << bytesText(B.Reuse);
      if (B.Reused)
        OS << " capacity="
           << (B.Where == Storage::rmem && B.Capacity
                   ? std::to_string(*B.Capacity) + " registers/thread"
                   : bytesText(B.Capacity))
           << " (" << B.Level << ") fits=" << yesNo(B.Fits);
      OS << " " << precision(B.P) << "\n";
    }
  }

  const analysis::RooflineReport &RL = C.Roofline;
  OS << "roofline (no schedule runs faster)\n";
  OS << "  compute: " << (RL.Flop ? flopText(*RL.Flop) : "unknown")
     << " useful at "
     << (RL.PeakFlops ? decimal(*RL.PeakFlops / 1e12, 1) + " TFLOP/s (" +
                            RL.PeakFact + ")"
                      : std::string("unknown peak"))
     << " = "
     << (RL.ComputeSeconds ? secondsText(*RL.ComputeSeconds) : "unknown")
     << "\n";
  OS << "  memory: " << bytesText(RL.HbmBytes) << ", each tensor once, at "
     << (RL.Bandwidth ? decimal(*RL.Bandwidth / 1e12, 2) + " TB/s (" +
                            RL.BandwidthFact + ")"
                      : std::string("unknown bandwidth"))
     << " = "
     << (RL.MemorySeconds ? secondsText(*RL.MemorySeconds) : "unknown") << "\n";
  printTime(RL.Seconds, RL.Bound, RL.P, RL.Tflops, "", Precision::UpperBound,
            OS);
  printEstimate(C.Estimate, C.Waves.UnitName, memoryName(C.Waves), OS);
}

void printText(const FileResult &F, raw_ostream &OS) {
  for (std::size_t I = 0; I < F.Kernels.size(); ++I) {
    const KernelResult &K = F.Kernels[I];
    if (I)
      OS << "\n";
    OS << "kernel " << K.Name << " at " << position(K.Range) << " on "
       << (K.Target.empty() ? "no target" : K.Target) << "\n";
    OS << "  shape:";
    for (const auto &[Name, Extents] : K.Shape) {
      OS << " " << Name << "=";
      for (std::size_t D = 0; D < Extents.size(); ++D)
        OS << (D ? "x" : "") << (Extents[D] ? std::to_string(*Extents[D]) : "?");
    }
    OS << "\n";
    if (!K.Cost) {
      OS << "  nothing to analyze: "
         << (K.Target.empty() ? "the kernel names no target"
                              : "its target could not be loaded")
         << "\n";
      continue;
    }
    if (!K.Cost->Symbolic.empty())
      OS << "  symbolic: " << join(K.Cost->Symbolic, ", ")
         << " (bind with --shape NAME=DxD...)\n";
    printCost(*K.Cost, OS);
  }
}

//===- JSON ---------------------------------------------------------------===//

void optInt(json::OStream &J, StringRef Key, std::optional<std::int64_t> X) {
  if (X)
    J.attribute(Key, *X);
  else
    J.attribute(Key, nullptr);
}
void optNum(json::OStream &J, StringRef Key, std::optional<double> X) {
  if (X)
    J.attribute(Key, static_cast<std::int64_t>(std::llround(*X)));
  else
    J.attribute(Key, nullptr);
}
void optReal(json::OStream &J, StringRef Key, std::optional<double> X) {
  if (X)
    J.attribute(Key, *X);
  else
    J.attribute(Key, nullptr);
}
void optBool(json::OStream &J, StringRef Key, std::optional<bool> X) {
  if (X)
    J.attribute(Key, *X);
  else
    J.attribute(Key, nullptr);
}
void optString(json::OStream &J, StringRef Key, StringRef S) {
  if (S.empty())
    J.attribute(Key, nullptr);
  else
    J.attribute(Key, S);
}
void precisionJson(json::OStream &J, StringRef Key, Precision P) {
  J.attribute(Key, analysis::precisionName(P));
}

void distributionJson(json::OStream &J, StringRef Key,
                      const analysis::Distribution &D) {
  if (D.What.empty()) {
    J.attribute(Key, nullptr);
    return;
  }
  J.attributeObject(Key, [&] {
    J.attribute("what", D.What);
    optInt(J, "ctas", D.CTAs);
    optInt(J, "ctas_per_unit", D.CtasPerSm);
    precisionJson(J, "ctas_per_unit_precision",
                  D.CtasPerSm ? D.CtasPerSmP : Precision::Unknown);
    optString(J, "limited_by", D.LimitedBy);
    optInt(J, "waves", D.Waves);
    precisionJson(J, "waves_precision",
                  D.Waves ? D.WavesP : Precision::Unknown);
    optInt(J, "waves_at_one_per_unit", D.WavesAtOnePerSm);
    optInt(J, "min_tiles_per_cta", D.MinTilesPerCta);
    optInt(J, "max_tiles_per_cta", D.MaxTilesPerCta);
  });
}

void costJson(json::OStream &J, const analysis::KernelCost &C) {
  const analysis::WaveReport &W = C.Waves;
  J.attributeObject("waves", [&] {
    if (W.Loop == hir::None) {
      J.attribute("loop", nullptr);
    } else {
      J.attributeObject("loop", [&] {
        J.attribute("kind", loopName(W.Kind));
        positionJson(J, W.Range);
        J.attribute("group_m", W.GroupM);
        J.attribute("column_major", W.ColumnMajor);
        optInt(J, "tiles_m", W.Grid ? std::optional(W.Grid->GM) : std::nullopt);
        optInt(J, "tiles_n", W.Grid ? std::optional(W.Grid->GN) : std::nullopt);
        optInt(J, "tiles",
               W.Grid ? std::optional(W.Grid->tiles()) : std::nullopt);
        optInt(J, "tile_m", W.TileM);
        optInt(J, "tile_n", W.TileN);
      });
    }
    optInt(J, "units", W.Units);
    J.attribute("unit", W.UnitName);
    J.attributeArray("limits", [&] {
      for (const analysis::OccupancyLimit &L : W.Limits)
        J.object([&] {
          J.attribute("resource", L.Resource);
          optInt(J, "ctas_per_unit", L.CtasPerSm);
          precisionJson(J, "precision",
                        L.CtasPerSm ? L.P : Precision::Unknown);
          J.attribute("why", L.Why);
        });
    });
    distributionJson(J, "kernel", W.Kernel);
    distributionJson(J, "alternative", W.Other);
  });
  J.attributeObject("compute", [&] {
    optNum(J, "flop", C.Flop);
    precisionJson(J, "precision", C.FlopP);
    J.attributeArray("ops", [&] {
      for (const analysis::ComputeOp &Op : C.Compute)
        J.object([&] {
          J.attribute("op", Op.Name);
          positionJson(J, Op.Range);
          J.attribute("dtype", std::string(name(Op.Input)));
          J.attributeArray("domain", [&] {
            for (std::int64_t D : Op.Domain)
              J.value(D);
          });
          optInt(J, "trips", Op.Trips);
          optNum(J, "flop", Op.Flop);
          optNum(J, "useful_flop", Op.UsefulFlop);
        });
    });
  });
  const analysis::MemoryReport &M = C.Memory;
  J.attributeObject("memory", [&] {
    J.attributeObject("gmem", [&] {
      optNum(J, "read_bytes", M.GmemRead);
      optNum(J, "write_bytes", M.GmemWrite);
      precisionJson(J, "precision",
                    M.GmemRead ? Precision::Exact : Precision::Unknown);
      J.attributeArray("tensors", [&] {
        for (const analysis::TensorTraffic &T : M.Tensors)
          J.object([&] {
            J.attribute("name", T.Name);
            optNum(J, "read_bytes", T.ReadBytes);
            optNum(J, "write_bytes", T.WriteBytes);
            optNum(J, "hbm_read_bytes_if_reuse_fits", T.HbmReadBytes);
            optNum(J, "tensor_bytes", T.TensorBytes);
          });
      });
    });
    J.attributeObject("reuse_window", [&] {
      optInt(J, "bytes", M.ReuseWindow);
      optInt(J, "capacity_bytes", M.CacheCapacity);
      J.attribute("capacity_fact", M.CacheFact);
      optBool(J, "fits", M.ReuseFits);
      optReal(J, "cache_held", M.CacheHeld);
      precisionJson(J, "precision", M.ReuseWindow ? Precision::UpperBound
                                                  : Precision::Unknown);
    });
    J.attributeObject("hbm", [&] {
      optNum(J, "bytes", M.Hbm);
      optNum(J, "bytes_if_reuse_fits",
             M.HbmReadIfFits && M.GmemWrite
                 ? std::optional(*M.HbmReadIfFits + *M.GmemWrite)
                 : std::nullopt);
      optNum(J, "bytes_without_reuse",
             M.GmemRead && M.GmemWrite
                 ? std::optional(*M.GmemRead + *M.GmemWrite)
                 : std::nullopt);
      optNum(J, "compulsory_bytes", M.Compulsory);
      precisionJson(J, "precision", M.Hbm ? M.HbmP : Precision::Unknown);
    });
    J.attributeObject("smem_traffic", [&] {
      optNum(J, "read_bytes", M.SmemRead);
      optNum(J, "write_bytes", M.SmemWrite);
      precisionJson(J, "precision",
                    M.SmemRead ? Precision::Exact : Precision::Unknown);
    });
    const analysis::SharedMemoryReport &S = C.Smem;
    J.attributeObject("shared_memory", [&] {
      J.attribute("peak_bytes", S.Peak);
      optInt(J, "capacity_bytes", S.Capacity);
      optBool(J, "fits", S.Fits);
      precisionJson(J, "precision", S.P);
      J.attributeArray("allocations", [&] {
        for (const analysis::SharedAllocation &A : S.Allocations)
          J.object([&] {
            J.attribute("name", A.Name);
            J.attribute("stages", static_cast<std::int64_t>(A.Stages));
            optInt(J, "slot_bytes", A.SlotBytes);
            optInt(J, "bytes", A.bytes());
          });
      });
    });
    const analysis::RegisterReport &R = C.Registers;
    J.attributeObject("registers", [&] {
      J.attribute("distributed", R.Distributed);
      J.attribute("per_thread", R.PerThread);
      optInt(J, "per_thread_max", R.PerThreadMax);
      optString(J, "mesh", R.MeshSpelling.empty() ? R.Mesh : R.MeshSpelling);
      J.attribute("per_cta", R.PerCta);
      optInt(J, "per_cta_max", R.PerCtaMax);
      J.attribute("undistributed", R.Undistributed);
      optBool(J, "fits", R.Fits);
      precisionJson(J, "precision", R.P);
    });
  });
  J.attributeArray("buffers", [&] {
    for (const analysis::BufferReport &B : C.Buffers)
      J.object([&] {
        J.attribute("name", B.Name);
        J.attribute("memory", std::string(name(B.Where)));
        optInt(J, "holds_bytes", B.Holds);
        optInt(J, "holds_registers", B.HoldsRegisters);
        J.attribute("time", B.Time);
        J.attribute("space", B.Space);
        J.attribute("reused", B.Reused);
        optInt(J, "reuse", B.Reused ? B.Reuse : std::nullopt);
        J.attribute("reuse_unit",
                    B.Where == Storage::rmem ? "registers" : "bytes");
        optInt(J, "capacity", B.Reused ? B.Capacity : std::nullopt);
        J.attribute("level", B.Level);
        optBool(J, "fits", B.Reused ? B.Fits : std::nullopt);
        precisionJson(J, "precision", B.P);
      });
  });
  const analysis::RooflineReport &RL = C.Roofline;
  J.attributeObject("roofline", [&] {
    optNum(J, "flop", RL.Flop);
    optReal(J, "peak_flop_per_s", RL.PeakFlops);
    optString(J, "peak_fact", RL.PeakFact);
    optNum(J, "hbm_bytes", RL.HbmBytes);
    optReal(J, "bandwidth_byte_per_s", RL.Bandwidth);
    optString(J, "bandwidth_fact", RL.Bandwidth ? RL.BandwidthFact : "");
    optReal(J, "compute_seconds", RL.ComputeSeconds);
    optReal(J, "memory_seconds", RL.MemorySeconds);
    optReal(J, "seconds", RL.Seconds);
    precisionJson(J, "seconds_precision", RL.Seconds ? RL.P : Precision::Unknown);
    optReal(J, "tflop_per_s", RL.Tflops);
    precisionJson(J, "tflop_per_s_precision",
                  RL.Tflops ? Precision::UpperBound : Precision::Unknown);
    optString(J, "bound", RL.Bound);
  });
  const analysis::EstimateReport &E = C.Estimate;
  J.attributeObject("estimate", [&] {
    optReal(J, "rate_flop_per_s", E.Rate);
    optString(J, "rate_fact", E.Rate ? E.RateFact : "");
    optInt(J, "units", E.Units);
    optInt(J, "tiles", E.Tiles);
    optNum(J, "tile_flop", E.TileFlop);
    optInt(J, "busiest_tiles", E.BusiestTiles);
    optInt(J, "busy_units", E.BusyUnits);
    optNum(J, "flop", E.Flop);
    optNum(J, "useful_flop", E.UsefulFlop);
    optNum(J, "hbm_bytes", E.HbmBytes);
    optReal(J, "bandwidth_byte_per_s", E.Bandwidth);
    optInt(J, "busiest_steps", E.BusiestSteps);
    optReal(J, "step_overhead_seconds", E.StepOverhead);
    optReal(J, "step_seconds", E.StepSeconds);
    optReal(J, "compute_seconds", E.ComputeSeconds);
    optReal(J, "memory_seconds", E.MemorySeconds);
    optReal(J, "seconds", E.Seconds);
    precisionJson(J, "seconds_precision",
                  E.Seconds ? Precision::Estimate : Precision::Unknown);
    optReal(J, "tflop_per_s", E.Tflops);
    precisionJson(J, "tflop_per_s_precision",
                  E.Tflops ? Precision::Estimate : Precision::Unknown);
    optString(J, "bound", E.Bound);
  });
}

/// --rank: every kernel with an estimate, fastest first, against the first;
/// then those without one. The schedules of one computation -- kernels in
/// several files or one, bound to the same --shape -- ranked by the model.
void printRanking(ArrayRef<FileResult> Files, raw_ostream &OS) {
  std::vector<const KernelResult *> Ranked, Unranked;
  for (const FileResult &F : Files)
    for (const KernelResult &K : F.Kernels)
      (K.Cost && K.Cost->Estimate.Seconds ? Ranked : Unranked).push_back(&K);
  // Stable: kernels with equal estimates stay in the order given.
  std::stable_sort(Ranked.begin(), Ranked.end(),
                   [](const KernelResult *A, const KernelResult *B) {
                     return *A->Cost->Estimate.Seconds <
                            *B->Cost->Estimate.Seconds;
                   });
  OS << "\nranking by the estimate (fastest first)\n";
  for (std::size_t I = 0; I < Ranked.size(); ++I) {
    const analysis::EstimateReport &E = Ranked[I]->Cost->Estimate;
    OS << "  " << I + 1 << ". " << Ranked[I]->Name << " at "
       << position(Ranked[I]->Range) << ": " << secondsText(*E.Seconds);
    if (E.Tflops)
      OS << ", " << decimal(*E.Tflops, 1) << " TFLOP/s useful";
    if (I > 0)
      OS << ", " << decimal(*E.Seconds / *Ranked[0]->Cost->Estimate.Seconds)
         << " x the first";
    OS << "\n";
  }
  for (const KernelResult *K : Unranked)
    OS << "  -  " << K->Name << " at " << position(K->Range)
       << ": no estimate ("
       << (!K->Cost ? "no target" : "an extent or a fact is unknown") << ")\n";
}

void printJson(ArrayRef<FileResult> Files, raw_ostream &OS) {
  printFilesJson(OS, JsonVersion, Files,
                 [](json::OStream &J, const KernelResult &K) {
    optString(J, "target", K.Target);
    J.attributeObject("shape", [&] {
      for (const auto &[Name, Extents] : K.Shape)
        J.attributeArray(Name, [&] {
          for (const std::optional<std::int64_t> &E : Extents)
            if (E)
              J.value(*E);
            else
              J.value(nullptr);
        });
    });
    if (!K.Cost) {
      J.attribute("analysis", nullptr);
      return;
    }
    J.attributeObject("analysis", [&] {
      J.attributeArray("symbolic", [&] {
        for (const std::string &S : K.Cost->Symbolic)
          J.value(S);
      });
      costJson(J, *K.Cost);
    });
  });
}

} // namespace

int runAnalyzeCommand() {
  ShapeArgs Args;
  if (std::optional<std::string> Error = parseShapes(Args))
    return usageError("analyze", *Error, Json);
  FileAnswers<KernelResult> Results;
  bool First = true;
  std::optional<std::string> BadShape;
  ToolOptions Opts = CommonOptions.toolOptions("analyze");
  Opts.Json = Json;
  Opts.Sink = [&](StringRef File, clang::ASTContext &, hir::Module &M,
                  ArrayRef<const targets::MergedTarget *> Targets) {
    FileResult &R = Results.add(File);
    for (std::size_t I = 0; I < M.Kernels.size(); ++I) {
      const hir::Kernel &K = M.Kernels[I];
      KernelResult KR;
      KR.Name = K.Name;
      KR.Range = K.Range;
      KR.Target = K.Target;
      analysis::Bindings B;
      if (std::optional<std::string> Error = bindShapes(K, Args, B)) {
        if (!BadShape)
          BadShape = std::move(Error);
        continue;
      }
      for (hir::ValueId P : K.Parameters)
        if (K.Values[P].Kind == hir::ValueKind::Tensor)
          KR.Shape.emplace_back(K.Values[P].Name,
                                analysis::extentsOf(K, P, &B));
      if (I < Targets.size() && Targets[I])
        KR.Cost = analysis::analyzeCost(K, *Targets[I], B);
      R.Kernels.push_back(std::move(KR));
    }
    if (!Json && !BadShape) {
      if (!First)
        outs() << '\n';
      First = false;
      printText(R, outs());
      outs().flush();
    }
  };
  Opts.DiagnosticSink = [&](StringRef File,
                            ArrayRef<plugin::RecordedDiagnostic> D) {
    Results.setDiagnostics(File, D);
  };
  int RC = runOnFiles(Opts);
  if (BadShape)
    return usageError("analyze", *BadShape, Json);
  for (const auto &[Name, Extents] : Args.Extents)
    if (RC == 0 && !Args.Used.count(Name))
      return usageError("analyze",
                        "--shape names '" + Name +
                            "', which no kernel has as a parameter",
                        Json);
  // Every file compiled, with its errors; nothing after a usage error.
  if (Json && !Results.Files.empty())
    printJson(Results.Files, outs());
  if (!Json && Rank && !Results.Files.empty())
    printRanking(Results.Files, outs());
  return RC;
}

} // namespace tf::cli
