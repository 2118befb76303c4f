#pragma once
// A read-only array that either owns its elements or views memory owned by someone else (a
// memory-mapped file), so a graph loaded from the binary format is used in place without a copy.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace mlsys::gnn {

template <class T>
class Array {
 public:
  Array() = default;
  explicit Array(std::vector<T> v) : owned_(std::make_shared<std::vector<T>>(std::move(v))) {
    data_ = owned_->data();
    size_ = owned_->size();
  }
  Array(const T* data, size_t size, std::shared_ptr<const void> keep_alive)
      : data_(data), size_(size), keep_(std::move(keep_alive)) {}

  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  // True when the elements live in a mapped file rather than in memory this array owns.
  bool mapped() const { return keep_ != nullptr; }
  // What keeps the elements alive (the owned vector, or the mapping): a view that outlives this
  // array, e.g. a tensor over the features after the graph released them, holds it.
  std::shared_ptr<const void> owner() const { return owned_ ? std::shared_ptr<const void>(owned_) : keep_; }
  // Mapped arrays only: drops their pages from the process's resident set. The file stays mapped
  // (read-only, private) and a later read faults the pages back in, so this is safe at any time;
  // it is for data read once, e.g. the adjacency after a trainer built its own CSR.
  void release_pages() const {
    if (!mapped() || size_ == 0) return;
    const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t b = reinterpret_cast<uintptr_t>(data_) & ~(page - 1);
    const uintptr_t e = (reinterpret_cast<uintptr_t>(data_ + size_) + page - 1) & ~(page - 1);
    ::madvise(reinterpret_cast<void*>(b), e - b, MADV_DONTNEED);
  }

 private:
  std::shared_ptr<std::vector<T>> owned_;
  const T* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<const void> keep_;
};

}  // namespace mlsys::gnn
