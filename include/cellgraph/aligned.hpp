// A fixed-size array on a paragraph (256-byte) boundary: every state variable and the
// neighbor lists start on one, so warps load whole, aligned segments.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace cellgraph {

inline constexpr std::size_t kParagraph = 256;

template <class T>
class AlignedArray {
 public:
  AlignedArray() = default;
  explicit AlignedArray(std::size_t n) : size_(n) {
    if (n == 0) return;
    std::size_t bytes = (n * sizeof(T) + kParagraph - 1) / kParagraph * kParagraph;
    data_ = static_cast<T*>(std::aligned_alloc(kParagraph, bytes));
    if (!data_) throw std::bad_alloc();
    std::memset(static_cast<void*>(data_), 0, bytes);
  }
  AlignedArray(const AlignedArray& o) : AlignedArray(o.size_) {
    if (size_) std::memcpy(static_cast<void*>(data_), o.data_, size_ * sizeof(T));
  }
  AlignedArray(AlignedArray&& o) noexcept { swap(o); }
  AlignedArray& operator=(AlignedArray o) noexcept {
    swap(o);
    return *this;
  }
  ~AlignedArray() { std::free(data_); }

  void swap(AlignedArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace cellgraph
