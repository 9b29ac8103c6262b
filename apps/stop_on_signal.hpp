// StopOnSignal: while it lives, SIGINT (Ctrl-C) and SIGTERM set a flag instead of ending the
// process, so that a long command can stop at a safe point and write what it has; the first
// signal restores the default handler, so that a second one ends the process at once.
#pragma once

#include <atomic>
#include <csignal>

namespace clothfit::apps {

class StopOnSignal {
 public:
  StopOnSignal() {
    requested() = false;
    std::signal(SIGINT, handle);
    std::signal(SIGTERM, handle);
  }
  ~StopOnSignal() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

  // Set once a signal came.
  static std::atomic<bool>& requested() {
    static std::atomic<bool> flag{false};
    return flag;
  }

 private:
  static_assert(std::atomic<bool>::is_always_lock_free);  // safe to set in a handler
  static void handle(int signal) {
    requested() = true;
    std::signal(signal, SIG_DFL);
  }
};

}  // namespace clothfit::apps
