#include "sched/schedmate/tracker/metric_tracker.hpp"

#include <algorithm>

#include "sched/schedmate/tracker/line_time.hpp"

namespace mlsys::schedmate {

namespace {
constexpr size_t kGapRing = 32;
constexpr size_t kHintScanLines = 5000;

Json num_or_null(double v) { return std::isnan(v) ? Json(nullptr) : Json(v); }
}  // namespace

Json TrackerSnapshot::to_json() const {
  Json j = Json::object();
  j["format"] = to_string(format);
  j["unit"] = epochs ? "epoch" : "step";
  j["done"] = num_or_null(done);
  j["total"] = num_or_null(total);
  j["fraction"] = num_or_null(fraction);
  j["rate_per_s"] = num_or_null(rate);
  j["remaining_s"] = num_or_null(remaining_s);
  j["scope"] = scope;
  if (!std::isnan(quality) || !std::isnan(quality_target) || !run_status.empty()) {
    j["quality"] = num_or_null(quality);
    j["quality_target"] = num_or_null(quality_target);
    j["run_status"] = run_status;
    j["run_start_t"] = num_or_null(run_start_t);
    j["run_stop_t"] = num_or_null(run_stop_t);
  }
  j["stalled"] = stalled;
  j["lines"] = static_cast<int64_t>(lines);
  j["progress_lines"] = static_cast<int64_t>(progress_lines);
  return j;
}

MetricTracker::MetricTracker(TrackerOptions opt) : opt_(std::move(opt)) {
  st_.total_steps_hint = opt_.total_steps_hint;
  st_.total_epochs_hint = opt_.total_epochs_hint;
}

void MetricTracker::feed(std::string_view line, double now_s) {
  ++lines_;
  LineTime lt = parse_line_time(line);
  std::string_view body = lt.found ? line.substr(lt.end) : line;
  double t = lt.found ? lt.seconds : now_s;
  ProgressObs o;
  bool progress = parse_progress(body, st_, o);
  if (!lt.found && !std::isnan(st_.line_time_s)) t = st_.line_time_s;  // MLLOG lines carry their clock
  if (!progress && learned_) {
    double done = 0, total = NAN;
    if (match_pattern(*learned_, body, done, total)) {
      o.format = LogFormat::Learned;
      o.done = done;
      o.total = std::isnan(total) ? st_.total_steps_hint : total;
      progress = true;
    }
  }
  if (!progress) {
    if (lines_ <= kHintScanLines) parse_length_hint(body, st_);
    if (format_ == LogFormat::Unknown && !learned_ && learn_tries_ < 2) {
      sample_.emplace_back(line);
      if (sample_.size() >= (learn_tries_ == 0 ? opt_.learn_after_lines : opt_.relearn_after_lines)) try_learn();
    }
  }
  // Without absolute timestamps, a tqdm bar's elapsed field is the clock.
  if (std::isnan(t) && progress && !std::isnan(o.elapsed_s)) t = o.elapsed_s;
  if (!std::isnan(t)) {
    if (!std::isnan(clock_) && t < clock_ && progress) t = clock_;  // never run backwards
    // Remember how the line clock relates to the caller's, so tick() can speak the line clock.
    if (!std::isnan(now_s)) {
      wall_at_feed_ = now_s;
      line_at_feed_ = t;
    }
    check_stall(t);
    clock_ = std::isnan(clock_) ? t : std::max(clock_, t);
  }
  if (progress) {
    if (!std::isnan(o.rate_hint)) rate_hint_ = o.rate_hint;
    bar_fraction_ = o.bar_fraction;
    bar_remaining_ = o.bar_remaining_s;
    bar_is_run_ = o.bar_is_run;
    // No clock at all: the line number orders events, but rates then come only from the lines.
    pseudo_time_ = std::isnan(t);
    observe(o, pseudo_time_ ? static_cast<double>(lines_) : t);
  }
}

void MetricTracker::try_learn() {
  ++learn_tries_;
  if (opt_.learner) learned_ = opt_.learner(sample_);
  if (!learned_) learned_ = learn_pattern(sample_);
  if (learned_) {
    // Replay the sample so the progress before learning counts too.
    std::vector<std::string> replay;
    replay.swap(sample_);
    size_t saved = lines_;
    lines_ = 0;
    for (const auto& l : replay) {
      LineTime lt = parse_line_time(l);
      std::string_view body = lt.found ? std::string_view(l).substr(lt.end) : std::string_view(l);
      double done = 0, total = NAN;
      ++lines_;
      if (!match_pattern(*learned_, body, done, total)) continue;
      ProgressObs o;
      o.format = LogFormat::Learned;
      o.done = done;
      o.total = std::isnan(total) ? st_.total_steps_hint : total;
      double t = lt.found ? lt.seconds : static_cast<double>(lines_);
      check_stall(t);
      clock_ = std::isnan(clock_) ? t : std::max(clock_, t);
      observe(o, t);
    }
    lines_ = saved;
  }
  // Keep the sample for the second, larger try; drop it once learning is over.
  if (learned_ || learn_tries_ >= 2) {
    sample_.clear();
    sample_.shrink_to_fit();
  }
}

void MetricTracker::observe(const ProgressObs& o, double t) {
  ++progress_lines_;
  if (format_ == LogFormat::Unknown || format_ == LogFormat::Tqdm) format_ = o.format;
  // Units can switch (a Keras epoch header before its step lines): restart the rate anchor then.
  if (o.epochs != epochs_ && !std::isnan(first_t_)) {
    first_t_ = NAN;
    gaps_.clear();
    gap_pos_ = 0;
  }
  epochs_ = o.epochs;
  if (!std::isnan(o.total)) total_ = o.total;
  if (!std::isnan(last_t_) && t > last_t_ && o.done > last_done_) {
    double gap = t - last_t_;
    if (gaps_.size() < kGapRing) gaps_.push_back(gap);
    else gaps_[gap_pos_++ % kGapRing] = gap;
  }
  if (std::isnan(first_t_)) {
    first_t_ = t;
    first_done_ = o.done;
  }
  if (std::isnan(last_done_) || o.done != last_done_ || std::isnan(last_t_)) {
    last_t_ = t;
    stalled_ = false;
  }
  last_done_ = o.done;
  if (opt_.keep_series) {
    TrackerSnapshot s = snapshot();
    series_.push_back(ProgressPoint{t, o.done, total_, s.rate, s.remaining_s});
  }
}

double MetricTracker::usual_gap() const {
  if (gaps_.empty()) return NAN;
  std::vector<double> g = gaps_;
  std::nth_element(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(g.size() / 2), g.end());
  return g[g.size() / 2];
}

bool MetricTracker::check_stall(double now) {
  if (stalled_ || std::isnan(last_t_) || gaps_.size() < opt_.min_gaps_for_stall) return false;
  if (!std::isnan(total_) && last_done_ >= total_) return false;  // finished, not stalled
  double usual = usual_gap();
  double threshold = opt_.stall_factor * usual;
  if (now - last_t_ <= threshold) return false;
  stalled_ = true;
  stalls_.push_back(StallEvent{last_t_, last_t_ + threshold, usual, last_done_});
  return true;
}

bool MetricTracker::tick(double now_s) {
  if (std::isnan(now_s)) return false;
  if (!std::isnan(wall_at_feed_)) now_s = line_at_feed_ + (now_s - wall_at_feed_);
  bool flagged = check_stall(now_s);
  clock_ = std::isnan(clock_) ? now_s : std::max(clock_, now_s);
  return flagged;
}

TrackerSnapshot MetricTracker::snapshot() const {
  TrackerSnapshot s;
  s.format = format_;
  s.epochs = epochs_;
  s.lines = lines_;
  s.progress_lines = progress_lines_;
  s.stalled = stalled_;
  s.now_t = clock_;
  s.quality = st_.quality;
  s.quality_target = st_.quality_target;
  s.run_status = st_.run_status;
  s.run_start_t = st_.run_start_s;
  s.run_stop_t = st_.run_stop_s;
  if (progress_lines_ == 0) return s;
  s.done = last_done_;
  s.total = total_;
  s.last_progress_t = last_t_;
  if (!std::isnan(total_) && total_ > 0) s.fraction = std::min(1.0, last_done_ / total_);
  if (pseudo_time_) s.rate = rate_hint_;
  else if (last_t_ > first_t_ && last_done_ > first_done_) s.rate = (last_done_ - first_done_) / (last_t_ - first_t_);
  else if (!std::isnan(rate_hint_)) s.rate = rate_hint_;
  if (!std::isnan(s.rate) && s.rate > 0 && !std::isnan(total_)) s.remaining_s = std::max(0.0, (total_ - last_done_) / s.rate);
  // A progress bar that states its remaining time for the whole run is believed (tqdm smooths its
  // rate); with the run's length unknown, the bar of the current epoch is all there is.
  if (!std::isnan(bar_remaining_) && (bar_is_run_ || std::isnan(total_))) s.remaining_s = bar_remaining_;
  if (std::isnan(total_) && !std::isnan(bar_fraction_)) {
    s.fraction = bar_fraction_;
    s.scope = "epoch";
  }
  // Counters that run backwards or past their stated total (restarts, garbled lines) never report
  // a fraction outside [0, 1].
  if (!std::isnan(s.fraction)) s.fraction = std::clamp(s.fraction, 0.0, 1.0);
  // Time already spent since the last progress line counts against what is left.
  if (!std::isnan(s.remaining_s) && !pseudo_time_ && !std::isnan(clock_) && clock_ > last_t_)
    s.remaining_s = std::max(0.0, s.remaining_s - (clock_ - last_t_));
  return s;
}

}  // namespace mlsys::schedmate
