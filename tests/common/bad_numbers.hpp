#pragma once
// The one table of bad numbers (issue #30 item 1) that the reader tests of every module feed to
// every reader they cover: each must be refused where an integer count, size, time or index is due,
// with an error naming the field. Where the field is a real number (a feature, a duration), the
// rows say which of them the field's rule refuses.
#include <string>
#include <string_view>

namespace mlsys::test {

struct BadNumber {
  std::string_view text;
  bool refused_as_count;     // an integer count, size or id of at most 2^31 - 1 (GPUs, nodes, classes)
  bool refused_as_feature;   // a float32 feature value or matrix cell
  bool refused_as_duration;  // a time or duration in seconds (>= 0, within a horizon well below 1e300)
};

inline constexpr BadNumber kBadNumbers[] = {
    {"-1", true, false, true},
    {"2147483648", true, false, false},           // 2^31: past every int32 count and id
    {"9223372036854775808", true, false, false},  // 2^63: past int64, must never wrap
    {"1e300", true, true, true},
    {"nan", true, true, true},
    {"2.7", true, false, false},  // a fraction where an integer is due: never truncated to 2
};

// A reader's input `text` with its "{}" replaced by `number` (one row or line per field tested).
inline std::string with_number(std::string text, std::string_view number) { return text.replace(text.find("{}"), 2, number); }

}  // namespace mlsys::test
