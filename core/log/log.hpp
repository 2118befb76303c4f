#pragma once
// Levelled logging to stderr (and optionally a run's log file), each line stamped with the
// seconds elapsed since start. Process-wide by design: logging is diagnostics, not state.
#include <fmt/format.h>

#include <string>
#include <string_view>

namespace mlsys::log {

enum class Level { Debug = 0, Info = 1, Warn = 2, Error = 3, Quiet = 4 };

Level level();
void set_level(Level l);
Level parse_level(std::string_view name);  // debug|info|warn|error|quiet
// Also append every line (at any level >= debug) to this file; "" closes it.
void set_file(const std::string& path);
double elapsed_seconds();
// Under an MPI launcher every line starts with the rank ("[r1    0.123s info ] ..."), so the
// interleaved output of several ranks can be told apart; -1 (the default) prints no rank.
void set_rank(int rank);
void write(Level l, std::string_view msg);
// Only into the log file (e.g. the error the app also prints on stderr, so run.log keeps it).
void write_file_only(Level l, std::string_view msg);
// True when stderr is a terminal (progress bars redraw in place only then).
bool stderr_is_tty();

template <class... A>
void debug(fmt::format_string<A...> f, A&&... a) {
  write(Level::Debug, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void info(fmt::format_string<A...> f, A&&... a) {
  write(Level::Info, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void warn(fmt::format_string<A...> f, A&&... a) {
  write(Level::Warn, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void error(fmt::format_string<A...> f, A&&... a) {
  write(Level::Error, fmt::format(f, std::forward<A>(a)...));
}

}  // namespace mlsys::log
