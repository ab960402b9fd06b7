// Reference populations from Golly 3.3's bgolly (Debian golly 3.3-1.1+b2) for the engine tests.
//
// Each row: the pattern (relative to data/patterns/), the rule with Golly's bounded-grid suffix
// (":TW,H" torus, ":PW,H" bounded plane), the grid's width and height, a generation, the
// population bgolly printed for it, and the exact bgolly command, to run from the repository
// root: its last line reads "GENERATION: POPULATION" (bgolly writes thousands separators above
// 999, e.g. "4,408: 1,057"). bgolly forces step size 1 on bounded grids, hence "-i 1".
//
// Patterns go on the grid with place_pattern (Golly's bounded-grid placement). Generation 0 is
// left out: bgolly prints it before its first step drops the cells outside the grid.
#pragma once

namespace cellgraph::testing {

struct GollyReference {
  const char* pattern;  // relative to data/patterns/
  const char* rule;     // with its bounded-grid suffix
  int width, height;    // the grid
  int generation;
  long long population;  // live (non-zero) cells after `generation` steps
  const char* command;   // the bgolly command that printed it
};

inline constexpr GollyReference kGollyReferences[] = {
    // Unbounded-equivalent: grids large enough that nothing reaches the edge by the generation
    // shown. Checked with bgolly: on the bounded plane of the same size (:P) the population matched
    // the unbounded run ("bgolly -a QuickLife -m N -i 1 FILE") at every generation up to the last
    // one used, and the unbounded population at the generation shown is the one in the row.
    {"life/r-pentomino.rle", "B3/S23:T1024,1024", 1024, 1024, 100, 121,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:T1024,1024' data/patterns/life/r-pentomino.rle"},
    {"life/r-pentomino.rle", "B3/S23:T1024,1024", 1024, 1024, 500, 174,
     "bgolly -a QuickLife -m 500 -i 1 -r 'B3/S23:T1024,1024' data/patterns/life/r-pentomino.rle"},
    {"life/r-pentomino.rle", "B3/S23:T1024,1024", 1024, 1024, 1103, 116,
     "bgolly -a QuickLife -m 1103 -i 1 -r 'B3/S23:T1024,1024' data/patterns/life/r-pentomino.rle"},
    {"life/acorn.rle", "B3/S23:T2048,2048", 2048, 2048, 1000, 457,
     "bgolly -a QuickLife -m 1000 -i 1 -r 'B3/S23:T2048,2048' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T2048,2048", 2048, 2048, 3000, 565,
     "bgolly -a QuickLife -m 3000 -i 1 -r 'B3/S23:T2048,2048' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T4096,4096", 4096, 4096, 4408, 1057,
     "bgolly -a QuickLife -m 4408 -i 1 -r 'B3/S23:T4096,4096' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T4096,4096", 4096, 4096, 5206, 633,
     "bgolly -a QuickLife -m 5206 -i 1 -r 'B3/S23:T4096,4096' data/patterns/life/acorn.rle"},
    {"life/acorn.lif", "B3/S23:T2048,2048", 2048, 2048, 1000, 457,
     "bgolly -a QuickLife -m 1000 -i 1 -r 'B3/S23:T2048,2048' data/patterns/life/acorn.lif"},
    {"life/diehard.rle", "B3/S23:T64,64", 64, 64, 129, 2,
     "bgolly -a QuickLife -m 129 -i 1 -r 'B3/S23:T64,64' data/patterns/life/diehard.rle"},
    {"life/diehard.rle", "B3/S23:T64,64", 64, 64, 130, 0,
     "bgolly -a QuickLife -m 130 -i 1 -r 'B3/S23:T64,64' data/patterns/life/diehard.rle"},
    {"life/gosper-glider-gun.rle", "B3/S23:T256,256", 256, 256, 30, 41,
     "bgolly -a QuickLife -m 30 -i 1 -r 'B3/S23:T256,256' "
     "data/patterns/life/gosper-glider-gun.rle"},
    {"life/gosper-glider-gun.rle", "B3/S23:T256,256", 256, 256, 60, 46,
     "bgolly -a QuickLife -m 60 -i 1 -r 'B3/S23:T256,256' "
     "data/patterns/life/gosper-glider-gun.rle"},
    {"life/gosper-glider-gun.rle", "B3/S23:T256,256", 256, 256, 240, 76,
     "bgolly -a QuickLife -m 240 -i 1 -r 'B3/S23:T256,256' "
     "data/patterns/life/gosper-glider-gun.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:T128,128", 128, 128, 30, 41,
     "bgolly -a QuickLife -m 30 -i 1 -r 'B3/S23:T128,128' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:T128,128", 128, 128, 60, 46,
     "bgolly -a QuickLife -m 60 -i 1 -r 'B3/S23:T128,128' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:T128,128", 128, 128, 240, 76,
     "bgolly -a QuickLife -m 240 -i 1 -r 'B3/S23:T128,128' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/rabbits.lif", "B3/S23:T1024,1024", 1024, 1024, 2000, 497,
     "bgolly -a QuickLife -m 2000 -i 1 -r 'B3/S23:T1024,1024' data/patterns/life/rabbits.lif"},
    {"life/rabbits.lif", "B3/S23:T4096,4096", 4096, 4096, 8000, 1070,
     "bgolly -a QuickLife -m 8000 -i 1 -r 'B3/S23:T4096,4096' data/patterns/life/rabbits.lif"},

    // Small grids where gliders wrap (:T) or die at the edge (:P, Golly's bounded plane: a fixed
    // boundary of state 0). The plain gosper gun loses 4 cells on 64x64 when placed (bgolly still
    // prints 36 at generation 0, before its first step drops them), hence no generation-0 rows.
    {"life/acorn.rle", "B3/S23:T64,64", 64, 64, 100, 76,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:T64,64' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T64,64", 64, 64, 200, 169,
     "bgolly -a QuickLife -m 200 -i 1 -r 'B3/S23:T64,64' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T64,64", 64, 64, 500, 355,
     "bgolly -a QuickLife -m 500 -i 1 -r 'B3/S23:T64,64' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:P64,64", 64, 64, 100, 75,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:P64,64' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:P64,64", 64, 64, 200, 33,
     "bgolly -a QuickLife -m 200 -i 1 -r 'B3/S23:P64,64' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:P64,64", 64, 64, 500, 33,
     "bgolly -a QuickLife -m 500 -i 1 -r 'B3/S23:P64,64' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T37,23", 37, 23, 10, 30,
     "bgolly -a QuickLife -m 10 -i 1 -r 'B3/S23:T37,23' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T37,23", 37, 23, 50, 96,
     "bgolly -a QuickLife -m 50 -i 1 -r 'B3/S23:T37,23' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:T37,23", 37, 23, 100, 32,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:T37,23' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:P37,23", 37, 23, 10, 30,
     "bgolly -a QuickLife -m 10 -i 1 -r 'B3/S23:P37,23' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:P37,23", 37, 23, 50, 95,
     "bgolly -a QuickLife -m 50 -i 1 -r 'B3/S23:P37,23' data/patterns/life/acorn.rle"},
    {"life/acorn.rle", "B3/S23:P37,23", 37, 23, 100, 7,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:P37,23' data/patterns/life/acorn.rle"},
    {"life/r-pentomino.rle", "B3/S23:T64,64", 64, 64, 100, 121,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:T64,64' data/patterns/life/r-pentomino.rle"},
    {"life/r-pentomino.rle", "B3/S23:T64,64", 64, 64, 500, 247,
     "bgolly -a QuickLife -m 500 -i 1 -r 'B3/S23:T64,64' data/patterns/life/r-pentomino.rle"},
    {"life/r-pentomino.rle", "B3/S23:T31,17", 31, 17, 50, 64,
     "bgolly -a QuickLife -m 50 -i 1 -r 'B3/S23:T31,17' data/patterns/life/r-pentomino.rle"},
    {"life/r-pentomino.rle", "B3/S23:T31,17", 31, 17, 200, 40,
     "bgolly -a QuickLife -m 200 -i 1 -r 'B3/S23:T31,17' data/patterns/life/r-pentomino.rle"},
    {"life/diehard.rle", "B3/S23:T16,16", 16, 16, 50, 24,
     "bgolly -a QuickLife -m 50 -i 1 -r 'B3/S23:T16,16' data/patterns/life/diehard.rle"},
    {"life/diehard.rle", "B3/S23:T16,16", 16, 16, 130, 0,
     "bgolly -a QuickLife -m 130 -i 1 -r 'B3/S23:T16,16' data/patterns/life/diehard.rle"},
    {"life/gosper-glider-gun.rle", "B3/S23:T64,64", 64, 64, 1, 35,
     "bgolly -a QuickLife -m 1 -i 1 -r 'B3/S23:T64,64' data/patterns/life/gosper-glider-gun.rle"},
    {"life/gosper-glider-gun.rle", "B3/S23:T64,64", 64, 64, 30, 43,
     "bgolly -a QuickLife -m 30 -i 1 -r 'B3/S23:T64,64' data/patterns/life/gosper-glider-gun.rle"},
    {"life/gosper-glider-gun.rle", "B3/S23:T64,64", 64, 64, 100, 23,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:T64,64' data/patterns/life/gosper-glider-gun.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:T64,64", 64, 64, 30, 41,
     "bgolly -a QuickLife -m 30 -i 1 -r 'B3/S23:T64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:T64,64", 64, 64, 60, 46,
     "bgolly -a QuickLife -m 60 -i 1 -r 'B3/S23:T64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:T64,64", 64, 64, 100, 63,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:T64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:T64,64", 64, 64, 200, 84,
     "bgolly -a QuickLife -m 200 -i 1 -r 'B3/S23:T64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:P64,64", 64, 64, 30, 41,
     "bgolly -a QuickLife -m 30 -i 1 -r 'B3/S23:P64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:P64,64", 64, 64, 60, 46,
     "bgolly -a QuickLife -m 60 -i 1 -r 'B3/S23:P64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:P64,64", 64, 64, 100, 63,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:P64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/gosper-glider-gun-centered.rle", "B3/S23:P64,64", 64, 64, 200, 73,
     "bgolly -a QuickLife -m 200 -i 1 -r 'B3/S23:P64,64' "
     "data/patterns/life/gosper-glider-gun-centered.rle"},
    {"life/rabbits.lif", "B3/S23:T64,64", 64, 64, 100, 70,
     "bgolly -a QuickLife -m 100 -i 1 -r 'B3/S23:T64,64' data/patterns/life/rabbits.lif"},
    {"life/rabbits.lif", "B3/S23:T64,64", 64, 64, 1000, 295,
     "bgolly -a QuickLife -m 1000 -i 1 -r 'B3/S23:T64,64' data/patterns/life/rabbits.lif"},

    // Brian's Brain (Generations, 3 states; bgolly counts states 1 and 2 as population).
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T16,16", 16, 16, 3, 8,
     "bgolly -a Generations -m 3 -i 1 -r '/2/3:T16,16' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T16,16", 16, 16, 30, 8,
     "bgolly -a Generations -m 30 -i 1 -r '/2/3:T16,16' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T5,5", 5, 5, 1, 4,
     "bgolly -a Generations -m 1 -i 1 -r '/2/3:T5,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T5,5", 5, 5, 2, 3,
     "bgolly -a Generations -m 2 -i 1 -r '/2/3:T5,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T5,5", 5, 5, 3, 1,
     "bgolly -a Generations -m 3 -i 1 -r '/2/3:T5,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T5,5", 5, 5, 10, 0,
     "bgolly -a Generations -m 10 -i 1 -r '/2/3:T5,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T7,6", 7, 6, 1, 6,
     "bgolly -a Generations -m 1 -i 1 -r '/2/3:T7,6' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T7,6", 7, 6, 5, 6,
     "bgolly -a Generations -m 5 -i 1 -r '/2/3:T7,6' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T7,6", 7, 6, 20, 6,
     "bgolly -a Generations -m 20 -i 1 -r '/2/3:T7,6' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T8,5", 8, 5, 1, 6,
     "bgolly -a Generations -m 1 -i 1 -r '/2/3:T8,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T8,5", 8, 5, 2, 5,
     "bgolly -a Generations -m 2 -i 1 -r '/2/3:T8,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T8,5", 8, 5, 3, 5,
     "bgolly -a Generations -m 3 -i 1 -r '/2/3:T8,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:T8,5", 8, 5, 12, 6,
     "bgolly -a Generations -m 12 -i 1 -r '/2/3:T8,5' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:P4,4", 4, 4, 1, 2,
     "bgolly -a Generations -m 1 -i 1 -r '/2/3:P4,4' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:P4,4", 4, 4, 2, 1,
     "bgolly -a Generations -m 2 -i 1 -r '/2/3:P4,4' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},
    {"generations/brians-brain-p3-oscillator.rle", "/2/3:P4,4", 4, 4, 5, 0,
     "bgolly -a Generations -m 5 -i 1 -r '/2/3:P4,4' "
     "data/patterns/generations/brians-brain-p3-oscillator.rle"},

    // ice-nine in the 20x20 torus its own rule names; no -r, and #CXRLE Pos places it.
    {"lifelike/ice-nine.rle", "B25678/S5678:T20,20", 20, 20, 100, 116,
     "bgolly -a QuickLife -m 100 -i 1 data/patterns/lifelike/ice-nine.rle"},
    {"lifelike/ice-nine.rle", "B25678/S5678:T20,20", 20, 20, 1000, 112,
     "bgolly -a QuickLife -m 1000 -i 1 data/patterns/lifelike/ice-nine.rle"},
};

}  // namespace cellgraph::testing
