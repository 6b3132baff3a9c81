//===- DiagnosticLog.cpp - Diagnostics kept as data -----------------------===//
//
// DiagnosticLog.h. A tf diagnostic is known by the [tf:code] suffix of its
// message (errors and warnings) or by its message template (notes, which
// carry no code); its arguments are named from Diagnostics.def.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticLog.h"
#include "Diagnostics.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"

#include <string>

using namespace clang;

namespace tf::plugin {
namespace {

/// The level of a Clang diagnostic.
DiagnosticLevel levelOf(DiagnosticsEngine::Level Level) {
  switch (Level) {
  case DiagnosticsEngine::Warning:
    return DiagnosticLevel::Warning;
  case DiagnosticsEngine::Error:
  case DiagnosticsEngine::Fatal:
    return DiagnosticLevel::Error;
  default:
    return DiagnosticLevel::Note;
  }
}

/// The level of a Clang diagnostic's default mapping; one that only a flag
/// enables (-Wunused-variable, -pedantic's extensions) is a warning.
DiagnosticLevel defaultLevelOf(DiagnosticMapping Mapping) {
  switch (Mapping.getSeverity()) {
  case diag::Severity::Ignored:
  case diag::Severity::Warning:
    return DiagnosticLevel::Warning;
  case diag::Severity::Remark:
    return DiagnosticLevel::Note;
  default:
    return DiagnosticLevel::Error;
  }
}

/// The code of a tf error or warning from its message's `[tf:code]` or
/// `[-Werror,tf:code]` suffix, which is dropped from \p Message.
std::optional<DiagId> takeTfCode(std::string &Message) {
  llvm::StringRef M(Message);
  if (!M.ends_with("]"))
    return std::nullopt;
  std::size_t Open = M.rfind(" [");
  if (Open == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Tag = M.slice(Open + 2, M.size() - 1);
  Tag.consume_front("-Werror,");
  if (!Tag.consume_front("tf:"))
    return std::nullopt;
  std::optional<DiagId> Id = diagIdOfCode(Tag);
  if (Id)
    Message.resize(Open);
  return Id;
}

/// The tf note whose message template is \p Template.
std::optional<DiagId> tfNote(llvm::StringRef Template) {
  static const llvm::StringMap<DiagId> Notes = [] {
    llvm::StringMap<DiagId> M;
    for (unsigned I = 0; I < NumDiagIds; ++I) {
      DiagId Id = static_cast<DiagId>(I);
      if (diagClass(Id) == DiagnosticIDs::CLASS_NOTE)
        M[diagMessage(Id)] = Id;
    }
    return M;
  }();
  auto It = Notes.find(Template);
  if (It == Notes.end())
    return std::nullopt;
  return It->second;
}

/// Argument \p I of \p Info as its message shows it.
std::string argumentText(const Diagnostic &Info, unsigned I) {
  switch (Info.getArgKind(I)) {
  case DiagnosticsEngine::ak_std_string:
    return Info.getArgStdStr(I);
  case DiagnosticsEngine::ak_c_string:
    return Info.getArgCStr(I);
  case DiagnosticsEngine::ak_sint:
    return std::to_string(Info.getArgSInt(I));
  case DiagnosticsEngine::ak_uint:
    return std::to_string(Info.getArgUInt(I));
  default:
    // tf reports strings and integers only.
    return "";
  }
}

/// \p Info's arguments under the names of \p Id.
std::vector<DiagnosticArgument> namedArguments(DiagId Id,
                                               const Diagnostic &Info) {
  std::vector<DiagnosticArgument> Out;
  llvm::ArrayRef<llvm::StringRef> Names = argumentNames(Id);
  for (unsigned I = 0; I < Names.size() && I < Info.getNumArgs(); ++I)
    Out.push_back({Names[I].str(), argumentText(Info, I)});
  return Out;
}

/// The column of \p Loc (a file location) in Unicode code points.
unsigned codePointColumn(const SourceManager &SM, SourceLocation Loc) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  unsigned ByteColumn = SM.getColumnNumber(File, Offset, &Invalid);
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || ByteColumn == 0 || Offset > Buffer.size())
    return ByteColumn;
  llvm::StringRef Line = Buffer.slice(Offset - (ByteColumn - 1), Offset);
  unsigned Column = 1;
  for (char C : Line)
    Column += (static_cast<unsigned char>(C) & 0xC0) != 0x80;
  return Column;
}

/// The span from \p Begin to \p End (file locations in one file; End one
/// past the last character), or nothing.
std::optional<DiagnosticLocation>
span(const SourceManager &SM, SourceLocation Begin, SourceLocation End) {
  PresumedLoc PB = SM.getPresumedLoc(Begin);
  if (PB.isInvalid())
    return std::nullopt;
  DiagnosticLocation L;
  L.File = PB.getFilename();
  L.StartLine = PB.getLine();
  L.StartColumn = codePointColumn(SM, Begin);
  PresumedLoc PE = End.isValid() && SM.isWrittenInSameFile(Begin, End) &&
                           !SM.isBeforeInTranslationUnit(End, Begin)
                       ? SM.getPresumedLoc(End)
                       : PresumedLoc();
  if (PE.isInvalid()) {
    L.EndLine = L.StartLine;
    L.EndColumn = L.StartColumn;
  } else {
    L.EndLine = PE.getLine();
    L.EndColumn = codePointColumn(SM, End);
  }
  return L;
}

/// One past the end of \p R, a file location.
SourceLocation endOf(const SourceManager &SM, const LangOptions &LangOpts,
                     const CharSourceRange &R) {
  SourceLocation End = SM.getFileLoc(R.getEnd());
  if (R.isTokenRange())
    End = Lexer::getLocForEndOfToken(End, 0, SM, LangOpts);
  return End;
}

/// The caret of \p Info up to the end of the first highlighted range that
/// holds it (an empty range at the caret, where a fix-it inserts: the caret
/// alone), else of the caret's token.
std::optional<DiagnosticLocation> location(const SourceManager &SM,
                                           const LangOptions &LangOpts,
                                           const Diagnostic &Info) {
  SourceLocation Caret = SM.getFileLoc(Info.getLocation());
  for (const CharSourceRange &R : Info.getRanges()) {
    if (R.isInvalid())
      continue;
    SourceLocation Begin = SM.getFileLoc(R.getBegin());
    SourceLocation End = endOf(SM, LangOpts, R);
    if (R.isCharRange() && Begin == Caret && End == Caret)
      return span(SM, Caret, Caret);
    if (End.isInvalid() || !SM.isWrittenInSameFile(Begin, Caret) ||
        !SM.isWrittenInSameFile(End, Caret) ||
        SM.isBeforeInTranslationUnit(Caret, Begin) ||
        !SM.isBeforeInTranslationUnit(Caret, End))
      continue;
    return span(SM, Caret, End);
  }
  return span(SM, Caret, Lexer::getLocForEndOfToken(Caret, 0, SM, LangOpts));
}

std::optional<DiagnosticEdit> edit(const SourceManager &SM,
                                   const LangOptions &LangOpts,
                                   const FixItHint &H) {
  if (H.RemoveRange.isInvalid())
    return std::nullopt;
  SourceLocation Begin = SM.getFileLoc(H.RemoveRange.getBegin());
  std::optional<DiagnosticLocation> Deleted =
      span(SM, Begin, endOf(SM, LangOpts, H.RemoveRange));
  if (!Deleted)
    return std::nullopt;
  DiagnosticEdit E{std::move(*Deleted), H.CodeToInsert};
  if (H.InsertFromRange.isValid())
    E.Inserted = Lexer::getSourceText(H.InsertFromRange, SM, LangOpts).str();
  return E;
}

void locationJson(llvm::json::OStream &J, llvm::StringRef Key,
                  const std::optional<DiagnosticLocation> &L) {
  if (!L) {
    J.attribute(Key, nullptr);
    return;
  }
  J.attributeObject(Key, [&] {
    J.attribute("file", L->File);
    J.attribute("line", L->StartLine);
    J.attribute("column", L->StartColumn);
    J.attribute("end_line", L->EndLine);
    J.attribute("end_column", L->EndColumn);
  });
}

void argumentsJson(llvm::json::OStream &J,
                   llvm::ArrayRef<DiagnosticArgument> Arguments) {
  J.attributeObject("arguments", [&] {
    for (const DiagnosticArgument &A : Arguments)
      J.attribute(A.Name, A.Value);
  });
}

} // namespace

llvm::StringRef levelName(DiagnosticLevel Level) {
  switch (Level) {
  case DiagnosticLevel::Note:
    return "note";
  case DiagnosticLevel::Warning:
    return "warning";
  case DiagnosticLevel::Error:
    return "error";
  }
  llvm_unreachable("a DiagnosticLevel");
}

void DiagnosticLog::record(DiagnosticsEngine::Level Level,
                           const Diagnostic &Info,
                           const LangOptions &LangOpts) {
  if (Level == DiagnosticsEngine::Ignored)
    return;
  llvm::SmallString<256> Text;
  Info.FormatDiagnostic(Text);
  std::string Message(Text);
  std::optional<DiagnosticLocation> Loc;
  const SourceManager *SM =
      Info.hasSourceManager() ? &Info.getSourceManager() : nullptr;
  if (SM && Info.getLocation().isValid())
    Loc = location(*SM, LangOpts, Info);

  DiagnosticFix Fix;
  if (SM)
    for (const FixItHint &H : Info.getFixItHints())
      if (std::optional<DiagnosticEdit> E = edit(*SM, LangOpts, H))
        Fix.Edits.push_back(std::move(*E));

  bool IsNote = Level == DiagnosticsEngine::Note && !Records.empty();
  if (IsNote) {
    RecordedDiagnostic &Target = Records.back();
    if (!Fix.Edits.empty()) {
      Fix.Description = Message;
      Target.Fixes.push_back(std::move(Fix));
    }
    DiagnosticNote Note{std::move(Loc), std::move(Message), {}};
    if (DiagnosticIDs::IsCustomDiag(Info.getID()))
      if (std::optional<DiagId> Id = tfNote(
              Info.getDiags()->getDiagnosticIDs()->getDescription(
                  Info.getID())))
        Note.Arguments = namedArguments(*Id, Info);
    Target.Notes.push_back(std::move(Note));
    return;
  }
  RecordedDiagnostic R;
  R.Level = levelOf(Level);
  R.Code = ruleFor(Info, Message, R.Level, R.Arguments);
  R.Message = std::move(Message);
  R.Location = std::move(Loc);
  if (!Fix.Edits.empty()) {
    Fix.Description = R.Message;
    R.Fixes.push_back(std::move(Fix));
  }
  Records.push_back(std::move(R));
}

std::string DiagnosticLog::ruleFor(const Diagnostic &Info,
                                   std::string &Message, DiagnosticLevel Level,
                                   std::vector<DiagnosticArgument> &Arguments) {
  DiagnosticRule R;
  unsigned ID = Info.getID();
  bool Custom = DiagnosticIDs::IsCustomDiag(ID);
  if (Custom) {
    if (std::optional<DiagId> Id = takeTfCode(Message)) {
      // A warning promoted by -Werror is still a warning by default.
      R = {"tf:" + diagCode(*Id), diagName(*Id).str(), diagMessage(*Id).str(),
           diagClass(*Id) == DiagnosticIDs::CLASS_WARNING
               ? DiagnosticLevel::Warning
               : DiagnosticLevel::Error};
      Arguments = namedArguments(*Id, Info);
    }
  }
  if (R.Code.empty()) {
    DiagnosticIDs &IDs = *Info.getDiags()->getDiagnosticIDs();
    llvm::StringRef Option =
        Custom ? llvm::StringRef() : IDs.getWarningOptionForDiag(ID);
    R.Code = Option.empty() ? "clang:" + std::to_string(ID)
                            : "clang:-W" + Option.str();
    R.Template = IDs.getDescription(ID).str();
    if (Custom) {
      R.DefaultLevel = Level;
    } else {
      DiagnosticMapping Mapping = IDs.getDefaultMapping(ID);
      R.DefaultLevel = defaultLevelOf(Mapping);
      R.EnabledByDefault = Mapping.getSeverity() != diag::Severity::Ignored;
    }
  }
  auto [It, New] = RuleIndex.try_emplace(R.Code, Rules.size());
  if (New)
    Rules.push_back(R);
  return R.Code;
}

void diagnosticJson(llvm::json::OStream &J, const RecordedDiagnostic &D) {
  J.object([&] {
    J.attribute("level", levelName(D.Level));
    J.attribute("code", D.Code);
    J.attribute("message", D.Message);
    locationJson(J, "location", D.Location);
    argumentsJson(J, D.Arguments);
    J.attributeArray("notes", [&] {
      for (const DiagnosticNote &N : D.Notes)
        J.object([&] {
          J.attribute("message", N.Message);
          locationJson(J, "location", N.Location);
          argumentsJson(J, N.Arguments);
        });
    });
    J.attributeArray("fixes", [&] {
      for (const DiagnosticFix &F : D.Fixes)
        J.object([&] {
          J.attribute("description", F.Description);
          J.attributeArray("edits", [&] {
            for (const DiagnosticEdit &E : F.Edits)
              J.object([&] {
                locationJson(J, "range", E.Deleted);
                J.attribute("text", E.Inserted);
              });
          });
        });
    });
  });
}

} // namespace tf::plugin
