// Bit-sliced Life: one bit per cell, a machine word holds 32 (GPU) or 64 (CPU) cells of a row,
// and the eight-neighbor count is added with bitwise full adders, every lane of the word at
// once. Written once for both word sizes (CG_HD); on the GPU each three-input function below
// is one LOP3 instruction.
//
// The count includes the cell itself (count9 = neighbors + alive): then the three-cell sum of
// a row serves the rows above and below it as well as its own.
#pragma once
#include <cstdint>

#include "cellgraph/dense/rule.hpp"
#include "cellgraph/hd.hpp"

namespace cellgraph::dense {

template <class Word>
struct TwoBits {  // per lane, a number 0..3
  Word lo, hi;
};

template <class Word>
struct Count9 {  // per lane, a number 0..9
  Word b0, b1, b2, b3;
};

template <class Word>
CG_HD inline Word majority(Word a, Word b, Word c) {
  return (a & b) | (c & (a ^ b));
}

// Picks `when_set` in the lanes where `select` is 1, `when_clear` elsewhere.
template <class Word>
CG_HD inline Word choose(Word when_clear, Word when_set, Word select) {
  return (when_clear & ~select) | (when_set & select);
}

// A row's three-cell sums: each lane's left neighbor, itself and its right neighbor.
template <class Word>
CG_HD inline TwoBits<Word> add3(Word left, Word centre, Word right) {
  return {left ^ centre ^ right, majority(left, centre, right)};
}

// The 3x3 count from the three-cell sums of the rows above, at and below the cell.
template <class Word>
CG_HD inline Count9<Word> add_rows(TwoBits<Word> a, TwoBits<Word> b, TwoBits<Word> c) {
  const Word b0 = a.lo ^ b.lo ^ c.lo, carry = majority(a.lo, b.lo, c.lo);  // carry: weight 2
  const Word twos = a.hi ^ b.hi ^ c.hi, fours = majority(a.hi, b.hi, c.hi);
  const Word b1 = twos ^ carry, carry4 = twos & carry;
  return {b0, b1, fours ^ carry4, fours & carry4};
}

// B3/S23 in count9 terms: born or staying at 3, staying at 4. b3 is not read: where it is set
// (count9 8 or 9) b2 is clear and so is b1, so neither test passes anyway; leaving it out lets
// the compiler drop its adder.
struct ConwayLogic {
  template <class Word>
  CG_HD Word operator()(Word alive, Count9<Word> n) const {
    const Word three = n.b0 & n.b1 & ~n.b2, four = ~n.b0 & ~n.b1 & n.b2;
    return three | (alive & four);
  }
};

// Any two-state Life-like rule with at most 8 neighbors: a lookup of (alive, count9) done
// with selects, 19 per word. Bit n of born9 / survive9: the next state for count9 = n.
struct TableLogic {
  std::uint32_t born9 = 0, survive9 = 0;

  explicit TableLogic(const LifeRule& rule)
      : born9(std::uint32_t(rule.birth & 0x1FF)), survive9(std::uint32_t(rule.survive & 0x1FF) << 1) {}

  template <class Word>
  CG_HD Word operator()(Word alive, Count9<Word> n) const {
    Word by_count[10];
    for (int c = 0; c < 10; ++c) by_count[c] = choose(mask<Word>(born9 >> c), mask<Word>(survive9 >> c), alive);
    const Word p0 = choose(by_count[0], by_count[1], n.b0), p1 = choose(by_count[2], by_count[3], n.b0);
    const Word p2 = choose(by_count[4], by_count[5], n.b0), p3 = choose(by_count[6], by_count[7], n.b0);
    const Word p4 = choose(by_count[8], by_count[9], n.b0);  // count9 >= 8: b1 = b2 = 0
    const Word low = choose(choose(p0, p1, n.b1), choose(p2, p3, n.b1), n.b2);
    return choose(low, p4, n.b3);
  }

 private:
  template <class Word>
  CG_HD static Word mask(std::uint32_t bit) {
    return Word(0) - Word(bit & 1u);
  }
};

}  // namespace cellgraph::dense
