//===- test/targets/TargetFactsTest.cpp - Fact loader tests ---------------===//
//
// The fact database: the real targets/ tree, merged views, the search order,
// and every validation rule through the malformed corpus in Inputs/:
//
//   Inputs/base/       a valid architecture (test.arch) loaded beside each
//                      corpus file, so device documents have something to name
//   Inputs/bad/*.toml  one document per error kind; its trailing
//                      `# expect: LINE:COL: error: MESSAGE` comments are the
//                      exact diagnostics, in order (`# expect: error: ...` for
//                      a diagnostic without a position)
//   Inputs/trees/*/    fact trees whose errors span documents
//
//===----------------------------------------------------------------------===//
#include "targets/TargetFacts.h"
#include "targets/TomlText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/RandomNumberGenerator.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <optional>
#include <random>
#include <tuple>

using namespace llvm;
using namespace tf::targets;

#ifndef TF_TARGETS_TEST_INPUTS
#error "TF_TARGETS_TEST_INPUTS must name test/targets/Inputs"
#endif

namespace {

std::string inputs(StringRef Rel) {
  SmallString<256> P(TF_TARGETS_TEST_INPUTS);
  sys::path::append(P, Rel);
  return std::string(P);
}

/// The diagnostics of a failed load, as printed; empty if it succeeded.
template <typename T> std::vector<std::string> errorsOf(Expected<T> &R) {
  std::vector<std::string> Out;
  if (R)
    return Out;
  handleAllErrors(
      R.takeError(),
      [&](const FactError &E) {
        for (const Diagnostic &D : E.diagnostics())
          Out.push_back(D.str());
      },
      [&](const ErrorInfoBase &E) { Out.push_back("unexpected: " + E.message()); });
  return Out;
}

FactDatabase loadOk(std::vector<std::pair<std::string, std::string>> Docs) {
  Expected<FactDatabase> DB = FactDatabase::loadBuffers(Docs);
  std::vector<std::string> Errors = errorsOf(DB);
  EXPECT_TRUE(Errors.empty()) << join(Errors, "\n");
  if (!DB)
    return cantFail(FactDatabase::loadBuffers({}));
  return std::move(*DB);
}

//===----------------------------------------------------------------------===//
// The real fact tree
//===----------------------------------------------------------------------===//

class RealTree : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    Expected<FactDatabase> R = FactDatabase::loadDirectory(defaultTargetsDir());
    std::vector<std::string> Errors = errorsOf(R);
    ASSERT_TRUE(Errors.empty()) << join(Errors, "\n");
    DB = new FactDatabase(std::move(*R));
  }
  static void TearDownTestSuite() { delete DB; }
  static FactDatabase *DB;
};
FactDatabase *RealTree::DB = nullptr;

TEST_F(RealTree, ListsEveryTargetOfIssue3) {
  EXPECT_EQ(DB->ids(),
            (std::vector<std::string>{"intel.amx", "nvidia.sm80", "nvidia.sm89",
                                      "nvidia.sm90", "intel.xeon_amx",
                                      "nvidia.a100_sxm", "nvidia.h100_sxm",
                                      "nvidia.h200_sxm"}));
  for (const TargetDocument &D : DB->documents()) {
    EXPECT_EQ(D.Schema, D.Kind == DocumentKind::Device ? DeviceSchema
                                                       : ArchitectureSchema);
    EXPECT_EQ(sys::path::stem(D.RelativePath), D.Id) << "file named by id";
    EXPECT_FALSE(D.Name.empty());
  }
}

TEST_F(RealTree, H200MergesItsArchitectures) {
  const TargetDocument *D = DB->find("nvidia.h200_sxm");
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Architectures, std::vector<std::string>{"nvidia.sm90"});
  MergedTarget M = DB->merge(*D);
  EXPECT_EQ(M.ArchitectureClosure,
            (std::vector<std::string>{"nvidia.sm90", "nvidia.sm89",
                                      "nvidia.sm80"}));
  const MergedFact *BW = M.fact("memory.hbm.bandwidth");
  ASSERT_TRUE(BW);
  EXPECT_EQ(BW->F->ValueKind, Fact::Kind::Integer);
  EXPECT_EQ(BW->F->Int, 4800000000000);
  EXPECT_EQ(BW->F->Unit, "byte/s");
  EXPECT_EQ(BW->F->How, Origin::Vendor);
  EXPECT_EQ(BW->From, "nvidia.h200_sxm");
  EXPECT_EQ(M.fact("cta.shared_memory.max")->F->Int, 227 * 1024);
  EXPECT_EQ(M.fact("sm.shared_memory.capacity")->F->Int, 228 * 1024);
  EXPECT_EQ(M.fact("cluster.ctas.portable_max")->F->Int, 8);
  EXPECT_EQ(M.fact("cluster.ctas.nonportable_max")->F->Int, 16);
  EXPECT_EQ(M.fact("tensor_core.dense.bf16")->F->Int, 989500000000000);
  // Architecture facts reach the device, marked with their document.
  const MergedFact *Ptx = M.fact("isa.ptx_target");
  ASSERT_TRUE(Ptx);
  EXPECT_EQ(Ptx->F->Str, "sm_90a");
  EXPECT_EQ(Ptx->From, "nvidia.sm90");
  // Capabilities from the whole closure, each from its nearest document.
  EXPECT_TRUE(M.hasCapability("wgmma.mma_async"));
  EXPECT_EQ(M.capability("wgmma.mma_async")->From, "nvidia.sm90");
  EXPECT_TRUE(M.hasCapability("setmaxnreg"));
  EXPECT_TRUE(M.hasCapability("cp.async.bulk.tensor.multicast"));
  EXPECT_TRUE(M.hasCapability("cluster"));
  EXPECT_EQ(M.capability("mma.sync.fp8")->From, "nvidia.sm89");
  EXPECT_EQ(M.capability("mma.sync")->From, "nvidia.sm80");
  EXPECT_FALSE(M.hasCapability("amx.bf16"));
  EXPECT_TRUE(std::is_sorted(M.Facts.begin(), M.Facts.end(),
                             [](const MergedFact &L, const MergedFact &R) {
                               return L.F->Key < R.F->Key;
                             }));
}

TEST_F(RealTree, CapabilitiesFollowIncludes) {
  MergedTarget A100 = DB->merge(*DB->find("nvidia.a100_sxm"));
  EXPECT_TRUE(A100.hasCapability("mma.sync.bf16"));
  EXPECT_TRUE(A100.hasCapability("cp.async"));
  EXPECT_FALSE(A100.hasCapability("mma.sync.fp8"));
  EXPECT_FALSE(A100.hasCapability("wgmma.mma_async"));
  EXPECT_FALSE(A100.fact("tensor_core.dense.fp8")) << "A100 has no FP8";
  MergedTarget Sm89 = DB->merge(*DB->find("nvidia.sm89"));
  EXPECT_EQ(Sm89.ArchitectureClosure, std::vector<std::string>{"nvidia.sm80"});
  EXPECT_TRUE(Sm89.hasCapability("mma.sync.fp8"));
  EXPECT_TRUE(Sm89.hasCapability("ldmatrix"));
  EXPECT_FALSE(Sm89.hasCapability("stmatrix"));
  MergedTarget Xeon = DB->merge(*DB->find("intel.xeon_amx"));
  for (StringRef C : {"amx.tile", "amx.bf16", "amx.int8"})
    EXPECT_TRUE(Xeon.hasCapability(C)) << C.str();
  EXPECT_FALSE(Xeon.hasCapability("mma.sync"));
}

TEST_F(RealTree, DevicesCarryTheFactsIssue3AsksFor) {
  const char *Gpu[] = {"sm.count", "clock.sm.base", "clock.sm.boost",
                       "sm.shared_memory.capacity", "cta.shared_memory.max",
                       "sm.registers.capacity", "thread.registers.max",
                       "cta.threads.max", "sm.threads.max",
                       "memory.l2.capacity", "memory.hbm.capacity",
                       "memory.hbm.bandwidth", "tensor_core.dense.bf16",
                       "tensor_core.dense.f16", "tensor_core.dense.tf32",
                       "tensor_core.dense.int8"};
  for (StringRef Id : {"nvidia.h200_sxm", "nvidia.h100_sxm", "nvidia.a100_sxm"}) {
    MergedTarget M = DB->merge(*DB->find(Id));
    for (StringRef K : Gpu)
      EXPECT_TRUE(M.fact(K)) << Id.str() << " lacks " << K.str();
  }
  for (StringRef Id : {"nvidia.h200_sxm", "nvidia.h100_sxm"}) {
    MergedTarget M = DB->merge(*DB->find(Id));
    for (StringRef K : {"tensor_core.dense.fp8", "cluster.ctas.portable_max",
                        "cluster.ctas.nonportable_max"})
      EXPECT_TRUE(M.fact(K)) << Id.str() << " lacks " << K.str();
  }
  MergedTarget X = DB->merge(*DB->find("intel.xeon_amx"));
  for (StringRef K : {"cpu.cores", "clock.base", "clock.max",
                      "cache.l1d.capacity", "cache.l2.capacity",
                      "cache.l3.capacity", "amx.bf16.peak_per_core",
                      "amx.int8.peak_per_core", "amx.bf16.peak"})
    EXPECT_TRUE(X.fact(K)) << "intel.xeon_amx lacks " << K.str();
  EXPECT_EQ(X.fact("amx.bf16.peak_per_core")->F->Int, 1024);
  EXPECT_EQ(X.fact("amx.bf16.peak_per_core")->F->Unit, "flop/cycle/core");
}

TEST_F(RealTree, UnavailableFactsSayWhereTheyWillComeFrom) {
  unsigned Unavailable = 0;
  for (const TargetDocument &D : DB->documents())
    for (const Fact &F : D.Facts) {
      EXPECT_FALSE(StringRef(F.Source).trim().empty()) << F.Key;
      if (F.isAvailable())
        continue;
      ++Unavailable;
      EXPECT_TRUE(StringRef(F.Source).contains("measured") ||
                  StringRef(F.Source).contains("once"))
          << D.Id << " " << F.Key << ": " << F.Source;
    }
  EXPECT_GT(Unavailable, 0u);
}

//===----------------------------------------------------------------------===//
// Merging and the document model, on small buffers
//===----------------------------------------------------------------------===//

std::string arch(StringRef Id, StringRef Includes, StringRef Body) {
  return ("[spec]\nschema = \"tf.architecture/v1\"\nkind = \"architecture\"\n"
          "id = \"" + Id + "\"\nname = \"" + Id + "\"\n" +
          (Includes.empty() ? Twine("")
                            : "[compatibility]\nincludes = [" + Includes + "]\n") +
          Body)
      .str();
}

std::string device(StringRef Id, StringRef Archs, StringRef Body) {
  return ("[spec]\nschema = \"tf.device/v1\"\nkind = \"device\"\nid = \"" + Id +
          "\"\nname = \"" + Id + "\"\n[compatibility]\narchitectures = [" +
          Archs + "]\n" + Body)
      .str();
}

std::string cap(StringRef Name, bool V) {
  return ("[capabilities.\"" + Name + "\"]\nvalue = " + (V ? "true" : "false") +
          "\nunit = \"bool\"\norigin = \"vendor\"\nsource = \"s\"\n")
      .str();
}

std::string fact(StringRef Key, StringRef Value, StringRef Unit,
                 StringRef Origin = "vendor") {
  return ("[facts." + Key + "]\nvalue = " + Value + "\nunit = \"" + Unit +
          "\"\norigin = \"" + Origin + "\"\nsource = \"s\"\n")
      .str();
}

TEST(Merge, NearestCapabilityWinsAndFalseRemoves) {
  FactDatabase DB = loadOk({
      {"base.toml", arch("t.base", "", cap("a", true) + cap("b", true))},
      {"mid.toml", arch("t.mid", "\"t.base\"", cap("b", false) + cap("c", true))},
      {"top.toml", arch("t.top", "\"t.mid\"", cap("d", true))},
      {"dev.toml", device("t.dev", "\"t.top\"", fact("x.y", "1", "count"))},
  });
  MergedTarget M = DB.merge(*DB.find("t.dev"));
  EXPECT_EQ(M.ArchitectureClosure,
            (std::vector<std::string>{"t.top", "t.mid", "t.base"}));
  EXPECT_TRUE(M.hasCapability("a"));
  EXPECT_FALSE(M.hasCapability("b")) << "t.mid says false";
  ASSERT_TRUE(M.capability("b"));
  EXPECT_EQ(M.capability("b")->From, "t.mid");
  EXPECT_TRUE(M.hasCapability("c"));
  EXPECT_TRUE(M.hasCapability("d"));
  EXPECT_FALSE(M.hasCapability("e"));
  ASSERT_EQ(M.Facts.size(), 1u);
  EXPECT_EQ(M.Facts[0].F->Key, "x.y");
}

TEST(Merge, DiamondIncludesVisitEachArchitectureOnce) {
  FactDatabase DB = loadOk({
      {"r.toml", arch("t.root", "", cap("r", true))},
      {"a.toml", arch("t.a", "\"t.root\"", cap("a", true))},
      {"b.toml", arch("t.b", "\"t.root\"", cap("b", true))},
      {"d.toml", device("t.dev", "\"t.a\", \"t.b\"", fact("n", "1", "count"))},
  });
  MergedTarget M = DB.merge(*DB.find("t.dev"));
  EXPECT_EQ(M.ArchitectureClosure,
            (std::vector<std::string>{"t.a", "t.b", "t.root"}));
  EXPECT_EQ(M.Capabilities.size(), 3u);
}

TEST(Merge, DeviceSeesFactsOfItsListedArchitecturesOnly) {
  FactDatabase DB = loadOk({
      {"base.toml", arch("t.base", "", fact("isa.old", "\"1\"", "version"))},
      {"top.toml", arch("t.top", "\"t.base\"", fact("isa.new", "\"2\"", "version"))},
      {"dev.toml", device("t.dev", "\"t.top\"", fact("n", "2.5", "Hz"))},
  });
  MergedTarget M = DB.merge(*DB.find("t.dev"));
  EXPECT_TRUE(M.fact("isa.new"));
  EXPECT_FALSE(M.fact("isa.old")) << "includes pass capabilities, not facts";
  EXPECT_EQ(M.fact("n")->F->ValueKind, Fact::Kind::Float);
  EXPECT_EQ(M.fact("n")->F->valueText(), "2.5");
}

TEST(Facts, ValueKindsAndUnavailable) {
  FactDatabase DB = loadOk({
      {"a.toml", arch("t.a", "", "")},
      {"d.toml",
       device("t.d", "\"t.a\"",
              fact("a.int", "7", "count") + fact("a.float", "1.5e9", "Hz") +
                  fact("a.bool", "true", "bool") +
                  fact("a.name", "\"HBM3e\"", "name") +
                  fact("a.gone", "\"unavailable\"", "byte/s", "measured") +
                  "[facts.a.noted]\nvalue = 1\nunit = \"W\"\norigin = "
                  "\"estimated\"\nsource = \"s\"\nnote = \"n\"\n")},
  });
  MergedTarget M = DB.merge(*DB.find("t.d"));
  EXPECT_EQ(M.fact("a.int")->F->valueText(), "7");
  EXPECT_EQ(M.fact("a.float")->F->valueText(), "1.5e+09");
  EXPECT_EQ(M.fact("a.bool")->F->valueText(), "true");
  EXPECT_EQ(M.fact("a.name")->F->valueText(), "HBM3e");
  const Fact *Gone = M.fact("a.gone")->F;
  EXPECT_FALSE(Gone->isAvailable());
  EXPECT_EQ(Gone->valueText(), "unavailable");
  EXPECT_EQ(Gone->Unit, "byte/s");
  EXPECT_EQ(Gone->How, Origin::Measured);
  EXPECT_EQ(M.fact("a.noted")->F->Note, "n");
  EXPECT_EQ(M.fact("a.noted")->F->How, Origin::Estimated);
  EXPECT_EQ(M.fact("a.int")->F->Loc.Line, 8u);
  EXPECT_EQ(M.fact("a.int")->F->Loc.Column, 1u);
}

// Comments may hold any UTF-8; a '#' inside a string opens no comment; the
// quotes that may precede a multi-line string's closing delimiter belong to it.
TEST(TomlText, NonAsciiOnlyInComments) {
  auto at = [](StringRef Text) {
    std::optional<OutsideComment> C = findNonAsciiOutsideComments(Text);
    return C ? std::make_tuple(C->Line, C->Column, uint32_t(C->CodePoint))
             : std::make_tuple(0u, 0u, uint32_t(0));
  };
  using T = std::tuple<unsigned, unsigned, uint32_t>;
  EXPECT_EQ(at("a = 1 # \u00b5s \u2014 ok\n# \u00a7\n"), T(0, 0, 0));
  EXPECT_EQ(at("a = \"# \u00b5\"\n"), T(1, 8, 0xB5));
  EXPECT_EQ(at("a = '# \u00b5'\n"), T(1, 8, 0xB5));
  EXPECT_EQ(at("a = \"\\\"# \u00b5\"\n"), T(1, 10, 0xB5));
  EXPECT_EQ(at("a = \"\"\"x\"\"\"\"\" # \u00b5\nb = \u3001"), T(2, 5, 0x3001));
  EXPECT_EQ(at("a = '''\n#\n''' # \u00b5\n\u00a7"), T(4, 1, 0xA7));
  EXPECT_EQ(at("a = \"\"\"\\\n\u00a7\"\"\""), T(2, 1, 0xA7));
  EXPECT_EQ(at("\U0001F600"), T(1, 1, 0x1F600));
  // Not UTF-8: left to the parser, which reports it where it stands.
  EXPECT_EQ(at("a = 1\n\xff\xfe \u00a7"), T(0, 0, 0));
  EXPECT_EQ(at("\xed\xa0\x80"), T(0, 0, 0)); // a surrogate
  EXPECT_EQ(at("\xc0\xaf"), T(0, 0, 0));     // overlong
}

TEST(Facts, Vocabulary) {
  for (StringRef U : {"byte", "byte/s", "flop/s", "op/s", "Hz", "count",
                      "flop/cycle/core", "byte/SM", "byte/CTA",
                      "register/thread", "CTA/cluster", "W", "bool", "name"})
    EXPECT_TRUE(isKnownUnit(U)) << U.str();
  for (StringRef U : {"bytes", "B/s", "GB", "TFLOPS", "", "Byte"})
    EXPECT_FALSE(isKnownUnit(U)) << U.str();
  for (StringRef O : {"vendor", "measured", "cited", "derived", "estimated"})
    EXPECT_EQ(originName(*parseOrigin(O)), O);
  EXPECT_FALSE(parseOrigin("unavailable"));
  EXPECT_FALSE(parseOrigin("guessed"));
}

TEST(Facts, DocumentsAreSortedByKindThenId) {
  FactDatabase DB = loadOk({
      {"z.toml", device("a.dev", "\"z.arch\"", fact("n", "1", "count"))},
      {"y.toml", arch("z.arch", "", "")},
      {"x.toml", arch("b.arch", "", "")},
  });
  EXPECT_EQ(DB.ids(),
            (std::vector<std::string>{"b.arch", "z.arch", "a.dev"}));
}

//===----------------------------------------------------------------------===//
// The malformed corpus: one document per error kind, exact messages
//===----------------------------------------------------------------------===//

std::vector<std::string> corpusFiles() {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(inputs("bad"), EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".toml")
      Files.push_back(std::string(sys::path::filename(It->path())));
  llvm::sort(Files);
  return Files;
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, ExactDiagnostics) {
  std::string Path = inputs("bad/" + GetParam());
  auto Buf = MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buf)) << Path;
  std::vector<std::string> Want;
  SmallVector<StringRef, 32> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (StringRef L : Lines)
    if (L.consume_front("# expect: "))
      Want.push_back(L.starts_with("error:") ? Path + ": " + L.str()
                                                 : Path + ":" + L.str());
  ASSERT_FALSE(Want.empty()) << Path << " has no '# expect:' lines";
  Expected<FactDatabase> DB =
      FactDatabase::loadFiles({inputs("base/test.arch.toml"), Path});
  EXPECT_EQ(errorsOf(DB), Want);
}

INSTANTIATE_TEST_SUITE_P(Bad, Corpus, ::testing::ValuesIn(corpusFiles()),
                         [](const ::testing::TestParamInfo<std::string> &I) {
                           return std::string(sys::path::stem(I.param));
                         });

TEST(CorpusCoverage, HasOneDocumentPerErrorKind) {
  EXPECT_GE(corpusFiles().size(), 40u);
}

TEST(Trees, DuplicateId) {
  std::string D = inputs("trees/duplicate_id");
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(D);
  EXPECT_EQ(errorsOf(DB),
            std::vector<std::string>{
                D + "/b.toml:4:6: error: duplicate id 'test.arch' (first "
                    "defined at " + D + "/a.toml:4:6)"});
}

TEST(Trees, IncludeCycles) {
  std::string D = inputs("trees/include_cycle");
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(D);
  EXPECT_EQ(errorsOf(DB),
            (std::vector<std::string>{
                D + "/self.toml:8:13: error: architecture include cycle: "
                    "test.self -> test.self",
                D + "/z.toml:8:13: error: architecture include cycle: test.x "
                    "-> test.y -> test.z -> test.x"}));
}

TEST(Trees, DeviceUsedAsArchitecture) {
  std::string D = inputs("trees/device_as_architecture");
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(D);
  EXPECT_EQ(errorsOf(DB),
            (std::vector<std::string>{
                D + "/host.toml:8:13: error: 'test.one' in "
                    "'compatibility.includes' is a device, not an architecture",
                D + "/two.toml:8:31: error: 'test.one' in "
                    "'compatibility.architectures' is a device, not an "
                    "architecture"}));
}

TEST(Trees, FactDefinedByDeviceAndArchitecture) {
  std::string D = inputs("trees/fact_clash");
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(D);
  EXPECT_EQ(errorsOf(DB),
            std::vector<std::string>{
                D + "/device.toml:10:1: error: fact 'isa.version' of device "
                    "'test.device' is also defined by architecture "
                    "'test.arch' (" + D + "/arch.toml:7:1); device "
                    "'test.device' would see both"});
}

//===----------------------------------------------------------------------===//
// Files and directories
//===----------------------------------------------------------------------===//

class TempDir : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("tf-targets-test", Dir));
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }
  std::string path(StringRef Rel) {
    SmallString<256> P(Dir);
    sys::path::append(P, Rel);
    return std::string(P);
  }
  void write(StringRef Rel, StringRef Text) {
    SmallString<256> P(path(Rel));
    sys::fs::create_directories(sys::path::parent_path(P));
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  SmallString<256> Dir;
};

TEST_F(TempDir, MissingDirectory) {
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(path("nope"));
  EXPECT_EQ(errorsOf(DB),
            std::vector<std::string>{
                path("nope") + ": error: cannot open targets directory: No "
                               "such file or directory"});
}

TEST_F(TempDir, NotADirectory) {
  write("file", "x");
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(path("file"));
  EXPECT_EQ(errorsOf(DB),
            std::vector<std::string>{path("file") + ": error: cannot open "
                                                    "targets directory: not a "
                                                    "directory"});
}

TEST_F(TempDir, EmptyDirectory) {
  write("README", "no toml here");
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(Dir);
  EXPECT_EQ(errorsOf(DB),
            std::vector<std::string>{
                std::string(Dir) + ": error: no fact documents (*.toml) in "
                                   "the targets directory"});
}

TEST_F(TempDir, UnreadableFileIsReportedAndOthersStillChecked) {
  write("archs/a.toml", arch("t.a", "", ""));
  write("devs/bad.toml", "[spec\n");
  ASSERT_FALSE(sys::fs::create_link(path("missing-target"), path("dangling.toml")));
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(Dir);
  std::vector<std::string> E = errorsOf(DB);
  ASSERT_EQ(E.size(), 2u) << join(E, "\n");
  EXPECT_EQ(E[0], path("dangling.toml") +
                      ": error: cannot read file: No such file or directory");
  EXPECT_TRUE(StringRef(E[1]).starts_with(path("devs/bad.toml") +
                                          ":1:6: error: malformed TOML: "))
      << E[1];
}

TEST_F(TempDir, RecursesAndIgnoresOtherFiles) {
  write("a/b/c/deep.toml", arch("t.deep", "", ""));
  write("a/notes.md", "# not a fact document");
  write("dev.toml", device("t.dev", "\"t.deep\"", fact("n", "1", "count")));
  Expected<FactDatabase> DB = FactDatabase::loadDirectory(Dir);
  ASSERT_TRUE(bool(DB)) << join(errorsOf(DB), "\n");
  EXPECT_EQ(DB->find("t.deep")->RelativePath, "a/b/c/deep.toml");
  EXPECT_EQ(DB->find("t.dev")->RelativePath, "dev.toml");
  EXPECT_EQ(DB->root(), Dir.str());
}

TEST(Files, MissingFile) {
  Expected<FactDatabase> DB = FactDatabase::loadFiles({"/nonexistent/x.toml"});
  EXPECT_EQ(errorsOf(DB),
            std::vector<std::string>{"/nonexistent/x.toml: error: cannot read "
                                     "file: No such file or directory"});
}

//===----------------------------------------------------------------------===//
// Search order: --targets-dir, then TF_TARGETS_DIR, then the shipped facts
//===----------------------------------------------------------------------===//

TEST(SearchOrder, OptionThenEnvironmentThenDefault) {
  ::unsetenv("TF_TARGETS_DIR");
  TargetsDir D = resolveTargetsDir("");
  EXPECT_EQ(D.Why, TargetsDir::Choice::Default);
  EXPECT_EQ(D.Path, defaultTargetsDir());
  // This test is an executable of the build tree, which is laid out like an
  // installation: the facts are its share/tf/targets.
  EXPECT_TRUE(StringRef(D.Path).ends_with("/share/tf/targets")) << D.Path;
  EXPECT_TRUE(sys::fs::is_directory(D.Path)) << D.Path;

  ::setenv("TF_TARGETS_DIR", "/from/env", 1);
  D = resolveTargetsDir("");
  EXPECT_EQ(D.Why, TargetsDir::Choice::Environment);
  EXPECT_EQ(D.Path, "/from/env");

  D = resolveTargetsDir("/from/option");
  EXPECT_EQ(D.Why, TargetsDir::Choice::Option);
  EXPECT_EQ(D.Path, "/from/option");

  ::setenv("TF_TARGETS_DIR", "", 1);
  EXPECT_EQ(resolveTargetsDir("").Why, TargetsDir::Choice::Default);
  ::unsetenv("TF_TARGETS_DIR");
}

//===----------------------------------------------------------------------===//
// Robustness: mutated documents never crash the loader
//===----------------------------------------------------------------------===//

TEST(Robustness, MutatedDocumentsNeverCrash) {
  std::vector<std::pair<std::string, std::string>> Docs;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(defaultTargetsDir(), EC), End;
       It != End && !EC; It.increment(EC))
    if (sys::path::extension(It->path()) == ".toml") {
      auto Buf = MemoryBuffer::getFile(It->path());
      ASSERT_TRUE(bool(Buf));
      Docs.push_back({It->path(), (*Buf)->getBuffer().str()});
    }
  ASSERT_EQ(Docs.size(), 8u);
  std::mt19937 Rng(1234);
  const char Junk[] = "[]{}=\".,#\n\t 0a-\xff'";
  unsigned Failures = 0;
  for (int Round = 0; Round < 2000; ++Round) {
    auto Mutated = Docs;
    auto &Text = Mutated[Rng() % Mutated.size()].second;
    switch (Rng() % 4) {
    case 0: // truncate
      Text.resize(Rng() % (Text.size() + 1));
      break;
    case 1: // overwrite bytes
      for (int I = 0; I < 4 && !Text.empty(); ++I)
        Text[Rng() % Text.size()] = Junk[Rng() % (sizeof(Junk) - 1)];
      break;
    case 2: { // delete a line
      SmallVector<StringRef, 64> Lines;
      StringRef(Text).split(Lines, '\n');
      size_t Drop = Rng() % Lines.size();
      std::string Out;
      for (size_t I = 0; I < Lines.size(); ++I)
        if (I != Drop)
          Out += Lines[I].str() + "\n";
      Text = Out;
      break;
    }
    case 3: // duplicate a span
      if (!Text.empty()) {
        size_t A = Rng() % Text.size();
        Text.insert(A, Text.substr(A, Rng() % 64));
      }
      break;
    }
    Expected<FactDatabase> DB = FactDatabase::loadBuffers(Mutated);
    std::vector<std::string> E = errorsOf(DB);
    if (!E.empty())
      ++Failures;
    for (const std::string &Line : E)
      EXPECT_NE(Line.find(": error: "), std::string::npos) << Line;
  }
  EXPECT_GT(Failures, 400u);
}

} // namespace
