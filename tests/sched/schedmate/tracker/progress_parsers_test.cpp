#include <doctest/doctest.h>

#include <string>

#include "sched/schedmate/tracker/line_time.hpp"
#include "sched/schedmate/tracker/progress_parsers.hpp"

using namespace mlsys::schedmate;

namespace {
ProgressObs parse(const std::string& line, ParserState& st) {
  ProgressObs o;
  REQUIRE_MESSAGE(parse_progress(line, st, o), line);
  return o;
}
}  // namespace

TEST_CASE("known progress formats") {
  ParserState st;
  auto o = parse("  1%|          | 10/1752 [00:29<1:22:01,  2.83s/it]", st);
  CHECK(o.format == LogFormat::Tqdm);
  CHECK(o.done == 10);
  CHECK(o.total == 1752);
  CHECK(o.elapsed_s == 29);
  CHECK(o.rate_hint == doctest::Approx(1 / 2.83));

  o = parse("iteration       50/    1000 | consumed samples: 200 | elapsed time per iteration (ms): 661.3 |", st);
  CHECK(o.format == LogFormat::Megatron);
  CHECK(o.done == 50);
  CHECK(o.total == 1000);
  CHECK(o.rate_hint == doctest::Approx(1000 / 661.3));

  ParserState lt;
  CHECK(parse_length_hint("Trainer configuration: max_epochs=10, precision=16", lt));
  o = parse("Epoch 3:  45%|####      | 450/1000 [01:23<01:40,  5.42it/s, loss=0.123, v_num=0]", lt);
  CHECK(o.format == LogFormat::Lightning);
  CHECK(o.epochs);
  CHECK(o.done == doctest::Approx(3.45));
  CHECK(o.total == 10);

  ParserState ks;
  o = parse("Epoch 3/10", ks);
  CHECK(o.format == LogFormat::Keras);
  CHECK(o.done == 2);
  o = parse("450/1000 [=============>................] - ETA: 1:40 - loss: 0.1234", ks);
  CHECK(o.format == LogFormat::Keras);
  CHECK(o.done == doctest::Approx(2.45));
  CHECK(o.total == 10);

  ParserState ds;
  CHECK(parse_length_hint("  train_iters ..................................... 5000", ds));
  o = parse("[INFO] [logging.py:96:log_dist] [Rank 0] step=120, skipped=0, lr=[0.0001], mom=[(0.9, 0.999)]", ds);
  CHECK(o.format == LogFormat::DeepSpeed);
  CHECK(o.done == 120);
  CHECK(o.total == 5000);

  ParserState pl;
  o = parse("epoch 2/4 step 250/500 loss 0.3", pl);
  CHECK(o.format == LogFormat::Plain);
  CHECK(o.done == doctest::Approx(1.5));
  o = parse("Step: 300/5000 | loss 1.2", pl);
  CHECK(o.done == 300);
  o = parse("iter 7/70", pl);
  CHECK(o.total == 70);

  ParserState hf;
  ProgressObs none;
  CHECK_FALSE(parse_progress("{'loss': 0.5, 'learning_rate': 1e-05, 'epoch': 0.1}", hf, none));
  CHECK(hf.hf_seen);
  o = parse(" 5%|5         | 50/1000 [00:25<08:00,  1.98it/s]", hf);
  CHECK(o.format == LogFormat::HfTrainer);
}

TEST_CASE("lines that only look like progress are not") {
  ParserState st;
  ProgressObs o;
  CHECK_FALSE(parse_progress("Loading /data/2024/05/file_3/7.bin", st, o));
  CHECK_FALSE(parse_progress("date 2024/05/01 ok", st, o));
  CHECK_FALSE(parse_progress("ratio 3/4 of the data", st, o));
  CHECK_FALSE(parse_progress("", st, o));
  CHECK_FALSE(parse_progress("/////", st, o));
}

TEST_CASE("line timestamps") {
  auto t = parse_line_time("2024-05-01T10:00:00.500Z step 1/2");
  REQUIRE(t.found);
  CHECK(t.seconds == doctest::Approx(1714557600.5));
  CHECK(std::string_view("2024-05-01T10:00:00.500Z step 1/2").substr(t.end) == "step 1/2");
  t = parse_line_time(" [2024-08-01 09:44:55] iteration 1/5");
  REQUIRE(t.found);
  CHECK(std::string_view(" [2024-08-01 09:44:55] iteration 1/5").substr(t.end) == "iteration 1/5");
  CHECK(parse_line_time("2024-05-01 10:00:01,250 INFO x").seconds - parse_line_time("2024-05-01 10:00:00 x").seconds ==
        doctest::Approx(1.25));
  CHECK_FALSE(parse_line_time("2024-13-01 10:00:00 x").found);
  CHECK_FALSE(parse_line_time("hello").found);
  double s = 0;
  CHECK(parse_clock("1:22:01", s));
  CHECK(s == 4921);
  CHECK_FALSE(parse_clock("12", s));
}
