// SLURM accounting: what `sacct --parsable2` prints (one header line, fields separated by '|'),
// the export most academic clusters can give. Columns are found by header name (any order, any
// case); docs/traces.md lists the mapping. For example:
//   sacct -a -X --parsable2 -S 2024-01-01
//         --format=JobID,JobName,User,Account,Partition,Submit,Start,End,ElapsedRaw,State,AllocTRES,NNodes
// Job steps (JobID with a '.', e.g. 1234.batch) and jobs that never ran (Start Unknown/None,
// still pending or running) are skipped and counted; an array task keeps its id (1234_7).
#include <algorithm>

#include "core/io/csv.hpp"
#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/csv_rows.hpp"
#include "sched/workload/traces/fields.hpp"

namespace mlsys::workload {
namespace {

// The GPU counts sacct writes (core/util/number_parse.hpp): each count, and the sum of a row's typed
// counts, in [0, kMaxGpus]. A negative count or one past int64 is refused, never read as "no GPUs".
constexpr IntRule kGpuCount{"GPU count", 0, kMaxGpus};

// GPUs (and their type when one type is named) of a TRES string such as
// "billing=8,cpu=8,gres/gpu:a100=4,gres/gpu=4,mem=64G,node=1", or of a GRES string such as
// "gpu:a100:4(IDX:0-3)" / "gpu:2". count is -1 when the text names no GPUs; -2 when a count is
// refused (`problem` says why).
struct Gpus {
  int64_t count = -1;
  std::string type;
  std::string problem;
};

// Views of the `sep`-separated items of s.
std::vector<std::string_view> items(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  split_plain(s, sep, out);
  return out;
}

// The count `text` added to `total` under kGpuCount; false (and `g` refused) when either is out of range.
bool add_gpus(std::string_view text, int64_t& total, Gpus& g) {
  int64_t n = 0;
  NumberProblem p = parse_number(text, kGpuCount, n);
  if (p == NumberProblem::kOk) p = check_number(total + n, kGpuCount);  // both <= 2^20: no overflow
  if (p != NumberProblem::kOk) {
    g = Gpus{-2, "", number_error("", text, kGpuCount, p)};
    return false;
  }
  total += n;
  return true;
}

Gpus tres_gpus(std::string_view tres) {
  Gpus g;
  int64_t typed_total = 0;
  int typed = 0;
  for (auto item : items(tres, ',')) {
    item = trim(item);
    auto eq = item.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key != "gres/gpu" && key.substr(0, 9) != "gres/gpu:") continue;
    if (key == "gres/gpu") {
      int64_t n = 0;
      if (!add_gpus(value, n, g)) return g;
      g.count = n;
    } else {
      if (!add_gpus(value, typed_total, g)) return g;
      ++typed;
      g.type = std::string(key.substr(9));
    }
  }
  if (g.count < 0 && typed > 0) g.count = typed_total;
  if (typed != 1) g.type.clear();
  return g;
}

Gpus gres_gpus(std::string_view gres) {
  Gpus g;
  int64_t total = 0;
  for (auto item : items(gres, ',')) {
    item = trim(item);
    if (auto paren = item.find('('); paren != std::string_view::npos) item = item.substr(0, paren);
    auto parts = items(item, ':');
    if (parts.empty() || trim(parts[0]) != "gpu") continue;
    if (parts.size() == 1) return Gpus{1, "", ""};
    if (!add_gpus(parts.back(), total, g)) return g;
    g.count = total;
    if (parts.size() >= 3) g.type = std::string(trim(parts[1]));
  }
  return g;
}

// "[D-]HH:MM:SS", "MM:SS" or "MM:SS.mmm" as seconds; -1 when not a duration.
double parse_elapsed(std::string_view s) {
  s = trim(s);
  int64_t days = 0;
  if (auto dash = s.find('-'); dash != std::string_view::npos) {
    auto d = parse_int(s.substr(0, dash));
    if (!d || *d < 0) return -1;
    days = *d;
    s = s.substr(dash + 1);
  }
  auto parts = items(s, ':');
  if (parts.size() < 2 || parts.size() > 3) return -1;
  double total = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    auto v = parse_double(parts[i]);
    if (!v || *v < 0) return -1;
    total = total * 60 + *v;
  }
  return static_cast<double>(days) * 86400 + total;
}

// Memory such as "64G", "4000M", "1.5T" (sacct's units: K, M, G, T; no unit = MiB) in MiB.
int64_t parse_mem_mib(std::string_view s) {
  s = trim(s);
  if (s.empty()) return -1;
  double scale = 1;
  switch (s.back()) {
    case 'K': case 'k': scale = 1.0 / 1024; s.remove_suffix(1); break;
    case 'M': case 'm': s.remove_suffix(1); break;
    case 'G': case 'g': scale = 1024; s.remove_suffix(1); break;
    case 'T': case 't': scale = 1024.0 * 1024; s.remove_suffix(1); break;
    default: break;
  }
  auto v = parse_double(s);
  if (!v || *v < 0 || *v * scale > 1e15) return -1;
  return static_cast<int64_t>(*v * scale + 0.5);
}

std::string_view tres_value(std::string_view tres, std::string_view key) {
  for (auto item : items(tres, ',')) {
    item = trim(item);
    if (item.size() > key.size() && item.substr(0, key.size()) == key && item[key.size()] == '=')
      return item.substr(key.size() + 1);
  }
  return {};
}

bool never_started(std::string_view t) {
  t = trim(t);
  return t.empty() || t == "Unknown" || t == "None";
}

class SlurmReader final : public TraceReader {
 public:
  int detect(std::string_view, std::string_view first) const override {
    std::string h = to_lower(first);
    return h.find('|') != std::string::npos && h.find("jobid") != std::string::npos && h.find("submit") != std::string::npos
               ? 10
               : 0;
  }

  void read(ReadContext& ctx) override {
    CsvRows rows(ctx, '|', true);
    const int id = rows.require("jobid"), submit = rows.require("submit");
    const int name = rows.column("jobname"), user = rows.column("user"), account = rows.column("account"),
              partition = rows.column("partition"), start = rows.column("start"), end = rows.column("end"),
              elapsed_raw = rows.column("elapsedraw"), elapsed = rows.column("elapsed"), state = rows.column("state"),
              alloc_tres = rows.column("alloctres"), req_tres = rows.column("reqtres"),
              alloc_gres = rows.column("allocgres"), req_gres = rows.column("reqgres"), cpus = rows.column("alloccpus"),
              req_mem = rows.column("reqmem");
    if (elapsed_raw < 0 && elapsed < 0 && (start < 0 || end < 0))
      rows.require("elapsedraw");  // names the missing run time at the header line
    auto text = [&](int c) { return c >= 0 ? trim(rows.fields()[static_cast<size_t>(c)]) : std::string_view(); };
    while (rows.next()) {
      RowParser p = rows.parser();
      const std::string_view job_id = text(id);
      if (job_id.find('.') != std::string_view::npos) {  // a step (batch, extern, 0, ...) of a job
        ctx.skip_row("job step");
        continue;
      }
      if (start >= 0 && never_started(text(start))) {
        ctx.skip_row("never started");
        continue;
      }
      std::string_view st = text(state);
      if (st.substr(0, 7) == "RUNNING" || st.substr(0, 7) == "PENDING" || st.substr(0, 9) == "REQUEUED") {
        ctx.skip_row("not finished");
        continue;
      }
      JobSpec j;
      j.id = std::string(job_id);
      j.submit_time = ctx.relative_time(p.datetime(static_cast<size_t>(submit)));
      if (elapsed_raw >= 0 && p.present(elapsed_raw)) {
        j.duration = p.seconds(static_cast<size_t>(elapsed_raw));
      } else if (elapsed >= 0 && p.present(elapsed)) {
        j.duration = parse_elapsed(text(elapsed));
        if (j.duration < 0) p.fail(static_cast<size_t>(elapsed), "not a duration [D-]HH:MM:SS");
      } else if (start >= 0 && end >= 0) {
        const int64_t s = p.datetime(static_cast<size_t>(start)), e = p.datetime(static_cast<size_t>(end));
        if (p.ok() && e < s) p.fail(static_cast<size_t>(end), "before Start");
        j.duration = static_cast<double>(e - s);
      }
      // GPUs: allocated TRES, else requested TRES, else the GRES columns; none named = a CPU job.
      Gpus g;
      int gpu_col = -1;
      for (int c : {alloc_tres, req_tres, alloc_gres, req_gres}) {
        if (c < 0 || !p.present(c)) continue;
        g = c == alloc_tres || c == req_tres ? tres_gpus(text(c)) : gres_gpus(text(c));
        gpu_col = c;
        if (g.count != -1) break;
      }
      if (g.count == -2) {
        p.fail(static_cast<size_t>(gpu_col), g.problem);
      } else if (g.count > 0) {
        j.num_gpus = static_cast<int>(g.count);
        j.gpu_type = g.type;
      }
      // CPU and memory: AllocCPUS and ReqMem when present, else the allocated TRES.
      if (cpus >= 0 && p.present(cpus)) {
        j.cpu_milli = p.integer(static_cast<size_t>(cpus), 0, int64_t{1} << 30) * 1000;
      } else if (alloc_tres >= 0) {
        if (auto v = parse_int(tres_value(text(alloc_tres), "cpu")); v && *v >= 0 && *v < (int64_t{1} << 30))
          j.cpu_milli = *v * 1000;
      }
      std::string_view mem = req_mem >= 0 && p.present(req_mem) ? text(req_mem)
                             : alloc_tres >= 0                  ? tres_value(text(alloc_tres), "mem")
                                                                : std::string_view();
      if (!mem.empty()) {
        // Older sacct writes per-node/per-CPU memory with a trailing n/c ("4000Mn"): the number is kept.
        if (mem.back() == 'n' || mem.back() == 'c') mem.remove_suffix(1);
        const int64_t mib = parse_mem_mib(mem);
        if (mib < 0) p.fail(static_cast<size_t>(req_mem >= 0 ? req_mem : alloc_tres), "memory is not a size such as 64G");
        else j.memory_mib = mib;
      }
      if (!p.ok()) continue;
      j.name = std::string(text(name));
      j.user = std::string(text(user));
      j.vc = std::string(account >= 0 && !text(account).empty() ? text(account) : text(partition));
      // "CANCELLED by 1234" -> cancelled; TIMEOUT, OUT_OF_MEMORY, NODE_FAIL -> failed.
      std::string_view first_word = st.substr(0, st.find(' '));
      j.state = st.empty() ? JobState::Completed : parse_job_state(first_word);
      if (!ctx.emit(std::move(j))) return;
    }
  }
};

const bool registered = trace_reader_registry().add(
    "slurm", "SLURM accounting, sacct --parsable2 ('|'-separated, header names: JobID, Submit, ElapsedRaw, AllocTRES, ...)",
    [] { return std::make_unique<SlurmReader>(); });

}  // namespace
}  // namespace mlsys::workload
