#pragma once
// A communication thread for one rank: operations the rank submits start on this thread in
// submission order and are then driven to completion here (polled, received, finished, e.g.
// decoded) while the rank computes. Starting in submission order keeps MPI's rule (every rank
// issues the same collectives in the same order) when the rank funnels all its communication
// through the engine, and only one thread ever calls the communicator while the engine runs (MPI
// thread level "serialized" suffices; NCCL's per-communicator ordering holds).
//
//   comm::ProgressEngine engine(c);
//   comm::Ticket t = engine.submit({"halo fwd 1", [&](comm::Communicator& c) {   // engine thread
//                                     encode(send, wire); return c.iall_to_all_v(wire, ...); },
//                                   [&] { decode(recv_wire, recv); }});         // engine thread, once done
//   compute();                                   // the exchange progresses meanwhile
//   double blocked = t.wait();                   // seconds this thread was blocked (0 if done)
//   engine.call([&](comm::Communicator& c) { c.all_reduce(...); });   // a blocking op, in order
//
// Priorities: a job's `priority` is the communicator's (Communicator::set_priority) while its steps
// run, so a modeled link carries an urgent job's messages first (comm.link_schedule); jobs still
// START in submission order (the collective order stays the same on every rank), but among the
// operations in flight that completed, the most urgent is finished first, and less urgent ones
// are not finished (decoded) while an urgent job waits to start.
//
// Failures (a throwing step, a timeout) are rethrown by the ticket's wait(); an operation that has
// not completed comm.timeout_s after it started is waited on, so the communicator's own timeout
// error (naming rank and operation) surfaces.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/comm/communicator.hpp"

namespace mlsys::comm {

struct Job {
  std::string what;                                // for errors
  std::function<Request(Communicator&)> start;     // issues the operation (engine thread)
  std::function<void()> finish;                    // after it completed (engine thread); may be empty
  int priority = kPriorityNormal;                  // kPriorityUrgent: the rank waits on it now
};

class Ticket {
 public:
  struct State;
  Ticket() = default;  // already complete
  explicit Ticket(std::shared_ptr<State> s) : s_(std::move(s)) {}
  bool done() const;
  // Blocks until the job finished; returns the seconds spent blocked. Rethrows the job's failure.
  double wait();
  // Engine-thread seconds spent in the job's start and finish steps (e.g. encoding, decoding).
  double busy_seconds() const;
  // When the steps ran (steady_clock seconds since its epoch; 0 = not run): start, end of start,
  // begin of finish, end of finish. For traces.
  struct Times {
    double start_begin = 0, start_end = 0, finish_begin = 0, finish_end = 0;
  };
  Times times() const;

 private:
  std::shared_ptr<State> s_;
};

class ProgressEngine {
 public:
  // `thread_init` runs first on the engine thread (e.g. binding a device to it).
  explicit ProgressEngine(Communicator& c, std::function<void()> thread_init = {});
  ~ProgressEngine();  // completes what was submitted, then joins the thread
  ProgressEngine(const ProgressEngine&) = delete;
  ProgressEngine& operator=(const ProgressEngine&) = delete;

  Ticket submit(Job job);
  // Runs fn on the engine thread in order with the submitted jobs and waits for it; returns the
  // seconds blocked. Urgent by default: the caller is blocked until it is done.
  double call(const std::string& what, std::function<void(Communicator&)> fn, int priority = kPriorityUrgent);
  Communicator& comm() { return c_; }

 private:
  struct Item {
    Job job;
    std::shared_ptr<Ticket::State> ticket;
    Request request;
    std::chrono::steady_clock::time_point started;
  };
  void loop(std::function<void()> init);
  // Completes the operations in flight that finished and are at least `min_priority` urgent, the
  // most urgent first.
  bool progress(std::deque<Item>& inflight, int min_priority);
  void complete(Item& it);

  Communicator& c_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;  // submitted, not started
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace mlsys::comm
