//! A small, fixed pool of threads for calls that block (`getaddrinfo`, a
//! stub resolver's socket exchange), so that a future never blocks the
//! thread that polls it.
//!
//! The pool starts on first use with 2 to 4 threads (the machine's
//! parallelism, clamped), fed by one channel. It never grows: a blocking
//! call waits on the network, not on a CPU, and a few threads are enough to
//! keep a handful of lookups in flight. More lookups than threads wait in
//! the queue, in order.
//!
//! The threads are never joined; they end with the process.

use std::future::Future;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::thread;

/// The fewest and the most threads the pool starts.
const THREADS: (usize, usize) = (2, 4);

/// Work for the pool. `run` must not panic: a job that can panics catches it
/// and reports it through its own result.
pub(crate) trait Job: Send + Sync {
    /// Does the blocking work and hands over the result.
    fn run(&self);
}

/// Runs `job` on the pool. Where the pool cannot run it (no thread could be
/// started, as on a target without threads), it runs here, on the caller's
/// thread: slower for an async caller, but never lost.
pub(crate) fn submit(job: Arc<dyn Job>) {
    match pool() {
        Some(tx) => {
            if let Err(mpsc::SendError(job)) = tx.send(job) {
                // Every worker is gone; they only stop when the channel
                // closes, so this is unreachable, but the job still runs.
                job.run();
            }
        }
        None => job.run(),
    }
}

/// The pool's queue, started on first use; `None` if no thread would start.
fn pool() -> Option<&'static Sender<Arc<dyn Job>>> {
    static POOL: OnceLock<Option<Sender<Arc<dyn Job>>>> = OnceLock::new();
    POOL.get_or_init(start).as_ref()
}

fn start() -> Option<Sender<Arc<dyn Job>>> {
    let (tx, rx) = mpsc::channel::<Arc<dyn Job>>();
    let rx = Arc::new(Mutex::new(rx));
    let wanted =
        thread::available_parallelism().map_or(THREADS.0, |n| n.get().clamp(THREADS.0, THREADS.1));
    let mut started = 0;
    for i in 0..wanted {
        let rx = Arc::clone(&rx);
        let spawned = thread::Builder::new()
            .name(format!("leanwire-blocking-{i}"))
            .spawn(move || work(&rx));
        started += usize::from(spawned.is_ok());
    }
    (started > 0).then_some(tx)
}

fn work(rx: &Mutex<Receiver<Arc<dyn Job>>>) {
    loop {
        // One worker waits in `recv` while holding the lock and the others
        // wait for the lock; the guard is dropped before the job runs.
        let next = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
        match next {
            Ok(job) => job.run(),
            Err(mpsc::RecvError) => return,
        }
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
    fn run(&self) {
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
