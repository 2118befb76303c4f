#pragma once
// Everything SchedMate reads from users' files goes through here, with limits: a log, a job's
// script or a JSONL of jobs is a regular file of bounded size (never a device, FIFO or /proc
// file); lines are cut at a bounded length; text is made valid UTF-8 (invalid bytes become
// U+FFFD) so every JSON/JSONL output stays valid; `@file` references stay inside a folder.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::schedmate {

struct InputLimits {
  int64_t max_log_bytes = int64_t{256} << 20;   // a log file
  int64_t max_jobs_bytes = int64_t{256} << 20;  // a JSONL file of job specs
  int64_t max_script_bytes = int64_t{1} << 20;  // a job's script read through "@file"
  size_t max_line_bytes = size_t{64} << 10;     // longer lines are cut (and counted)
  int max_json_depth = 32;                      // nesting of a server's JSON reply (and of a JSONL job spec)
};

// The limits' config keys (schedmate.limits.*), declared once; schedmate_section() nests them.
const config::Section<InputLimits>& input_limits_section();

// The content of a regular file of at most `max_bytes`. Throws InputError naming the file and
// `limit_key` (the config key to raise) when it is larger, and for anything but a regular file.
std::string read_regular_file(const std::filesystem::path& path, int64_t max_bytes, const std::string& limit_key);

// `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view s);

// A curator's annotation in a sample log ("# LABEL: ...", "# SOURCE: ...", "# NOTE: ..."): '#',
// a blank, an upper-case word, ':'. Not part of what the job wrote.
bool is_annotation(std::string_view line);

struct LogText {
  std::vector<std::string> lines;
  int64_t cut_lines = 0;    // lines longer than max_line_bytes, cut
  int64_t annotations = 0;  // annotation lines dropped
};
// A log's lines (without "\n" / "\r\n"), valid UTF-8, long lines cut; annotations dropped unless
// `keep_annotations`.
LogText read_log(const std::filesystem::path& path, const InputLimits& limits, bool keep_annotations);
// The same for text already in memory.
LogText log_lines(std::string_view text, const InputLimits& limits, bool keep_annotations);

// Resolves a job spec's "@path" reference: relative to `base_dir`, and it must stay inside
// `allowed_dir` (symbolic links resolved) and be a regular file of at most limits.max_script_bytes.
// Throws InputError naming the job and what to change.
std::string read_referenced_file(const std::string& reference, const std::filesystem::path& base_dir,
                                 const std::filesystem::path& allowed_dir, const InputLimits& limits,
                                 const std::string& where);

// Largest nesting of arrays/objects in a JSON text (strings skipped); stops counting at `cap`+1.
int json_depth(std::string_view text, int cap);

}  // namespace mlsys::schedmate
