//! A queue of jobs for a few worker threads, where a worker that finishes a
//! job watches for the next one before it sleeps.
//!
//! Waking a sleeping thread costs several microseconds, and far more on a
//! virtual machine whose CPU has halted. So a worker that finishes a job
//! watches the queue for [`WATCH`] before it sleeps, and a job that arrives
//! meanwhile is taken at once; a push makes the wake-up call only when a
//! worker sleeps.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a worker that finished a job watches the queue before it sleeps.
pub(crate) const WATCH: Duration = Duration::from_micros(50);

/// Jobs of type `J`, taken in order by the workers that call [`next`](Queue::next).
pub(crate) struct Queue<J> {
    jobs: Mutex<VecDeque<J>>,
    /// The length of `jobs`, read without the lock by watching workers.
    queued: AtomicUsize,
    /// Workers asleep on `wake`.
    sleeping: AtomicUsize,
    /// Once set, [`next`](Queue::next) returns `None` when the queue is empty.
    closed: AtomicBool,
    wake: Condvar,
}

impl<J> Queue<J> {
    /// An empty, open queue.
    pub(crate) const fn new() -> Queue<J> {
        Queue {
            jobs: Mutex::new(VecDeque::new()),
            queued: AtomicUsize::new(0),
            sleeping: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            wake: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, VecDeque<J>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `job` at the back; the queue keeps its capacity, so a push
    /// allocates only when more jobs wait than ever before.
    pub(crate) fn push(&self, job: J) {
        let mut jobs = self.lock();
        jobs.push_back(job);
        self.queued.store(jobs.len(), Ordering::SeqCst);
        // A worker counts itself asleep under the lock before it waits, so
        // one that is about to sleep is either counted here or sees the job.
        let wake = self.sleeping.load(Ordering::SeqCst) > 0;
        drop(jobs);
        if wake {
            self.wake.notify_one();
        }
    }

    /// The next job: taken at once or within [`WATCH`] without sleeping,
    /// or else after a sleep. `None` once the queue is closed and empty.
    pub(crate) fn next(&self) -> Option<J> {
        let start = Instant::now();
        while start.elapsed() < WATCH && !self.closed.load(Ordering::SeqCst) {
            for _ in 0..64 {
                if self.queued.load(Ordering::SeqCst) > 0
                    && let Some(job) = self.take(&mut self.lock())
                {
                    return Some(job);
                }
                std::hint::spin_loop();
            }
        }
        let mut jobs = self.lock();
        loop {
            if let Some(job) = self.take(&mut jobs) {
                return Some(job);
            }
            if self.closed.load(Ordering::SeqCst) {
                return None;
            }
            self.sleeping.fetch_add(1, Ordering::SeqCst);
            jobs = self.wake.wait(jobs).unwrap_or_else(PoisonError::into_inner);
            self.sleeping.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Lets the workers go once the jobs already queued are taken.
    pub(crate) fn close(&self) {
        let jobs = self.lock();
        self.closed.store(true, Ordering::SeqCst);
        drop(jobs);
        self.wake.notify_all();
    }

    /// The first job of `jobs`, the locked queue.
    fn take(&self, jobs: &mut VecDeque<J>) -> Option<J> {
        let job = jobs.pop_front();
        self.queued.store(jobs.len(), Ordering::SeqCst);
        job
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::thread;

    #[test]
    fn workers_take_every_job_once_then_leave_when_closed() {
        let queue = Arc::new(Queue::new());
        let workers: Vec<_> = (0..3)
            .map(|_| {
                let queue = Arc::clone(&queue);
                thread::spawn(move || {
                    let mut taken = Vec::new();
                    while let Some(job) = queue.next() {
                        taken.push(job);
                    }
                    taken
                })
            })
            .collect();
        for job in 0..10_000u32 {
            queue.push(job);
            if job % 1000 == 0 {
                // Lets the workers fall asleep, so that pushes must wake them.
                thread::sleep(WATCH * 4);
            }
        }
        queue.close();
        let mut taken: Vec<u32> = workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect();
        taken.sort_unstable();
        assert_eq!(taken, (0..10_000).collect::<Vec<_>>());
    }
}
