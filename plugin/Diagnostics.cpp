//===- Diagnostics.cpp - Register tf diagnostics with Clang ---------------===//
//
// Turns the entries of Diagnostics.def into Clang custom diagnostics. Each
// DiagnosticIDs instance uniques custom descriptions itself, so registering on
// every report is cheap and works for every CompilerInstance in the process
// (clangd builds many).
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

using namespace clang;

namespace tf::plugin {
namespace {

/// A warning group: one of Clang's, one of tf's (by name), or none.
struct GroupRef {
  std::optional<diag::Group> Clang;
  const char *Tf = "";

  constexpr GroupRef(std::nullopt_t) {}
  constexpr GroupRef(diag::Group G) : Clang(G) {}
  struct TfName {
    const char *Name;
  };
  constexpr GroupRef(TfName N) : Tf(N.Name) {}
};

/// The names of a diagnostic's message arguments, %0 first.
struct ArgumentNames {
  std::array<llvm::StringRef, 8> Names{};
  std::size_t Size = 0;
};

template <class... Name> constexpr ArgumentNames argumentNames(Name... Names) {
  static_assert(sizeof...(Names) <= 8, "raise ArgumentNames' capacity");
  return {{llvm::StringRef(Names)...}, sizeof...(Names)};
}

/// 1 + the highest N of the %N in \p Message (Diagnostics.def's messages
/// use plain %N arguments only).
constexpr std::size_t messageArgumentCount(std::string_view Message) {
  std::size_t Count = 0;
  for (std::size_t I = 0; I + 1 < Message.size(); ++I)
    if (Message[I] == '%' && Message[I + 1] >= '0' && Message[I + 1] <= '9')
      Count = std::max<std::size_t>(Count, Message[I + 1] - '0' + 1);
  return Count;
}

template <class... Name> constexpr std::size_t nameCount(Name...) {
  return sizeof...(Name);
}

// Every entry names each of its message's arguments, no more.
#define TF_DIAG(Id, Class, Group, Message, ...)                                \
  static_assert(messageArgumentCount(Message) == nameCount(__VA_ARGS__),      \
                "Diagnostics.def: " #Id " must name each argument of its "     \
                "message once");
#include "Diagnostics.def"

struct Entry {
  DiagnosticIDs::Class Class;
  GroupRef Group;
  const char *Name;
  const char *Message;
  ArgumentNames Arguments;
};

constexpr DiagnosticIDs::Class Error = DiagnosticIDs::CLASS_ERROR;
constexpr DiagnosticIDs::Class Warning = DiagnosticIDs::CLASS_WARNING;
constexpr DiagnosticIDs::Class Note = DiagnosticIDs::CLASS_NOTE;
constexpr std::nullopt_t NoGroup = std::nullopt;
constexpr GroupRef::TfName TfGroup(const char *Name) { return {Name}; }
using enum diag::Group;

const Entry Entries[] = {
#define TF_DIAG(Id, Class, Group, Message, ...)                                \
  {Class, Group, #Id, Message, argumentNames(__VA_ARGS__)},
#include "Diagnostics.def"
};

diag::Severity defaultSeverity(DiagnosticIDs::Class Class) {
  switch (Class) {
  case DiagnosticIDs::CLASS_ERROR:
    return diag::Severity::Error;
  case DiagnosticIDs::CLASS_WARNING:
    return diag::Severity::Warning;
  default:
    // Clang gives notes the Fatal severity; the class makes them notes.
    return diag::Severity::Fatal;
  }
}

} // namespace

std::string diagCode(DiagId Id) {
  llvm::StringRef Name = Entries[static_cast<unsigned>(Id)].Name;
  for (llvm::StringRef Prefix : {"err_tf_", "warn_tf_", "note_tf_"})
    if (Name.consume_front(Prefix))
      break;
  std::string Code = Name.str();
  llvm::replace(Code, '_', '-');
  return Code;
}

std::optional<DiagId> diagIdOfCode(llvm::StringRef Code) {
  static const llvm::StringMap<DiagId> Ids = [] {
    llvm::StringMap<DiagId> M;
    for (unsigned I = 0; I < std::size(Entries); ++I)
      M[diagCode(static_cast<DiagId>(I))] = static_cast<DiagId>(I);
    return M;
  }();
  auto It = Ids.find(Code);
  if (It == Ids.end())
    return std::nullopt;
  return It->second;
}

llvm::StringRef diagName(DiagId Id) {
  return Entries[static_cast<unsigned>(Id)].Name;
}

DiagnosticIDs::Class diagClass(DiagId Id) {
  return Entries[static_cast<unsigned>(Id)].Class;
}

llvm::StringRef diagMessage(DiagId Id) {
  return Entries[static_cast<unsigned>(Id)].Message;
}

llvm::ArrayRef<llvm::StringRef> argumentNames(DiagId Id) {
  const ArgumentNames &A = Entries[static_cast<unsigned>(Id)].Arguments;
  return llvm::ArrayRef(A.Names).take_front(A.Size);
}

llvm::StringRef tfGroup(DiagId Id) {
  return Entries[static_cast<unsigned>(Id)].Group.Tf;
}

llvm::ArrayRef<llvm::StringRef> tfGroups() {
  static const std::vector<llvm::StringRef> Groups = [] {
    std::vector<llvm::StringRef> G;
    for (const Entry &E : Entries) {
      llvm::StringRef Name = E.Group.Tf;
      if (Name.empty())
        continue;
      G.push_back(Name);
      G.push_back(Name.split('-').first);
    }
    llvm::sort(G);
    G.erase(std::unique(G.begin(), G.end()), G.end());
    return G;
  }();
  return Groups;
}

DiagnosticBuilder report(DiagnosticsEngine &Diags, SourceLocation Loc,
                         DiagId Id, bool AsError) {
  const Entry &E = Entries[static_cast<unsigned>(Id)];
  DiagnosticIDs::Class Class = E.Class;
  std::string Message = E.Message;
  if (Class != DiagnosticIDs::CLASS_NOTE) {
    Message += " [";
    if (AsError && Class == DiagnosticIDs::CLASS_WARNING)
      Message += "-Werror,";
    Message += "tf:" + diagCode(Id) + "]";
  }
  if (AsError)
    Class = DiagnosticIDs::CLASS_ERROR;
  bool IsWarning = Class == DiagnosticIDs::CLASS_WARNING;
  // Clang 22 applies -w, -Werror and -Wno-error only to custom diagnostics
  // in a group, and takes no new groups: tf's groups sit inside Clang's
  // user-defined-warnings (that of diagnose_if, warnings a library defines).
  std::optional<diag::Group> Group = E.Group.Clang;
  if (*E.Group.Tf)
    Group = diag::Group::UserDefinedWarnings;
  DiagnosticIDs::CustomDiagDesc Desc(
      defaultSeverity(Class), Message, Class,
      /*ShowInSystemHeader=*/!IsWarning, /*ShowInSystemMacro=*/!IsWarning,
      Group);
  return Diags.Report(Loc, Diags.getDiagnosticIDs()->getCustomDiagID(Desc));
}

} // namespace tf::plugin
