#include "sched/schedmate/generator/log_generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "core/util/strings.hpp"
#include "sched/schedmate/tracker/line_time.hpp"

namespace mlsys::schedmate {

namespace {

std::string fmt(const char* f, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

std::string iso_time(double t) {
  long secs = static_cast<long>(std::floor(t));
  long days = secs / 86400, rem = secs % 86400;
  // civil_from_days
  long z = days + 719468;
  long era = (z >= 0 ? z : z - 146096) / 146097;
  long doe = z - era * 146097;
  long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long y = yoe + era * 400;
  long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  long mp = (5 * doy + 2) / 153;
  long d = doy - (153 * mp + 2) / 5 + 1;
  long m = mp + (mp < 10 ? 3 : -9);
  y += m <= 2;
  int ms = static_cast<int>((t - std::floor(t)) * 1000.0);
  return fmt("%04ld-%02ld-%02ldT%02ld:%02ld:%02ld.%03dZ", y, m, d, rem / 3600, (rem / 60) % 60, rem % 60, ms);
}

std::string clock_text(double s) {
  long v = static_cast<long>(s);
  if (v >= 3600) return fmt("%ld:%02ld:%02ld", v / 3600, (v / 60) % 60, v % 60);
  return fmt("%02ld:%02ld", v / 60, v % 60);
}

std::string bar(double frac, bool keras) {
  const int width = keras ? 30 : 10;
  int full = static_cast<int>(frac * width);
  std::string b;
  if (keras) {
    for (int i = 0; i < width; ++i) b += i < full ? "=" : (i == full ? ">" : ".");
    return b;
  }
  for (int i = 0; i < width; ++i) b += i < full ? "#" : " ";
  return b;
}

std::string tqdm_tail(double elapsed, double remaining, double rate) {
  std::string r = rate >= 1 ? fmt("%.2fit/s", rate) : fmt("%.2fs/it", 1.0 / rate);
  return "[" + clock_text(elapsed) + "<" + clock_text(remaining) + ", " + r;
}

}  // namespace

const std::vector<LogFormat>& generated_formats() {
  static const std::vector<LogFormat> f = {LogFormat::Tqdm,  LogFormat::Lightning, LogFormat::HfTrainer,
                                           LogFormat::Megatron, LogFormat::Keras, LogFormat::DeepSpeed,
                                           LogFormat::Plain, LogFormat::Learned};
  return f;
}

LogFormat parse_format(const std::string& name) {
  std::vector<std::string> names;
  for (auto f : generated_formats()) {
    if (name == to_string(f)) return f;
    names.push_back(to_string(f));
  }
  throw ConfigError("unknown log format '" + name + "'; valid: " + join(names, ", "));
}

namespace {

using Lines = std::vector<std::string>;

// What every failure message of one log draws from: the failing rank, process and node, and a
// Python traceback that most messages end with. Members are drawn in this order (the seed fixes
// every message).
struct FailureDraw {
  Rng rng;
  int rank, pid, node;
  Lines traceback;

  explicit FailureDraw(uint64_t seed)
      : rng(seed), rank(pick(8)), pid(10000 + pick(50000)), node(1 + pick(200)),
        traceback({"Traceback (most recent call last):",
                   fmt("  File \"train.py\", line %d, in <module>", 100 + pick(400)), "    main()",
                   fmt("  File \"train.py\", line %d, in main", 20 + pick(80))}) {}
  int pick(int n) { return static_cast<int>(rng.below(static_cast<uint64_t>(n))); }
  Lines with_tb(std::string last) const {
    auto v = traceback;
    v.push_back(std::move(last));
    return v;
  }
};

// One message family per category, a variant drawn at random.
Lines none(FailureDraw&) {
  return {"Training completed. Saving final model to /output/final_model"};
}

Lines nccl_timeout(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0:
      return {fmt("[rank%d]:[E%02d%02d 10:%02d:%02d.%06d ProcessGroupNCCL.cpp:632] [Rank %d] Watchdog caught "
                  "collective operation timeout: WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=%d, NumelOut=%d, "
                  "Timeout(ms)=1800000) ran for 180%04d milliseconds before timing out.",
                  d.rank, 5, 1 + d.pick(28), d.pick(60), d.pick(60), d.pick(999999), d.rank, 1000 + d.pick(90000),
                  1 << (10 + d.pick(10)), 1 << (10 + d.pick(10)), d.pick(9999))};
    case 1:
      return {fmt("[E ProcessGroupNCCL.cpp:%d] Some NCCL operations have failed or timed out. Due to the "
                  "asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted data.",
                  400 + d.pick(400)),
              "To avoid data inconsistency, we are taking the entire process down."};
    default:
      return d.with_tb(fmt("RuntimeError: NCCL communicator was aborted on rank %d. Original reason for failure "
                         "was: [Rank %d] Watchdog caught collective operation timeout",
                         d.rank, d.rank));
  }
}

Lines gpu_hardware(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0:
      return {fmt("NVRM: Xid (PCI:0000:%02x:00): 79, pid=%d, GPU has fallen off the bus.", 16 + d.pick(200), d.pid)};
    case 1: return d.with_tb("RuntimeError: CUDA error: uncorrectable ECC error encountered");
    default:
      return {fmt("NVRM: Xid (PCI:0000:%02x:00): 48, pid=%d, An uncorrectable double bit error (DBE) has been "
                  "detected on GPU in the framebuffer at partition %d.",
                  16 + d.pick(200), d.pid, d.pick(8))};
  }
}

Lines node_failure(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0:
      return {fmt("slurmstepd: error: *** JOB %d ON node-%03d CANCELLED AT 2024-05-01T12:%02d:%02d DUE TO NODE "
                  "FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
                  100000 + d.pick(800000), d.node, d.pick(60), d.pick(60))};
    case 1: return {fmt("Pod worker-%d evicted: node node-%03d status is NodeNotReady", d.rank, d.node)};
    default: return {fmt("Message from syslogd@node-%03d: kernel:[%d.%03d] Kernel panic - not syncing: Fatal "
                         "machine check", d.node, 1000 + d.pick(90000), d.pick(1000))};
  }
}

Lines network(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0: return d.with_tb("ConnectionResetError: [Errno 104] Connection reset by peer");
    case 1:
      return {fmt("node-%03d:%d:%d [%d] NCCL WARN NET/IB : Got completion from peer 10.0.%d.%d<%d> with error 12, "
                  "opcode 0, len 0, vendor err 129",
                  d.node, d.pid, d.pid + 7, d.rank, d.pick(255), d.pick(255), 40000 + d.pick(20000))};
    default:
      return d.with_tb(fmt("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by "
                         "peer [10.0.%d.%d]:%d",
                         d.pick(255), d.pick(255), 20000 + d.pick(40000)));
  }
}

Lines storage(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0:
      return d.with_tb(fmt("OSError: [Errno 5] Input/output error: '/mnt/lustre/ckpt/step_%d.pt'", d.pick(90000)));
    case 1: return d.with_tb("OSError: [Errno 116] Stale file handle");
    default: return d.with_tb("OSError: [Errno 28] No space left on device");
  }
}

Lines gpu_oom(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0:
      return d.with_tb(fmt("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate %d.%02d GiB. GPU %d "
                         "has a total capacity of 79.15 GiB of which %d.%02d MiB is free.",
                         1 + d.pick(8), d.pick(100), d.rank, d.pick(500), d.pick(100)));
    case 1:
      return d.with_tb(fmt("RuntimeError: CUDA out of memory. Tried to allocate %d.00 MiB (GPU %d; 31.75 GiB total "
                         "capacity; %d.%02d GiB already allocated; %d.%02d MiB free)",
                         64 << d.pick(5), d.rank, 20 + d.pick(10), d.pick(100), d.pick(100), d.pick(100)));
    default: return d.with_tb("RuntimeError: CUDA error: out of memory");
  }
}

Lines host_oom(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0:
      return {"torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
              "Root Cause (first observed failure):",
              fmt("  rank      : %d (local_rank: %d)", d.rank, d.rank),
              fmt("  exitcode  : -9 (pid: %d)", d.pid),
              fmt("  traceback : Signal 9 (SIGKILL) received by PID %d", d.pid)};
    case 1:
      return {fmt("[%d.%06d] Out of memory: Killed process %d (python3) total-vm:%dkB, anon-rss:%dkB",
                  10000 + d.pick(90000),
                  d.pick(999999), d.pid, 100000000 + d.pick(90000000), 90000000 + d.pick(9000000))};
    default:
      return d.with_tb(fmt("MemoryError: Unable to allocate %d.%d GiB for an array with shape (%d, %d) and data type "
                         "float32",
                         10 + d.pick(90), d.pick(10), 100000 + d.pick(900000), 1024 << d.pick(3)));
  }
}

Lines script_error(FailureDraw& d) {
  switch (d.pick(4)) {
    case 0: return d.with_tb("ModuleNotFoundError: No module named 'apex'");
    case 1: return d.with_tb("TypeError: forward() got an unexpected keyword argument 'labels'");
    case 2:
      return d.with_tb(
          fmt("FileNotFoundError: [Errno 2] No such file or directory: '/data/shard_%05d.json'", d.pick(99999)));
    default: return d.with_tb("AttributeError: 'NoneType' object has no attribute 'shape'");
  }
}

Lines bad_config(FailureDraw& d) {
  switch (d.pick(4)) {
    case 0:
      return {"usage: train.py [-h] [--lr LR] [--batch-size N]",
              "train.py: error: unrecognized arguments: --lr-warmup 100"};
    case 1:
      return {"usage: train.py [-h] [--optimizer {sgd,adam,adamw}]",
              "train.py: error: argument --optimizer: invalid choice: 'adamw8' (choose from 'sgd', 'adam', 'adamw')"};
    case 2:
      return d.with_tb(fmt("AssertionError: global batch size (%d) is not divisible by micro batch size (%d) times "
                         "data parallel size (%d)",
                         1000 + d.pick(100), 3, 8));
    default: return d.with_tb("omegaconf.errors.MissingMandatoryValue: Missing mandatory value: model.hidden_size");
  }
}

Lines crash_after_progress(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0: return d.traceback;  // the traceback is cut before its exception line
    case 1: return {"Segmentation fault (core dumped)"};
    default:
      return {fmt("srun: error: node-%03d: task %d: Exited with exit code 134", d.node, d.rank),
              "srun: Terminating StepId=1234.0"};
  }
}

Lines hang(FailureDraw& d) {
  return {fmt("slurmstepd: error: *** JOB %d ON node-%03d CANCELLED AT 2024-05-01T12:%02d:%02d DUE TO TIME LIMIT ***",
              100000 + d.pick(800000), d.node, d.pick(60), d.pick(60))};
}

Lines not_converged(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0: return {fmt("Loss is NaN at step %d, stopping training", 100 + d.pick(90000))};
    case 1:
      return {fmt("Early stopping: validation accuracy 0.%03d did not reach the target 0.759 after %d epochs",
                  d.pick(700),
                  30 + d.pick(60))};
    default:
      return d.with_tb("RuntimeError: Function 'MseLossBackward0' returned nan values in its 0th output.");
  }
}

Lines unknown(FailureDraw& d) {
  switch (d.pick(3)) {
    case 0: return {"Segmentation fault (core dumped)"};
    case 1:
      return {"terminate called after throwing an instance of 'c10::Error'", "  what():  unexpected internal state"};
    default: return {"Fatal Python error: Aborted", "", "Current thread 0x00007f (most recent call first):"};
  }
}

using FailureMessages = Lines (*)(FailureDraw&);
// Indexed by FailureCategory (declaration order of the enum).
constexpr FailureMessages kFailureMessages[] = {none,     nccl_timeout, gpu_hardware, node_failure,         network,
                                                storage,  gpu_oom,      host_oom,     script_error,         bad_config,
                                                crash_after_progress,   hang,         not_converged,        unknown};
static_assert(std::size(kFailureMessages) == static_cast<size_t>(FailureCategory::Unknown) + 1,
              "one message family per FailureCategory");

}  // namespace

std::vector<std::string> failure_block(FailureCategory c, uint64_t seed) {
  FailureDraw draw(derive_seed(seed, static_cast<uint64_t>(c)));
  return kFailureMessages[static_cast<size_t>(c)](draw);
}

std::string GeneratedLog::text() const {
  std::string out;
  for (const auto& l : lines) {
    out += l;
    out += '\n';
  }
  return out;
}

GeneratedLog generate_log(const LogSpec& spec) {
  if (spec.total_steps <= 0 || spec.steps_per_s <= 0 || spec.log_every <= 0)
    throw ConfigError("log generator: total_steps, steps_per_s and log_every must be positive");
  Rng rng(spec.seed);
  auto u = [&rng] { return 2 * rng.uniform() - 1; };  // [-1, 1)
  GeneratedLog g;
  g.label = spec.failure;
  double t = spec.start_time;
  const int epochs = std::max(1, spec.epochs);
  const int64_t spe = std::max<int64_t>(1, spec.total_steps / epochs);  // steps per epoch
  const int64_t total = spe * epochs;
  auto emit = [&](double at, std::string line, int64_t step) {
    g.lines.push_back(iso_time(at) + " " + line);
    g.times.push_back(at);
    g.step_at_line.push_back(step);
  };
  // Header lines (startup takes a while before the first step).
  const LogFormat f = spec.format;
  emit(t, "Starting job: python train.py --config config.yaml", 0);
  if (f == LogFormat::HfTrainer) {
    emit(t + 1, "***** Running training *****", 0);
    emit(t + 1, fmt("  Num examples = %ld", static_cast<long>(total * 32)), 0);
    emit(t + 1, fmt("  Num Epochs = %d", epochs), 0);
    emit(t + 1, fmt("  Total optimization steps = %ld", static_cast<long>(total)), 0);
  } else if (f == LogFormat::Lightning) {
    emit(t + 1, fmt("Trainer configuration: max_epochs=%d, precision=16-mixed, devices=8", epochs), 0);
  } else if (f == LogFormat::Megatron || f == LogFormat::DeepSpeed) {
    emit(t + 1, fmt("  train_iters ..................................... %ld", static_cast<long>(total)), 0);
  }
  t += 30;  // model and data loading
  g.first_step_t = t;
  // An unexplained failure is generated at start-up, before any progress (after progress it is a
  // crash after progress).
  const int64_t fail_step = spec.failure == FailureCategory::None    ? total + 1
                            : spec.failure == FailureCategory::Unknown ? 1
                                : std::clamp<int64_t>(static_cast<int64_t>(spec.fail_at * static_cast<double>(total)), 1, total);
  const double base = 1.0 / spec.steps_per_s;
  double loss = 4.0;
  int keras_epoch_printed = 0;
  for (int64_t step = 1; step <= total; ++step) {
    t += base * (1.0 + spec.jitter * u());
    if (step == fail_step) break;
    loss = loss * 0.999 + 0.001 * (1.0 + 0.2 * u());
    const int epoch0 = static_cast<int>((step - 1) / spe);  // 0-based epoch of this step
    const int64_t in_epoch = step - static_cast<int64_t>(epoch0) * spe;
    if (f == LogFormat::Keras && keras_epoch_printed <= epoch0) {
      emit(t - base, fmt("Epoch %d/%d", epoch0 + 1, epochs), step - 1);
      keras_epoch_printed = epoch0 + 1;
    }
    if (step % spec.log_every != 0 && step != total) continue;
    const double elapsed = t - g.first_step_t;
    const double rate = static_cast<double>(step) / elapsed;
    const double frac = static_cast<double>(step) / static_cast<double>(total);
    const double remaining = static_cast<double>(total - step) / rate;
    switch (f) {
      case LogFormat::Tqdm:
      case LogFormat::HfTrainer:
        emit(t, fmt("%3d%%|%s| %ld/%ld ", static_cast<int>(frac * 100), bar(frac, false).c_str(), static_cast<long>(step),
                    static_cast<long>(total)) + tqdm_tail(elapsed, remaining, rate) + "]", step);
        if (f == LogFormat::HfTrainer && step % (spec.log_every * 10) == 0)
          emit(t, fmt("{'loss': %.4f, 'grad_norm': %.3f, 'learning_rate': %.3e, 'epoch': %.2f}", loss, 1 + u() * 0.3,
                      1e-4 * (1 - frac), frac * epochs), step);
        break;
      case LogFormat::Lightning: {
        double ef = static_cast<double>(in_epoch) / static_cast<double>(spe);
        double e_el = elapsed - static_cast<double>(epoch0) * static_cast<double>(spe) / rate;
        emit(t, fmt("Epoch %d: %3d%%|%s| %ld/%ld ", epoch0, static_cast<int>(ef * 100), bar(ef, false).c_str(),
                    static_cast<long>(in_epoch), static_cast<long>(spe)) +
                    tqdm_tail(std::max(0.0, e_el), static_cast<double>(spe - in_epoch) / rate, rate) +
                    fmt(", loss=%.3f, v_num=0]", loss), step);
        break;
      }
      case LogFormat::Megatron:
        emit(t, fmt("iteration %8ld/%8ld | consumed samples: %12ld | elapsed time per iteration (ms): %.1f | learning "
                    "rate: %.3E | global batch size: %5d | lm loss: %.6E | loss scale: 65536.0 | grad norm: %.3f | "
                    "number of skipped iterations:   0 | number of nan iterations:   0 |",
                    static_cast<long>(step), static_cast<long>(total), static_cast<long>(step * 256), 1000.0 * base,
                    1.5e-4, 256, loss, 1 + 0.2 * u()), step);
        break;
      case LogFormat::Keras: {
        double ef = static_cast<double>(in_epoch) / static_cast<double>(spe);
        emit(t, fmt("%ld/%ld [%s] - ETA: %s - loss: %.4f - accuracy: %.4f", static_cast<long>(in_epoch),
                    static_cast<long>(spe), bar(ef, true).c_str(),
                    clock_text(static_cast<double>(spe - in_epoch) / rate).c_str(), loss, 1 - loss / 5), step);
        break;
      }
      case LogFormat::DeepSpeed:
        emit(t, fmt("[INFO] [logging.py:96:log_dist] [Rank 0] step=%ld, skipped=0, lr=[%.6e], mom=[(0.9, 0.999)]",
                    static_cast<long>(step), 1e-4 * (1 - frac)), step);
        break;
      case LogFormat::Plain:
        emit(t, fmt("epoch %d/%d step %ld/%ld loss %.4f lr %.2e", epoch0 + 1, epochs, static_cast<long>(in_epoch),
                    static_cast<long>(spe), loss, 1e-4), step);
        break;
      case LogFormat::Learned:
      case LogFormat::Mlperf:  // not generated: real MLPerf logs are read as they are
      case LogFormat::Unknown:
        emit(t, fmt("[trainer] it=%ld tot=%ld loss=%.4f lr=%.2e", static_cast<long>(step), static_cast<long>(total), loss,
                    1e-4), step);
        break;
    }
    if (step % (spec.log_every * 50) == 0) emit(t, fmt("Saving model checkpoint to /output/checkpoint-%ld", static_cast<long>(step)), step);
  }
  double full = g.first_step_t + static_cast<double>(total) * base;
  g.full_run_end_t = full;
  if (spec.failure != FailureCategory::None) {
    int64_t done = fail_step - 1;
    // A collective hangs before its watchdog speaks; a hung run goes silent until its time limit.
    if (spec.failure == FailureCategory::NcclTimeout || spec.failure == FailureCategory::Hang) t += spec.hang_s;
    g.failure_line = static_cast<int64_t>(g.lines.size());
    for (auto& l : failure_block(spec.failure, spec.seed)) emit(t, l, done);
  } else {
    emit(t, "Training completed. Saving final model to /output/final_model", total);
  }
  g.end_t = t;
  return g;
}

}  // namespace mlsys::schedmate
