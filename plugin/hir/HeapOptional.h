//===- plugin/hir/HeapOptional.h - An optional value on the heap -*- C++ -*-===//
//
// Part of the HIR (HIR.h). The contract engine's values are fixed-capacity
// constexpr structures: a MatchReport is about 360 KB. Held in a
// std::optional, it made every hir::Stmt that large, and the HIR builder
// keeps statements in its frames while it recurses over nested ops and
// blocks: a few levels of nesting overflowed the stack. HeapOptional has
// std::optional's interface and value semantics (a copy copies the value)
// and keeps the value on the heap.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_HIR_HEAPOPTIONAL_H
#define TF_PLUGIN_HIR_HEAPOPTIONAL_H

#include <memory>
#include <utility>

namespace tf::hir {

template <typename T> class HeapOptional {
public:
  HeapOptional() = default;
  HeapOptional(const HeapOptional &Other)
      : Value(Other.Value ? std::make_unique<T>(*Other.Value) : nullptr) {}
  HeapOptional(HeapOptional &&) noexcept = default;
  HeapOptional &operator=(const HeapOptional &Other) {
    if (this != &Other)
      Value = Other.Value ? std::make_unique<T>(*Other.Value) : nullptr;
    return *this;
  }
  HeapOptional &operator=(HeapOptional &&) noexcept = default;
  HeapOptional &operator=(T &&V) {
    Value = std::make_unique<T>(std::move(V));
    return *this;
  }
  HeapOptional &operator=(const T &V) {
    Value = std::make_unique<T>(V);
    return *this;
  }

  bool has_value() const { return Value != nullptr; }
  explicit operator bool() const { return has_value(); }
  void reset() { Value.reset(); }

  T &operator*() { return *Value; }
  const T &operator*() const { return *Value; }
  T *operator->() { return Value.get(); }
  const T *operator->() const { return Value.get(); }

private:
  std::unique_ptr<T> Value;
};

} // namespace tf::hir

#endif // TF_PLUGIN_HIR_HEAPOPTIONAL_H
