// Replays every SchedMate fuzz target (tests/fuzz/fuzz_schedmate_*.cpp) on cases generated here:
// well-formed seeds (tqdm, Lightning, Megatron, MLLOG lines, chat replies of each server shape), and
// seeded mutations of them (byte flips, cuts, inserted invalid UTF-8 and control bytes, repeats),
// deep nesting and very long lines. A target aborts or throws on a bug; here that fails the test.
#define MLSYS_FUZZ_REPLAY
#include "tests/fuzz/fuzz_schedmate_chat_reply.cpp"
#include "tests/fuzz/fuzz_schedmate_failure.cpp"
#include "tests/fuzz/fuzz_schedmate_mllog.cpp"
#include "tests/fuzz/fuzz_schedmate_tracker.cpp"

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/util/random.hpp"
#include "tests/common/test_util.hpp"

namespace {

using Target = std::function<int(const uint8_t*, size_t)>;

std::string mutate(const std::string& seed, mlsys::Rng& rng) {
  std::string s = seed;
  const int edits = 1 + static_cast<int>(rng.below(8));
  for (int e = 0; e < edits; ++e) {
    const size_t at = s.empty() ? 0 : rng.below(s.size());
    switch (rng.below(6)) {
      case 0: if (!s.empty()) s[at] = static_cast<char>(rng.below(256)); break;               // flip a byte
      case 1: s = s.substr(0, at); break;                                                     // cut
      case 2: s.insert(at, std::string("\xC3\x28\xF0\x9F\x80\xE2\x82", 1 + rng.below(7))); break;  // bad UTF-8
      case 3: s.insert(at, std::string(1 + rng.below(4), static_cast<char>(rng.below(32)))); break; // control bytes
      case 4: s.insert(at, s.substr(at, rng.below(64))); break;                               // repeat a piece
      default: s.insert(at, std::to_string(static_cast<int64_t>(rng.next() >> rng.below(64)))); break;  // a number
    }
  }
  return s;
}

void replay(const Target& target, const std::vector<std::string>& seeds, uint64_t seed, int per_seed) {
  mlsys::Rng rng(seed);
  std::vector<std::string> cases = seeds;
  cases.push_back("");
  cases.push_back(std::string(200000, 'x'));                                   // one very long line
  cases.push_back(std::string(5000, '[') + std::string(5000, ']'));            // deep nesting
  cases.push_back(std::string(5000, '{'));
  for (const auto& s : seeds)
    for (int i = 0; i < per_seed; ++i) cases.push_back(mutate(s, rng));
  for (const auto& c : cases) {
    CAPTURE(c.substr(0, 120));
    CHECK_NOTHROW(target(reinterpret_cast<const uint8_t*>(c.data()), c.size()));
  }
}

const std::vector<std::string> kLogs = {
    "Epoch 0:  19%|##        | 1610/8573 [11:25:45<50:22:32, 26.05s/it, loss=2.31, v_num=0]\n"
    "Epoch 0:  20%|##        | 1700/8573 [12:04:51<49:43:13, 26.04s/it, loss=2.30, v_num=0]",
    "2024-05-01 10:00:00 INFO iteration      100/   10000 | elapsed time per iteration (ms): 512.3 | lm loss: 7.1\n"
    "2024-05-01 10:00:51 INFO iteration      200/   10000 | elapsed time per iteration (ms): 511.9 | lm loss: 6.8",
    " 10%|#         | 100/1000 [01:40<15:00,  1.00it/s]\n{'loss': 1.23, 'learning_rate': 5e-05, 'epoch': 0.1}",
    "Epoch 3/10\n 120/500 [=====>........................] - ETA: 1:02 - loss: 0.4",
    "[2024-05-01 10:00:00] step=100 loss=3.2\n[2024-05-01 10:00:10] step=200 loss=3.1\nTraceback (most recent call last):\n"
    "  File \"train.py\", line 10, in <module>\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    "# LABEL: infra/gpu_hardware_ecc\nRuntimeError: CUDA error: uncorrectable ECC error encountered\nNCCL WARN Timeout",
};

const std::vector<std::string> kMllog = {
    ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1593163024987, \"event_type\": \"INTERVAL_END\", \"key\": \"run_stop\", "
    "\"value\": null, \"metadata\": {\"file\": \"run.py\", \"lineno\": 1, \"status\": \"aborted\"}}",
    "0: :::MLLOG {\"key\": \"eval_accuracy\", \"value\": 0.759, \"time_ms\": 1, \"metadata\": {\"epoch_num\": 40}}",
    ":::MLLOG {\"key\": \"eval_accuracy\", \"value\": {\"accuracy\": 0.72, \"bleu\": 24.1}, \"time_s\": 12.5}",
    ":::MLL resnet [06/15/19 10:00:00], run_start",
};

const std::vector<std::string> kReplies = {
    R"({"choices":[{"message":{"role":"assistant","content":"{\"model\": \"bert\", \"batch_size\": 32}"}}],"timings":{"prompt_n":3}})",
    R"({"choices":[{"message":{"content":"```json\n{\"model\": \"bert\"}\n```"}}]})",
    R"({"choices":[{"message":{"content":[{"type":"text","text":"{\"a\":"},{"type":"text","text":"1}"}]}}]})",
    R"({"model":"llama3.1","message":{"role":"assistant","content":"{\"category\": \"user/gpu_oom\"}"},"done":true})",
    R"({"object":"error","message":"response_format is not supported","type":"BadRequestError","code":400})",
    R"({"choices":[null, 3],"message":[1,2]})",
};

}  // namespace

TEST_CASE("fuzz replay: tracker, failure handler, MLLOG parser and chat replies survive generated cases") {
  replay(fuzz_schedmate_tracker, kLogs, 11, 150);
  replay(fuzz_schedmate_failure, kLogs, 12, 60);
  replay(fuzz_schedmate_mllog, kMllog, 13, 300);
  replay(fuzz_schedmate_chat_reply, kReplies, 14, 300);
  // A well-formed reply gives its answer (the target would have thrown it away otherwise).
  CHECK(mlsys::schedmate::chat_answer(kReplies[1], 32).find("model")->as_string() == "bert");
  CHECK(mlsys::schedmate::chat_answer(kReplies[2], 32).find("a")->as_int() == 1);
  CHECK_THROWS_AS(mlsys::schedmate::chat_answer(std::string(100, '[') + std::string(100, ']'), 32), mlsys::Error);
}

TEST_CASE("fuzz finding: a progress bar past its total (n > total) reports a fraction of at most 1") {
  // The input fuzz_schedmate_tracker found (a "[2/1[" bar gave fraction 2), kept in its corpus.
  const std::string log = mlsys::test::read_text(mlsys::test::source_dir() / "tests/fuzz/corpus/schedmate_tracker/bar_past_total");
  REQUIRE(!log.empty());
  CHECK(fuzz_schedmate_tracker(reinterpret_cast<const uint8_t*>(log.data()), log.size()) == 0);
}
