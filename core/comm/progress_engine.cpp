#include "core/comm/progress_engine.hpp"

#include <algorithm>
#include <climits>

#include "core/util/error.hpp"

namespace mlsys::comm {

using Clock = std::chrono::steady_clock;

namespace {
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double stamp(Clock::time_point t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); }
}  // namespace

struct Ticket::State {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  double busy_s = 0;
  Ticket::Times times;
  void finish(std::exception_ptr e) {
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
      error = std::move(e);
    }
    cv.notify_all();
  }
};

bool Ticket::done() const {
  if (!s_) return true;
  std::lock_guard<std::mutex> lock(s_->mu);
  return s_->done;
}

double Ticket::wait() {
  if (!s_) return 0;
  const auto t = Clock::now();
  std::unique_lock<std::mutex> lock(s_->mu);
  const bool was_done = s_->done;
  s_->cv.wait(lock, [&] { return s_->done; });
  if (s_->error) std::rethrow_exception(s_->error);
  return was_done ? 0.0 : since(t);
}

double Ticket::busy_seconds() const {
  if (!s_) return 0;
  std::lock_guard<std::mutex> lock(s_->mu);
  return s_->busy_s;
}

Ticket::Times Ticket::times() const {
  if (!s_) return {};
  std::lock_guard<std::mutex> lock(s_->mu);
  return s_->times;
}

ProgressEngine::ProgressEngine(Communicator& c, std::function<void()> thread_init) : c_(c) {
  thread_ = std::thread([this, init = std::move(thread_init)] { loop(init); });
}

ProgressEngine::~ProgressEngine() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Ticket ProgressEngine::submit(Job job) {
  auto st = std::make_shared<Ticket::State>();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) throw Error("progress engine: submit after shutdown (" + job.what + ")");
    queue_.push_back(Item{std::move(job), st, Request(), {}});
  }
  cv_.notify_all();
  return Ticket(st);
}

double ProgressEngine::call(const std::string& what, std::function<void(Communicator&)> fn, int priority) {
  return submit({what,
                 [fn = std::move(fn)](Communicator& c) {
                   fn(c);
                   return Request();
                 },
                 {}, priority})
      .wait();
}

void ProgressEngine::complete(Item& it) {
  const auto t = Clock::now();
  std::exception_ptr err;
  c_.set_priority(it.job.priority);  // what finishing sends (e.g. a later phase) keeps the job's urgency
  try {
    it.request.wait();  // receives what already arrived (inproc copies here)
    if (it.job.finish) it.job.finish();
  } catch (...) {
    err = std::current_exception();
  }
  c_.set_priority(kPriorityNormal);
  {
    std::lock_guard<std::mutex> lock(it.ticket->mu);
    it.ticket->busy_s += since(t);
    it.ticket->times.finish_begin = stamp(t);
    it.ticket->times.finish_end = stamp(Clock::now());
  }
  it.ticket->finish(err);
}

// Polls every operation in flight once and completes those that finished, the most urgent first
// (posting order among equals); one that has been in flight longer than the timeout is waited on
// (its own timeout error then names it).
bool ProgressEngine::progress(std::deque<Item>& inflight, int min_priority) {
  std::vector<size_t> ready;
  for (size_t i = 0; i < inflight.size(); ++i) {
    Item& it = inflight[i];
    if (it.job.priority < min_priority) continue;
    bool done = false;
    try {
      done = it.request.test() || since(it.started) > c_.timeout_s();
    } catch (...) {
      done = true;  // complete() rethrows the failure into the ticket
    }
    if (done) ready.push_back(i);
  }
  std::stable_sort(ready.begin(), ready.end(),
                   [&](size_t a, size_t b) { return inflight[a].job.priority > inflight[b].job.priority; });
  for (size_t i : ready) complete(inflight[i]);
  std::sort(ready.begin(), ready.end());
  for (auto i = ready.rbegin(); i != ready.rend(); ++i) inflight.erase(inflight.begin() + static_cast<std::ptrdiff_t>(*i));
  return !ready.empty();
}

void ProgressEngine::loop(std::function<void()> init) {
  std::deque<Item> inflight;
  std::exception_ptr init_error;
  if (init) {
    try {
      init();
    } catch (...) {
      init_error = std::current_exception();
    }
  }
  // Idle polling backs off from 10 us to 200 us: messages delayed by a modeled link arrive on
  // their own schedule, and a busy loop would take a core from the computation it overlaps.
  auto backoff = std::chrono::microseconds(10);
  for (;;) {
    std::deque<Item> fresh;
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (queue_.empty() && inflight.empty()) cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      else if (queue_.empty()) cv_.wait_for(lock, backoff, [&] { return !queue_.empty(); });
      fresh.swap(queue_);
      if (stop_ && fresh.empty() && inflight.empty()) return;
    }
    bool any = !fresh.empty();
    for (size_t k = 0; k < fresh.size(); ++k) {
      Item& it = fresh[k];
      if (init_error) {
        it.ticket->finish(init_error);
        continue;
      }
      const auto t = Clock::now();
      it.started = t;
      c_.set_priority(it.job.priority);
      try {
        it.request = it.job.start(c_);
      } catch (...) {
        c_.set_priority(kPriorityNormal);
        it.ticket->finish(std::current_exception());
        continue;
      }
      c_.set_priority(kPriorityNormal);
      {
        std::lock_guard<std::mutex> lock(it.ticket->mu);
        it.ticket->busy_s += since(t);
        it.ticket->times.start_begin = stamp(t);
        it.ticket->times.start_end = stamp(Clock::now());
      }
      inflight.push_back(std::move(it));
      // A blocking step or a quick operation may already be complete: finish it before the next
      // starts, so a collective's completion is not held behind later jobs; but nothing less
      // urgent than the next job (a halo's decoding must not hold up a gradient all-reduce).
      progress(inflight, k + 1 < fresh.size() ? fresh[k + 1].job.priority : INT_MIN);
    }
    if (progress(inflight, INT_MIN)) any = true;
    backoff = any ? std::chrono::microseconds(10) : std::min(backoff * 2, std::chrono::microseconds(200));
  }
}

}  // namespace mlsys::comm
