//! A small, fixed pool of threads for calls that block (`getaddrinfo`, a
//! stub resolver's socket exchange), so that a future never blocks the
//! thread that polls it.
//!
//! The pool starts on first use with 2 to 4 threads (the machine's
//! parallelism, clamped), fed by one queue. It never grows: a blocking
//! call waits on the network, not on a CPU, and a few threads are enough to
//! keep a handful of lookups in flight. More lookups than threads wait in
//! the queue, in order.
//!
//! Waking a sleeping thread costs several microseconds, and far more on a
//! virtual machine whose CPU has halted, which is more than a `localhost`
//! lookup takes. So a worker that finishes a job watches the queue for
//! [`WATCH`] before it sleeps, and a job that arrives meanwhile is taken at
//! once; a submit makes the wake-up call only when every worker sleeps.
//!
//! The threads are never joined; they end with the process.

use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::thread;
use std::time::{Duration, Instant};

/// The fewest and the most threads the pool starts.
const THREADS: (usize, usize) = (2, 4);

/// How long a worker that finished a job watches the queue before it sleeps.
const WATCH: Duration = Duration::from_micros(50);

/// Work for the pool. `run` must not panic: a job that can panics catches it
/// and reports it through its own result.
pub(crate) trait Job: Send + Sync {
    /// Does the blocking work and hands over the result. It takes the pool's
    /// reference, so that the job can let go of it before it wakes anyone:
    /// the woken future then holds the only one, and may keep the job.
    fn run(self: Arc<Self>);
}

/// Runs `job` on the pool. Where the pool cannot run it (no thread could be
/// started, as on a target without threads), it runs here, on the caller's
/// thread: slower for an async caller, but never lost.
pub(crate) fn submit(job: Arc<dyn Job>) {
    match pool() {
        Some(pool) => pool.push(job),
        None => job.run(),
    }
}

/// The pool, its threads started on first use; `None` if no thread would start.
fn pool() -> Option<&'static Pool> {
    static POOL: Pool = Pool::new();
    static STARTED: OnceLock<bool> = OnceLock::new();
    STARTED.get_or_init(|| start(&POOL)).then_some(&POOL)
}

/// Starts the workers of `pool`; whether any started.
fn start(pool: &'static Pool) -> bool {
    let wanted =
        thread::available_parallelism().map_or(THREADS.0, |n| n.get().clamp(THREADS.0, THREADS.1));
    let mut started = 0;
    for i in 0..wanted {
        let spawned = thread::Builder::new()
            .name(format!("leanwire-blocking-{i}"))
            .spawn(move || {
                loop {
                    pool.next().run();
                }
            });
        started += usize::from(spawned.is_ok());
    }
    started > 0
}

/// The queue the workers take jobs from.
struct Pool {
    jobs: Mutex<VecDeque<Arc<dyn Job>>>,
    /// The length of `jobs`, read without the lock by watching workers.
    queued: AtomicUsize,
    /// Workers asleep on `wake`.
    sleeping: AtomicUsize,
    wake: Condvar,
}

impl Pool {
    const fn new() -> Self {
        Pool {
            jobs: Mutex::new(VecDeque::new()),
            queued: AtomicUsize::new(0),
            sleeping: AtomicUsize::new(0),
            wake: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, VecDeque<Arc<dyn Job>>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn push(&self, job: Arc<dyn Job>) {
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
    /// or else after a sleep.
    fn next(&self) -> Arc<dyn Job> {
        let start = Instant::now();
        while start.elapsed() < WATCH {
            for _ in 0..64 {
                if self.queued.load(Ordering::SeqCst) > 0
                    && let Some(job) = self.take(&mut self.lock())
                {
                    return job;
                }
                std::hint::spin_loop();
            }
        }
        let mut jobs = self.lock();
        loop {
            if let Some(job) = self.take(&mut jobs) {
                return job;
            }
            self.sleeping.fetch_add(1, Ordering::SeqCst);
            jobs = self.wake.wait(jobs).unwrap_or_else(PoisonError::into_inner);
            self.sleeping.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// The first job of `jobs`, the locked queue.
    fn take(&self, jobs: &mut VecDeque<Arc<dyn Job>>) -> Option<Arc<dyn Job>> {
        let job = jobs.pop_front();
        self.queued.store(jobs.len(), Ordering::SeqCst);
        job
    }
}

/// A blocking closure's result, awaited as a future.
pub(crate) struct Task<T> {
    shared: Arc<TaskShared<T>>,
}

/// The closure a [`Task`] runs.
type Work<T> = Box<dyn FnOnce() -> io::Result<T> + Send>;

/// Where a [`Task`]'s work, result and waker meet.
struct TaskShared<T> {
    work: Mutex<Option<Work<T>>>,
    state: Mutex<TaskState<T>>,
}

struct TaskState<T> {
    result: Option<io::Result<T>>,
    waker: Option<Waker>,
}

/// Runs `work` on the pool; the returned future resolves to its result. A
/// panic in `work` becomes an error.
pub(crate) fn spawn<T: Send + 'static>(
    work: impl FnOnce() -> io::Result<T> + Send + 'static,
) -> Task<T> {
    let shared = Arc::new(TaskShared {
        work: Mutex::new(Some(Box::new(work))),
        state: Mutex::new(TaskState {
            result: None,
            waker: None,
        }),
    });
    submit(Arc::clone(&shared) as Arc<dyn Job>);
    Task { shared }
}

impl<T: Send> Job for TaskShared<T> {
    fn run(self: Arc<Self>) {
        let work = self
            .work
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let Some(work) = work else { return };
        let result = panic::catch_unwind(AssertUnwindSafe(work))
            .unwrap_or_else(|_| Err(io::Error::other("a blocking task panicked")));
        let waker = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            state.result = Some(result);
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl<T> Future for Task<T> {
    type Output = io::Result<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let mut state = self
            .shared
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(result) = state.result.take() {
            return Poll::Ready(result);
        }
        // Stored under the lock, so a result that lands after this wakes us.
        if !state
            .waker
            .as_ref()
            .is_some_and(|w| w.will_wake(cx.waker()))
        {
            state.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}
