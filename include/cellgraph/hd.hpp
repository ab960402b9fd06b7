// CG_HD marks code compiled for both the CPU and the GPU: a model's rule is written once.
#pragma once
#if defined(__CUDACC__)
#define CG_HD __host__ __device__
#else
#define CG_HD
#endif
