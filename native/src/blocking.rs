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
//! Waking a sleeping thread costs more than a `localhost` lookup takes, so
//! the workers watch their [`Queue`] for a moment before they sleep.
//!
//! The threads are never joined; they end with the process.

use std::future::Future;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::thread;

use crate::queue::Queue;

/// The fewest and the most threads the pool starts.
const THREADS: (usize, usize) = (2, 4);

/// Work for the pool. `run` must not panic: a job that can panics catches it
/// and reports it through its own result.
pub(crate) trait Job: Send + Sync {
    /// Does the blocking work and hands over the result. It takes the pool's
    /// reference, so that the job can let go of it before it wakes anyone:
    /// the woken future then holds the only one, and may keep the job.
    fn run(self: Arc<Self>);
}

/// The queue the workers take jobs from.
type Pool = Queue<Arc<dyn Job>>;

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
    static POOL: Pool = Queue::new();
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
                while let Some(job) = pool.next() {
                    job.run();
                }
            });
        started += usize::from(spawned.is_ok());
    }
    started > 0
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

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// Awaits `task` on a thread of its own, failing rather than hanging
    /// if it is not done within a few seconds.
    fn finish<T: Send + 'static>(task: Task<T>) -> io::Result<T> {
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || tx.send(pollster::block_on(task)));
        rx.recv_timeout(Duration::from_secs(5))
            .expect("the task was not done within 5 s")
    }

    #[test]
    fn work_runs_on_a_pool_thread() {
        let task = spawn(|| Ok(thread::current().name().map(str::to_owned)));
        let name = finish(task).unwrap().unwrap_or_default();
        assert!(name.starts_with("leanwire-blocking-"), "{name:?}");
    }

    #[test]
    fn a_result_that_lands_after_the_first_poll_wakes_the_task() {
        let task = spawn(|| {
            thread::sleep(Duration::from_millis(100));
            Ok(7)
        });
        assert_eq!(finish(task).unwrap(), 7);
    }

    #[test]
    fn a_panic_in_the_work_is_an_error() {
        let task = spawn(|| -> io::Result<()> { panic!("deliberately") });
        let err = finish(task).unwrap_err();
        assert_eq!(err.to_string(), "a blocking task panicked");
    }
}
