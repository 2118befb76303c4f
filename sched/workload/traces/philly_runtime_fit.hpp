#pragma once
// Built-in duration model for synthetic traces, fitted to ../shared/data/traces/philly_runtimes.csv
// (83,154 Philly job runtimes, alibaba/clusterdata analysis, CC-BY-4.0), used when that file is
// absent. Computed once with the type-7 quantile rule; see docs/traces.md.
#include <array>

namespace mlsys::workload {

// Runtime quantiles (seconds) at p = 0.00, 0.01, ..., 0.99, then 0.991, ..., 0.999, then 1.0.
inline constexpr std::array<double, 110> kPhillyRuntimeQuantiles{
    0,       17,      25,      38,      44,      48,      51,      55,      57,      59,      61,      63,
    64,      65,      67,      68,      69,      71,      72,      74,      76,      79,      84,      95,
    110,     131,     151,     170,     186,     207,     229,     265,     302,     325,     356.02,  428,
    486.08,  528,     558,     589,     630,     675,     726,     785,     845,     889,     930,     986,
    1053,    1121,    1186,    1252,    1330,    1412,    1461,    1500,    1547,    1604.21, 1699,    1801.27,
    1871,    1941,    2004,    2059,    2127,    2242,    2354,    2433,    2490,    2545,    2590,    2647,
    2710,    2783,    2949.22, 3341.5,  3536,    3801.81, 4018,    4261.87, 4699.4,  5160,    5453.46, 5710,
    5928,    6300.1,  7765.58, 8816.11, 9709.76, 11086,   12859.4, 15080.6, 18841.8, 23848,   31998.7, 49947.5,
    69286.9, 101863,  167784,  287283,  320551,  353212,  382444,  427406,  484497,  567256,  688570,  874642,
    1361020, 4628239};

// Log-normal fit of the positive runtimes: mean and standard deviation of ln(seconds).
inline constexpr double kPhillyLogMu = 6.845852;
inline constexpr double kPhillyLogSigma = 2.181440;

// GPU demand of the Philly-derived Gavel VC traces (philly_gavel/*.trace scale factors, 8,654 jobs).
inline constexpr std::array<int, 8> kPhillyGpuValues{1, 2, 4, 8, 16, 24, 32, 64};
inline constexpr std::array<double, 8> kPhillyGpuCounts{5709, 361, 1442, 954, 99, 2, 86, 1};

}  // namespace mlsys::workload
