#pragma once
// One fuzz target per file: MLSYS_FUZZ_TARGET(name) defines the body. Built alone it is libFuzzer's
// entry point (make fuzz); with MLSYS_FUZZ_REPLAY defined before the include it is a plain function
// fuzz_<name>(data, size) that a doctest replays on cases generated at test time
// (tests/sched/schedmate/fuzz_replay_test.cpp), so every target also runs in the normal ctest.
#include <cstddef>
#include <cstdint>

#ifdef MLSYS_FUZZ_REPLAY
#define MLSYS_FUZZ_TARGET(name) int fuzz_##name(const uint8_t* data, size_t size)
#else
#define MLSYS_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
#endif
