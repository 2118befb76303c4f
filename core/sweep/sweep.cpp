#include "core/sweep/sweep.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "core/comm/comm_options.hpp"
#include "core/comm/communicator.hpp"
#include "core/comm/factory.hpp"
#include "core/log/log.hpp"
#include "core/runtime/run_folder.hpp"
#include "core/process/system.hpp"
#include "core/runtime/trace_writer.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/json.hpp"
#include "core/util/strings.hpp"

extern char** environ;

namespace mlsys {

namespace fs = std::filesystem;

const config::Section<SweepOptions>& sweep_section() {
  using O = SweepOptions;
  static const config::Section<O> s("sweep", "A sweep: one command over configs x grid x seeds", [](auto& s) {
    s.field("command", &O::command, "The mlsys command every configuration runs (train-gnn, simulate, ...)");
    s.field("mode", &O::mode, "Its mode word; empty runs the command's default mode");
    s.field("configs", &O::configs, "Config files, one configuration axis; empty runs the embedded default").path();
    s.field("seeds", &O::seeds, "Seeds, one axis (--seed); empty keeps each config's run.seed").min(0);
    s.field("grid", &O::grid, "Map of config key -> list of values; every combination is one configuration");
    s.field("set", &O::set, "key=value overrides given to every configuration");
    s.field("table", &O::table, "What a row of sweep.csv holds: summary.json values, or the rows of a CSV each run writes");
    s.field("workers", &O::workers, "Configurations run at once per process; 0: this process's threads (run.threads, "
            "OMP_NUM_THREADS, SLURM_CPUS_PER_TASK or the affinity mask) / run_threads (1 per MPI rank)")
        .range(0, 1024);
    s.field("run_threads", &O::run_threads, "run.threads of each configuration").range(1, 1024);
    s.field("max_runs", &O::max_runs, "Most configurations a sweep may hold; a larger plan is refused before it is built")
        .range(1, 1e9);
  });
  return s;
}

namespace {

std::string yaml_scalar_text(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

// Zero-padded so folders list in index order: 0007 of 12, 00042 of 12000.
std::string index_name(size_t index, size_t count) {
  size_t width = std::max<size_t>(4, std::to_string(std::max<size_t>(count, 1) - 1).size());
  std::string s = std::to_string(index);
  return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
}

}  // namespace

SweepPlan make_sweep_plan(const SweepOptions& o, const fs::path& base) {
  SweepPlan plan;
  plan.options = o;
  if (o.command.empty()) throw ConfigError("sweep.command is required: the mlsys command to run (e.g. simulate)");
  // The grid: keys in file order, each with its list of values as YAML text.
  std::vector<std::vector<std::string>> values;
  const YAML::Node& g = o.grid.node;
  if (g && !g.IsNull()) {
    if (!g.IsMap()) throw ConfigError(o.grid.where(g) + ": sweep.grid must map config keys to lists of values");
    for (auto it = g.begin(); it != g.end(); ++it) {
      std::string key = it->first.Scalar();
      std::vector<std::string> vs;
      if (it->second.IsSequence()) {
        for (const auto& v : it->second) vs.push_back(yaml_scalar_text(v));
      } else {
        vs.push_back(yaml_scalar_text(it->second));
      }
      if (vs.empty()) throw ConfigError(o.grid.where(it->second) + ": sweep.grid." + key + " has no values");
      plan.grid_keys.push_back(key);
      values.push_back(std::move(vs));
    }
  }
  for (const auto& s : o.set)
    if (s.find('=') == std::string::npos || s.front() == '=')
      throw ConfigError("sweep.set entry '" + s + "' must be key=value");
  std::vector<std::string> configs = o.configs.empty() ? std::vector<std::string>{""} : o.configs;
  std::vector<int64_t> seeds = o.seeds;
  // Counted before anything is built: a grid of 10 keys x 10 values is 10^10 configurations.
  size_t combos = 1;
  for (const auto& v : values) combos = v.size() > SIZE_MAX / combos ? SIZE_MAX : combos * v.size();
  const long double total = static_cast<long double>(configs.size()) * static_cast<long double>(combos) *
                            static_cast<long double>(std::max<size_t>(seeds.size(), 1));
  if (total > static_cast<long double>(o.max_runs)) {
    std::string axes = std::to_string(configs.size()) + " config(s) x " + std::to_string(std::max<size_t>(seeds.size(), 1)) +
                       " seed(s)";
    for (size_t k = 0; k < values.size(); ++k) axes += " x " + std::to_string(values[k].size()) + " " + plan.grid_keys[k];
    throw ConfigError(fmt::format("the sweep has {:.4g} configurations ({}), more than sweep.max_runs = {}; "
                                  "shorten the grid or raise sweep.max_runs",
                                  static_cast<double>(total), axes, o.max_runs));
  }
  for (const auto& cfg : configs) {
    for (size_t c = 0; c < combos; ++c) {
      // Mixed radix, last key fastest.
      std::vector<std::pair<std::string, std::string>> sets(values.size());
      size_t rest = c;
      for (size_t k = values.size(); k-- > 0;) {
        sets[k] = {plan.grid_keys[k], values[k][rest % values[k].size()]};
        rest /= values[k].size();
      }
      for (size_t si = 0; si < std::max<size_t>(seeds.size(), 1); ++si) {
        SweepPoint p;
        p.config_path = cfg;
        p.config = cfg.empty() ? "default" : fs::path(cfg).lexically_relative(fs::absolute(base)).generic_string();
        if (!cfg.empty() && (p.config.empty() || starts_with(p.config, ".."))) p.config = cfg;
        p.has_seed = !seeds.empty();
        p.seed = seeds.empty() ? 0 : seeds[si];
        p.sets = sets;
        plan.points.push_back(std::move(p));
      }
    }
  }
  for (size_t i = 0; i < plan.points.size(); ++i) {
    plan.points[i].index = i;
    plan.points[i].folder = "runs/" + index_name(i, plan.points.size());
  }
  return plan;
}

std::vector<std::string> SweepPlan::sets_of(const SweepPoint& p) const {
  std::vector<std::string> out = options.set;
  for (const auto& [k, v] : p.sets) out.push_back(k + "=" + v);
  return out;
}

std::vector<std::string> SweepPlan::child_args(const SweepPoint& p, const fs::path& out, bool overwrite) const {
  std::vector<std::string> a{options.command};
  if (!options.mode.empty()) a.push_back(options.mode);
  if (!p.config_path.empty()) a.push_back(p.config_path);
  for (const auto& s : sets_of(p)) {
    a.push_back("--set");
    a.push_back(s);
  }
  if (p.has_seed) {
    a.push_back("--seed");
    a.push_back(std::to_string(p.seed));
  }
  a.insert(a.end(), {"--set", "run.threads=" + std::to_string(options.run_threads), "--set", "run.progress=off", "-q",
                     "--out", (out / p.folder).string()});
  if (overwrite) a.push_back("--overwrite");
  return a;
}

// ---- running children ----
namespace {

// The environment for a child: without the MPI launcher's variables, so a child run by an MPI rank
// is an ordinary single process (it owns its folder and initializes no MPI).
std::vector<std::string> child_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view v(*e);
    if (starts_with(v, "OMPI_") || starts_with(v, "PMIX_") || starts_with(v, "PMI_")) continue;
    env.emplace_back(v);
  }
  return env;
}

pid_t spawn(const std::string& binary, const std::vector<std::string>& args, const std::vector<std::string>& env,
            const fs::path& log) {
  std::vector<char*> argv, envp;
  std::string bin = binary;
  argv.push_back(bin.data());
  std::vector<std::string> a = args, e = env;
  for (auto& s : a) argv.push_back(s.data());
  argv.push_back(nullptr);
  for (auto& s : e) envp.push_back(s.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw Error("cannot start " + binary + ": " + std::strerror(rc));
  return pid;
}

std::string payload_of(const SweepPlan& plan, const fs::path& folder) {
  fs::path f = folder / plan.options.table;
  std::error_code ec;
  return fs::is_regular_file(f, ec) ? read_file(f) : std::string();
}

}  // namespace

namespace {

// The status a run folder's manifest records, as the sweep reads it: a run that died after
// writing its summary counts as complete, one that died before as failed.
std::string folder_outcome(const fs::path& folder) {
  std::string status = run_folder_status(folder);
  if (status.empty()) return "missing";
  if (status == "running") return fs::exists(folder / "summary.json") ? "complete" : "failed";
  return status;
}

bool has_results(const std::string& status) { return status == "complete" || status == "interrupted"; }

}  // namespace

SweepResult collect_sweep_point(const SweepPlan& plan, size_t index, const fs::path& out, InputDigests& inputs) {
  const SweepPoint& p = plan.points.at(index);
  SweepResult r;
  r.index = index;
  fs::path folder = out / p.folder;
  r.status = folder_outcome(folder);
  if (!has_results(r.status)) return r;
  r.changed = sweep_plan_change(folder, p.config_hash, inputs);
  if (!r.changed.empty()) {
    r.status = "stale";
    return r;
  }
  r.payload = payload_of(plan, folder);
  return r;
}

std::vector<SweepResult> run_sweep_points(const SweepPlan& plan, const std::vector<size_t>& indices,
                                          const std::string& binary, const fs::path& out, int workers,
                                          bool overwrite) {
  ensure_dir(out / "logs");
  const auto env = child_environment();
  InputDigests digests;
  // What the folders hold now, and how many of them a changed plan made stale.
  std::map<size_t, SweepResult> prior;
  std::map<std::string, size_t> why;
  for (size_t idx : indices) {
    SweepResult r = collect_sweep_point(plan, idx, out, digests);
    if (r.status == "stale") ++why[r.changed];
    prior.emplace(idx, std::move(r));
  }
  if (!why.empty() && !overwrite) {
    size_t stale = 0;
    std::vector<std::string> reasons;
    for (const auto& [reason, n] : why) {
      stale += n;
      reasons.push_back(why.size() == 1 ? reason : reason + ": " + std::to_string(n));
    }
    log::warn("sweep: {} of {} configurations changed since the last sweep ({}): re-running them", stale,
              indices.size(), join(reasons, "; "));
  }
  std::vector<SweepResult> results;
  std::map<pid_t, SweepResult> running;
  std::vector<bool> slot_busy(static_cast<size_t>(std::max(1, workers)), false);
  size_t next = 0, done = 0;
  bool forwarded = false;
  auto finish = [&](pid_t pid, int status) {
    auto it = running.find(pid);
    if (it == running.end()) return;
    SweepResult r = std::move(it->second);
    running.erase(it);
    slot_busy[static_cast<size_t>(r.slot)] = false;
    r.end_us = steady_clock_us();
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    const fs::path folder = out / plan.points[r.index].folder;
    if (has_results(folder_outcome(folder))) record_sweep_plan(folder, plan.points[r.index].config_hash);
    SweepResult seen = collect_sweep_point(plan, r.index, out, digests);
    r.status = seen.status == "missing" ? "failed" : seen.status;
    r.payload = std::move(seen.payload);
    r.changed = std::move(seen.changed);
    ++done;
    log::info("sweep: {} {} (exit {}), {}/{} done", plan.points[r.index].folder, r.status, r.exit_code, done,
              indices.size());
    results.push_back(std::move(r));
  };
  while (next < indices.size() || !running.empty()) {
    while (!interrupted() && next < indices.size() && running.size() < slot_busy.size()) {
      size_t idx = indices[next++];
      SweepResult& before = prior.at(idx);
      if (before.status == "complete" && !overwrite) {
        log::info("sweep: {} already complete, kept", plan.points[idx].folder);
        ++done;
        results.push_back(std::move(before));
        continue;
      }
      // An interrupted configuration holds partial results, a stale one those of another plan; the
      // sweep owns both and runs them again. Their record goes first: it vouches for a finished run.
      bool replace = overwrite || before.status == "interrupted" || before.status == "stale";
      forget_sweep_plan(out / plan.points[idx].folder);
      SweepResult r;
      r.index = idx;
      r.slot = static_cast<int>(std::find(slot_busy.begin(), slot_busy.end(), false) - slot_busy.begin());
      slot_busy[static_cast<size_t>(r.slot)] = true;
      r.start_us = steady_clock_us();
      fs::path log = out / "logs" / (fs::path(plan.points[idx].folder).filename().string() + ".log");
      pid_t pid = spawn(binary, plan.child_args(plan.points[idx], out, replace), env, log);
      running.emplace(pid, std::move(r));
    }
    if (running.empty()) break;
    int status = 0;
    pid_t pid = ::waitpid(-1, &status, 0);
    if (pid > 0) {
      finish(pid, status);
    } else if (errno == EINTR && interrupted() && !forwarded) {
      forwarded = true;
      log::warn("sweep: stopping; passing the signal to {} running configuration(s)", running.size());
      for (auto& [p, r] : running) ::kill(p, SIGTERM);
    } else if (errno == ECHILD) {
      break;
    }
  }
  // Configurations never started (interrupted) are reported from their folders as they are.
  for (; next < indices.size(); ++next) results.push_back(std::move(prior.at(indices[next])));
  std::sort(results.begin(), results.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  return results;
}

// ---- the merged table ----
namespace {

std::string cell_of(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.as_string();
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  return v.dump();
}

void flatten(const Json& v, const std::string& prefix, std::vector<std::pair<std::string, std::string>>& out) {
  if (v.is_object()) {
    for (const auto& [k, sub] : v.as_object()) flatten(sub, prefix.empty() ? k : prefix + "." + k, out);
  } else {
    out.emplace_back(prefix, cell_of(v));
  }
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
  return s;
}

// CSV records (a quoted field may hold newlines), each split into raw field texts.
std::vector<std::vector<std::string>> csv_records(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

Table merge_sweep(const SweepPlan& plan, const std::vector<SweepResult>& results, const fs::path& out) {
  std::vector<std::string> coords{"index", "config", "seed"};
  coords.insert(coords.end(), plan.grid_keys.begin(), plan.grid_keys.end());
  coords.push_back("status");
  const bool summary = plan.options.table == "summary.json";
  // Rows of result cells per configuration, with the union of result columns in first-seen order.
  std::vector<std::string> columns;
  std::set<std::string> known;
  std::vector<std::pair<const SweepResult*, std::vector<std::map<std::string, std::string>>>> rows;
  for (const auto& r : results) {
    const SweepPoint& p = plan.points.at(r.index);
    std::string folder = fs::absolute(out / p.folder).lexically_normal().string();
    std::string text = replace_all(replace_all(r.payload, folder, "<run>"), (out / p.folder).string(), "<run>");
    std::vector<std::map<std::string, std::string>> cells;
    auto use = [&](const std::string& col) {
      if (known.insert(col).second) columns.push_back(col);
    };
    if (text.empty()) {
      cells.emplace_back();
    } else if (summary) {
      Json j;
      try {
        j = Json::parse(text);
      } catch (const Error& e) {
        throw InputError((out / p.folder / "summary.json").string() + ": " + e.what() +
                         "; the run's record is damaged: delete " + (out / p.folder).string() +
                         " and run the sweep again to redo that configuration");
      }
      std::vector<std::pair<std::string, std::string>> flat;
      for (const auto& [k, v] : j.as_object())
        if (k != "resources" && k != "run") flatten(v, k, flat);
      std::map<std::string, std::string> row;
      for (auto& [k, v] : flat) {
        use(k);
        row[k] = v;
      }
      cells.push_back(std::move(row));
    } else {
      auto recs = csv_records(text);
      if (recs.empty()) {
        cells.emplace_back();
      } else {
        for (const auto& h : recs[0]) use(h);
        for (size_t i = 1; i < recs.size(); ++i) {
          std::map<std::string, std::string> row;
          for (size_t c = 0; c < recs[i].size() && c < recs[0].size(); ++c) row[recs[0][c]] = recs[i][c];
          cells.push_back(std::move(row));
        }
      }
    }
    rows.emplace_back(&r, std::move(cells));
  }
  // A result column that shares a coordinate's name (a CSV's own "seed") is told apart.
  std::vector<std::string> header = coords;
  for (const auto& c : columns)
    header.push_back(std::find(coords.begin(), coords.end(), c) != coords.end() ? "result." + c : c);
  Table t(header);
  for (const auto& [r, cells] : rows) {
    const SweepPoint& p = plan.points.at(r->index);
    for (const auto& row : cells) {
      std::vector<Table::Cell> line{static_cast<int64_t>(p.index), p.config,
                                    p.has_seed ? std::to_string(p.seed) : std::string()};
      for (const auto& [k, v] : p.sets) line.emplace_back(v);
      line.emplace_back(r->status);
      for (const auto& c : columns) {
        auto it = row.find(c);
        line.emplace_back(it == row.end() ? std::string() : it->second);
      }
      t.add_row(std::move(line));
    }
  }
  return t;
}

// ---- MPI ----
std::vector<SweepResult> gather_sweep_results(comm::Communicator& c, const std::vector<SweepResult>& mine) {
  Json arr = Json::array();
  for (const auto& r : mine) {
    Json j = Json::object();
    j["index"] = r.index;
    j["status"] = r.status;
    j["exit_code"] = r.exit_code;
    j["payload"] = r.payload;
    j["start_us"] = r.start_us;
    j["end_us"] = r.end_us;
    j["slot"] = r.slot;
    j["rank"] = c.rank();
    j["changed"] = r.changed;
    arr.push_back(std::move(j));
  }
  std::string text = arr.dump();
  std::vector<uint64_t> sizes = c.all_gather_value<uint64_t>(text.size());
  std::vector<SweepResult> all;
  if (c.rank() != 0) {
    c.send(text.data(), text.size(), 0, 7302);
    return all;
  }
  for (int r = 0; r < c.size(); ++r) {
    std::string theirs = text;
    if (r != 0) {
      theirs.assign(sizes[static_cast<size_t>(r)], '\0');
      c.recv(theirs.data(), theirs.size(), r, 7302);
    }
    const Json parsed = Json::parse(theirs);
    for (const auto& j : parsed.as_array()) {
      SweepResult x;
      x.index = static_cast<size_t>(j.find("index")->as_uint());
      x.status = j.find("status")->as_string();
      x.exit_code = static_cast<int>(j.find("exit_code")->as_int());
      x.payload = j.find("payload")->as_string();
      x.start_us = j.find("start_us")->as_number();
      x.end_us = j.find("end_us")->as_number();
      x.slot = static_cast<int>(j.find("slot")->as_int());
      x.rank = static_cast<int>(j.find("rank")->as_int());
      x.changed = j.find("changed")->as_string();
      all.push_back(std::move(x));
    }
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  return all;
}

}  // namespace mlsys

// ---- orchestration ----
namespace mlsys {

namespace {

void write_trace(const SweepPlan& plan, const std::vector<SweepResult>& results, const fs::path& path) {
  double t0 = 0;
  bool any = false;
  for (const auto& r : results)
    if (r.end_us > r.start_us) {
      t0 = any ? std::min(t0, r.start_us) : r.start_us;
      any = true;
    }
  if (!any) return;
  TraceWriter trace;
  std::set<std::pair<int, int>> named;
  for (const auto& r : results) {
    if (r.end_us <= r.start_us) continue;
    if (named.insert({r.rank, r.slot}).second)
      trace.name_track(r.rank, r.slot, "rank " + std::to_string(r.rank), "worker " + std::to_string(r.slot));
    trace.span(r.rank, r.slot, plan.points[r.index].folder + " " + r.status, r.start_us - t0, r.end_us - r.start_us,
               "sweep");
  }
  trace.write(path.string());
}

std::optional<long> array_task() {
  const char* v = std::getenv("SLURM_ARRAY_TASK_ID");
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  long id = std::strtol(v, &end, 10);
  if (*end != '\0' || id < 0) throw UsageError(std::string("SLURM_ARRAY_TASK_ID='") + v + "' is not a task index");
  return id;
}

int report(const SweepPlan& plan, const std::vector<SweepResult>& results, const SweepRun& how) {
  Table t = merge_sweep(plan, results, how.out);
  write_file_atomic(how.out / "sweep.csv", t.to_csv());
  std::map<std::string, int> counts;
  std::map<std::string, int> stale_why;
  std::vector<std::string> bad;
  for (const auto& r : results) {
    ++counts[r.status];
    if (r.status == "stale") ++stale_why[r.changed];
    if (r.status != "complete") bad.push_back(plan.points[r.index].folder);
  }
  std::vector<std::string> parts;
  for (const auto& [status, n] : counts) parts.push_back(std::to_string(n) + " " + status);
  std::printf("== mlsys sweep ==\n  %zu configurations of `mlsys %s`: %s\n  table: %s (%zu rows)\n", plan.points.size(),
              plan.options.command.c_str(), join(parts, ", ").c_str(), (how.out / "sweep.csv").c_str(), t.rows());
  if (!stale_why.empty()) {
    std::vector<std::string> why;
    for (const auto& [reason, n] : stale_why) why.push_back(std::to_string(n) + " " + reason);
    std::printf("  stale: runs of an earlier plan (%s), left out of the table: run the sweep (or those array "
                "tasks) again\n",
                join(why, ", ").c_str());
  }
  if (!bad.empty())
    std::printf("  not complete: %s (their output: %s/logs/)\n",
                join(std::vector<std::string>(bad.begin(), bad.begin() + std::min<size_t>(bad.size(), 5)), ", ").c_str(),
                how.out.c_str());
  std::printf("  results: %s\n", how.out.c_str());
  std::fflush(stdout);
  if (interrupted()) return kExitInterrupted;
  return bad.empty() ? 0 : 1;
}

}  // namespace

int run_sweep(const SweepPlan& plan, const std::string& resolved_yaml, const SweepRun& how) {
  const size_t n = plan.points.size();
  if (how.mode == "list") {
    std::printf("%zu configurations (SLURM: --array=0-%zu)\n", n, n ? n - 1 : 0);
    for (const auto& p : plan.points) {
      std::string line = p.folder + ":";
      for (const auto& a : plan.child_args(p, how.out, false)) line += " " + a;
      std::printf("  %s\n", line.c_str());
    }
    return 0;
  }
  ensure_dir(how.out);
  const int rank = std::max(0, launcher_rank());
  if (rank == 0) write_file_atomic(how.out / "sweep.yaml", resolved_yaml);
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = i;
  if (how.mode == "merge") {
    InputDigests digests;
    std::vector<SweepResult> results;
    for (size_t i : all) results.push_back(collect_sweep_point(plan, i, how.out, digests));
    return report(plan, results, how);
  }
  install_interrupt_handler();
  int workers = plan.options.workers;
  const int size = launcher_size();
  if (workers == 0) workers = size > 1 ? 1 : std::max(1, how.threads / plan.options.run_threads);

  if (size <= 1) {
    if (auto task = array_task()) {
      if (static_cast<size_t>(*task) >= n)
        throw UsageError("SLURM_ARRAY_TASK_ID=" + std::to_string(*task) + " but the sweep has " + std::to_string(n) +
                         " configurations: submit with --array=0-" + std::to_string(n ? n - 1 : 0));
      auto results = run_sweep_points(plan, {static_cast<size_t>(*task)}, how.binary, how.out, 1, how.overwrite);
      const auto& r = results.front();
      std::printf("== mlsys sweep (array task %ld) ==\n  %s: %s\n  when every task is done: mlsys sweep merge "
                  "<sweep file> --out %s\n  results: %s\n",
                  *task, plan.points[r.index].folder.c_str(), r.status.c_str(), how.out.c_str(), how.out.c_str());
      if (interrupted()) return kExitInterrupted;
      return r.status == "complete" ? 0 : 1;
    }
    log::info("sweep: {} configurations of `mlsys {}`, {} at a time, into {}", n, plan.options.command, workers,
              how.out.string());
    auto results = run_sweep_points(plan, all, how.binary, how.out, workers, how.overwrite);
    write_trace(plan, results, how.out / "trace.json");
    return report(plan, results, how);
  }

  // Under an MPI launcher: configuration i on rank i mod size; children run before MPI starts (no
  // fork after MPI_Init), then the results travel to rank 0.
  std::vector<size_t> mine;
  for (size_t i = static_cast<size_t>(rank); i < n; i += static_cast<size_t>(size)) mine.push_back(i);
  log::info("sweep: rank {} of {} runs {} of {} configurations", rank, size, mine.size(), n);
  auto results = run_sweep_points(plan, mine, how.binary, how.out, workers, how.overwrite);
  CommOptions o;
  o.backend = "mpi";
  o.timeout_s = how.comm_timeout_s;
  auto c = comm::make_communicator(o);
  align_trace_clock(*c);
  for (auto& r : results)
    if (r.end_us > r.start_us) {
      r.start_us -= trace_origin_us();
      r.end_us -= trace_origin_us();
      r.rank = rank;
    }
  auto gathered = gather_sweep_results(*c, results);
  if (c->rank() != 0) return interrupted() ? kExitInterrupted : 0;
  write_trace(plan, gathered, how.out / "trace.json");
  return report(plan, gathered, how);
}

}  // namespace mlsys
