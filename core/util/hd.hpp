#pragma once
// Lets the scalar definitions shared by the reference, vectorized and CUDA kernels compile for
// both host and device.
#ifdef __CUDACC__
#define MLSYS_HD __host__ __device__ inline
#else
#define MLSYS_HD inline
#endif
