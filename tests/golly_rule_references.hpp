// Reference runs of Golly rule files by Golly 3.3's bgolly (Debian golly 3.3-1.1+b2) for the
// engine tests.
//
// Each row: the pattern (relative to data/patterns/), the rule (a file in data/rules/), the
// torus (Golly's ":TW,H" suffix), the neighborhood of the cellgraph grid that runs it (the
// rule's own; Golly runs every rule on the square grid, and so do Moore grids here), a
// generation, the population bgolly printed for it ("GENERATION: POPULATION", thousands
// separated), and the exact bgolly command, to run from the repository root. The last row of a
// group also has bgolly's final pattern, written by the command's "-o" (data/patterns/
// golly-rules/bgolly/): an RLE without a position, so the engine's cells are compared with it
// inside their bounding boxes. "-s data/rules/" is where bgolly finds NAME.rule; bounded grids
// step one generation at a time, hence "-i 1".
#pragma once

namespace cellgraph::testing {

struct GollyRuleReference {
  const char* pattern;       // relative to data/patterns/
  const char* rule;          // data/rules/RULE.rule
  int width, height;         // the torus
  const char* neighborhood;  // the grid's, as --neighborhood reads it
  int generation;
  long long population;   // non-zero cells after `generation` steps
  const char* final_rle;  // bgolly's -o output (relative to data/patterns/), or nullptr
  const char* command;    // the bgolly command that printed the population (and wrote final_rle)
};

inline constexpr GollyRuleReference kGollyRuleReferences[] = {
    // WireWorld (Moore @TABLE, rotate8): the population is the wiring, constant; the final state
    // shows the electrons.
    {"golly-rules/wireworld-circuit.rle", "WireWorld", 80, 80, "moore", 100, 583, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 100 -i 1 -r 'WireWorld:T80,80' "
     "data/patterns/golly-rules/wireworld-circuit.rle"},
    {"golly-rules/wireworld-circuit.rle", "WireWorld", 80, 80, "moore", 500, 583,
     "golly-rules/bgolly/wireworld-circuit.gen500.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 500 -i 1 -r 'WireWorld:T80,80' "
     "-o data/patterns/golly-rules/bgolly/wireworld-circuit.gen500.rle "
     "data/patterns/golly-rules/wireworld-circuit.rle"},

    // Langton's loops (von Neumann @TABLE, compact digits, rotate4): the colony wraps around the
    // torus.
    {"golly-rules/Langtons-Loops.rle", "Langtons-Loops", 64, 64, "vonneumann", 200, 219, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 200 -i 1 -r 'Langtons-Loops:T64,64' "
     "data/patterns/golly-rules/Langtons-Loops.rle"},
    {"golly-rules/Langtons-Loops.rle", "Langtons-Loops", 64, 64, "vonneumann", 1000, 1728, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 1000 -i 1 -r 'Langtons-Loops:T64,64' "
     "data/patterns/golly-rules/Langtons-Loops.rle"},
    {"golly-rules/Langtons-Loops.rle", "Langtons-Loops", 64, 64, "vonneumann", 2000, 1754,
     "golly-rules/bgolly/Langtons-Loops.gen2000.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 2000 -i 1 -r 'Langtons-Loops:T64,64' "
     "-o data/patterns/golly-rules/bgolly/Langtons-Loops.gen2000.rle "
     "data/patterns/golly-rules/Langtons-Loops.rle"},

    // Codd (von Neumann @TABLE of 286 transitions, rotate4).
    {"golly-rules/repeater-emitter-demo.rle", "Codd", 64, 64, "vonneumann", 100, 128, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 100 -i 1 -r 'Codd:T64,64' "
     "data/patterns/golly-rules/repeater-emitter-demo.rle"},
    {"golly-rules/repeater-emitter-demo.rle", "Codd", 64, 64, "vonneumann", 300, 145, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 300 -i 1 -r 'Codd:T64,64' "
     "data/patterns/golly-rules/repeater-emitter-demo.rle"},
    {"golly-rules/repeater-emitter-demo.rle", "Codd", 64, 64, "vonneumann", 1000, 206,
     "golly-rules/bgolly/repeater-emitter-demo.gen1000.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 1000 -i 1 -r 'Codd:T64,64' "
     "-o data/patterns/golly-rules/bgolly/repeater-emitter-demo.gen1000.rle "
     "data/patterns/golly-rules/repeater-emitter-demo.rle"},

    // A turmite (@TREE, 4 neighbors, 18 states).
    {"golly-rules/ComputerArt.rle", "Turmite_180121020081", 64, 64, "vonneumann", 1000, 151, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 1000 -i 1 -r 'Turmite_180121020081:T64,64' "
     "data/patterns/golly-rules/ComputerArt.rle"},
    {"golly-rules/ComputerArt.rle", "Turmite_180121020081", 64, 64, "vonneumann", 3000, 268,
     "golly-rules/bgolly/ComputerArt.gen3000.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 3000 -i 1 -r 'Turmite_180121020081:T64,64' "
     "-o data/patterns/golly-rules/bgolly/ComputerArt.gen3000.rle "
     "data/patterns/golly-rules/ComputerArt.rle"},

    // A triangular turmite (@TREE, 4 neighbors, 64 states).
    {"golly-rules/TriangularAnt_period92.rle", "TriTurmite_120010", 64, 64, "vonneumann", 1000, 11, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 1000 -i 1 -r 'TriTurmite_120010:T64,64' "
     "data/patterns/golly-rules/TriangularAnt_period92.rle"},
    {"golly-rules/TriangularAnt_period92.rle", "TriTurmite_120010", 64, 64, "vonneumann", 3000, 18,
     "golly-rules/bgolly/TriangularAnt_period92.gen3000.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 3000 -i 1 -r 'TriTurmite_120010:T64,64' "
     "-o data/patterns/golly-rules/bgolly/TriangularAnt_period92.gen3000.rle "
     "data/patterns/golly-rules/TriangularAnt_period92.rle"},

    // Life on the edge (@TREE, 8 neighbors, 4 states).
    {"golly-rules/life-on-the-edge.rle", "LifeOnTheEdge", 128, 64, "moore", 100, 501, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 100 -i 1 -r 'LifeOnTheEdge:T128,64' "
     "data/patterns/golly-rules/life-on-the-edge.rle"},
    {"golly-rules/life-on-the-edge.rle", "LifeOnTheEdge", 128, 64, "moore", 500, 2041,
     "golly-rules/bgolly/life-on-the-edge.gen500.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 500 -i 1 -r 'LifeOnTheEdge:T128,64' "
     "-o data/patterns/golly-rules/bgolly/life-on-the-edge.gen500.rle "
     "data/patterns/golly-rules/life-on-the-edge.rle"},

    // Paterson's worm 1040512 (Moore @TABLE of 17 states, no symmetries).
    {"golly-rules/worm-1040512.rle", "Worm-1040512", 64, 64, "moore", 1000, 766, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 1000 -i 1 -r 'Worm-1040512:T64,64' "
     "data/patterns/golly-rules/worm-1040512.rle"},
    {"golly-rules/worm-1040512.rle", "Worm-1040512", 64, 64, "moore", 3000, 2199,
     "golly-rules/bgolly/worm-1040512.gen3000.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 3000 -i 1 -r 'Worm-1040512:T64,64' "
     "-o data/patterns/golly-rules/bgolly/worm-1040512.gen3000.rle "
     "data/patterns/golly-rules/worm-1040512.rle"},

    // HexChiral (hexagonal @TABLE, rotate6, a bound variable; written for these tests) on the hex
    // grid.
    {"golly-rules/hex-soup.rle", "HexChiral", 64, 64, "hex", 10, 691, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 10 -i 1 -r 'HexChiral:T64,64' "
     "data/patterns/golly-rules/hex-soup.rle"},
    {"golly-rules/hex-soup.rle", "HexChiral", 64, 64, "hex", 100, 2164, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 100 -i 1 -r 'HexChiral:T64,64' "
     "data/patterns/golly-rules/hex-soup.rle"},
    {"golly-rules/hex-soup.rle", "HexChiral", 64, 64, "hex", 300, 2177, "golly-rules/bgolly/hex-soup.gen300.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 300 -i 1 -r 'HexChiral:T64,64' "
     "-o data/patterns/golly-rules/bgolly/hex-soup.gen300.rle "
     "data/patterns/golly-rules/hex-soup.rle"},

    // Rule 110 (oneDimensional @TABLE, compact digits; written for these tests) on rows of a 2D grid.
    {"golly-rules/rule110-soup.rle", "Rule110", 64, 32, "custom:-1,0;1,0", 10, 748, nullptr,
     "bgolly -a RuleLoader -s data/rules/ -m 10 -i 1 -r 'Rule110:T64,32' "
     "data/patterns/golly-rules/rule110-soup.rle"},
    {"golly-rules/rule110-soup.rle", "Rule110", 64, 32, "custom:-1,0;1,0", 100, 865,
     "golly-rules/bgolly/rule110-soup.gen100.rle",
     "bgolly -a RuleLoader -s data/rules/ -m 100 -i 1 -r 'Rule110:T64,32' "
     "-o data/patterns/golly-rules/bgolly/rule110-soup.gen100.rle "
     "data/patterns/golly-rules/rule110-soup.rle"},
};

}  // namespace cellgraph::testing
