#include "sched/schedmate/failure/failure_rules.hpp"

namespace mlsys::schedmate {

const std::vector<FailureRule>& failure_rules() {
  using C = FailureCategory;
  static const std::vector<FailureRule> rules = {
      {C::GpuHardware, 100,
       {{"uncorrectable ecc error"}, {"ecc error"}, {"double bit ecc"}, {"nvrm: xid"}, {"xid", "gpu"},
        {"fallen off the bus"}, {"row remapping failure"}, {"uncorrectable nvlink error"},
        {"cudaerroreccuncorrectable"}, {"gpu is lost"}}},
      {C::GpuOom, 90,
       {{"cuda out of memory"}, {"outofmemoryerror"}, {"cuda error: out of memory"}, {"cublas_status_alloc_failed"},
        {"oom when allocating tensor"}, {"resourceexhaustederror"}, {"hip out of memory"},
        {"failed to allocate", "gpu memory"}}},
      {C::HostOom, 85,
       {{"out of memory: killed process"}, {"oom-kill"}, {"oom_kill"}, {"oomkilled"}, {"exitcode : -9"},
        {"exitcode: -9"}, {"signal 9 (sigkill)"}, {"died with <signals.sigkill: 9>"}, {"memoryerror"},
        {"cannot allocate memory"}, {"std::bad_alloc"}, {"defaultcpuallocator: can't allocate memory"}}},
      {C::BadConfig, 82,
       {{"unrecognized arguments"}, {"invalid choice"}, {"error: the following arguments are required"},
        {"error: argument"}, {"configerror"}, {"omegaconf.errors"}, {"missing mandatory value"},
        {"is not divisible by"}, {"must be divisible by"}, {"invalid value for"}, {"valueerror: invalid"},
        {"jsondecodeerror"}, {"yaml.scanner"}}},
      {C::ScriptError, 80,
       {{"modulenotfounderror"}, {"importerror"}, {"filenotfounderror"}, {"syntaxerror"}, {"indentationerror"},
        {"typeerror:"}, {"nameerror:"}, {"attributeerror:"}, {"keyerror:"}, {"indexerror:"},
        {"zerodivisionerror"}, {"assertionerror"}, {"notimplementederror"}, {"unboundlocalerror"},
        {"no such file or directory"}}},
      {C::Storage, 70,
       {{"input/output error"}, {"stale file handle"}, {"no space left on device"}, {"disk quota exceeded"},
        {"read-only file system"}, {"transport endpoint is not connected"}, {"lustreerror"},
        {"nfs: server", "not responding"}, {"remote i/o error"}}},
      {C::NodeFailure, 68,
       {{"due to node failure"}, {"node failure"}, {"node_fail"}, {"nodenotready"}, {"node not ready"},
        {"lost connection to node"}, {"kernel panic"}, {"machine check"}, {"host is down"},
        {"node", "unreachable"}}},
      {C::Network, 65,
       {{"connection reset by peer"}, {"connection refused"}, {"network is unreachable"}, {"no route to host"},
        {"ibv_poll_cq"}, {"ib_plugin"}, {"net/ib"}, {"ncclsystemerror"}, {"ncclremoteerror"},
        {"temporary failure in name resolution"}, {"name or service not known"}, {"broken pipe"},
        {"connection closed by peer"}}},
      {C::NcclTimeout, 60,
       {{"watchdog caught collective"}, {"collective operation timeout"}, {"nccl timeout"},
        {"processgroupnccl", "timeout"}, {"processgroupnccl", "timed out"}, {"nccl communicator was aborted"},
        {"nccl", "timed out"}, {"barrier", "timed out"}}},
      // A run that stopped on its own quality checks: below every fault, which would explain it.
      {C::NotConverged, 50,
       {{"loss is nan"}, {"nan loss"}, {"loss became nan"}, {"returned nan values"}, {"did not converge"},
        {"failed to converge"}, {"diverged"}, {"target accuracy not reached"}, {"did not reach", "target"}}},
  };
  return rules;
}

std::string normalize_line(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  bool blank = false;
  for (char ch : line) {
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out.push_back(' ');
    blank = false;
    out.push_back(ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch);
  }
  return out;
}

const FailureRule* match_failure_rule(const std::string& normalized) {
  const FailureRule* best = nullptr;
  for (const auto& rule : failure_rules()) {
    if (best && rule.priority <= best->priority) continue;
    for (const auto& alt : rule.any_of) {
      bool all = true;
      for (const auto& phrase : alt)
        if (normalized.find(phrase) == std::string::npos) {
          all = false;
          break;
        }
      if (all) {
        best = &rule;
        break;
      }
    }
  }
  return best;
}

bool looks_like_error(const std::string& n) {
  static const char* const kPhrases[] = {"traceback (most recent call last)", "error:", "exception:", "fatal",
                                         "segmentation fault", "core dumped", "aborted", "terminate called",
                                         "exited with code", "exit code", "failed", "killed by signal",
                                         "bus error", "illegal instruction"};
  for (const char* p : kPhrases)
    if (n.find(p) != std::string::npos) return true;
  return false;
}

}  // namespace mlsys::schedmate
