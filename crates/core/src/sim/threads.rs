//! Whether a step's loops may be split between threads, and how they are split so that the
//! result stays the same bit for bit.
//!
//! Work is split only where the pieces are independent: springs of one colour (they share no
//! node), the even (or odd) stripes of a band ([`crate::sim::forces::bands`]), a pass over the
//! nodes. A sum over the nodes (the spin correction's moments,
//! [`crate::sim::integrators::spin`]) is taken in fixed chunks whose partial sums are added in
//! chunk order on one thread, whatever the number of threads, so that splitting changes
//! nothing: one thread and two give the same positions.
//!
//! A loop over independent items that is not the solver's own (the contacts between a world's
//! bodies, [`crate::sim::Meeting`]) runs on a [`Pool`]: the core's [`Threads`], or a game
//! engine's own pool, so that an engine's threads and rayon's do not take turns on its cores.
//!
//! Splitting costs a fork-join (a few microseconds on a pool thread), so a piece must hold
//! enough work to repay it: [`NODES_PER_TASK`] nodes of a node pass, and the thresholds of the
//! spring loops ([`crate::sim::forces::kernels`]).

use rayon::prelude::*;

/// Nodes per task when a pass over the nodes is split between threads: on 2 cores, the
/// 226k-spring converted sphere's node passes (37,802 nodes) gained with 4,096 and lost with
/// 1,024 (more fork-joins than the passes' few nanoseconds a node repay).
pub(crate) const NODES_PER_TASK: usize = 4096;

/// Whether the step may split its loops between threads.
///
/// Only work large enough to repay a fork-join is split (colour batches of at least 16,384
/// springs, band stripes of as many lanes, node passes of [`NODES_PER_TASK`] nodes), and a
/// model with too little of it steps on one thread whatever is asked: `All` is never slower
/// than `One`, and gains on models of a few hundred thousand springs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// One thread: the default, and the fastest for models of a few thousand springs.
    #[default]
    One,
    /// Rayon's global thread pool.
    All,
}

impl Threads {
    /// The fewest items of a parallel iterator per task: `per_task` on all threads, every
    /// item (no split) on one.
    pub(crate) fn min_len(self, per_task: usize) -> usize {
        match self {
            Threads::One => usize::MAX,
            Threads::All => per_task,
        }
    }

    /// `f()`, on a thread of rayon's pool when all threads are used and this is not one of
    /// them: a caller that runs several parallel loops in a row (a world's steps, each of its
    /// bodies and then a search of its contacts) then waits for the pool once, not at every
    /// loop. From outside the pool each loop is handed in and waited for asleep, and each
    /// wake-up is on the loop's path; from a pool thread the caller takes part in the loop
    /// and its wait is a spin. Measured on the 32-blob pile on 2 cores: 3.39–3.51 against
    /// 3.57–3.65 ms a frame (medians, in turns).
    pub(crate) fn within<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        match self {
            Threads::All if rayon::current_thread_index().is_none() => rayon::scope(|_| f()),
            Threads::One | Threads::All => f(),
        }
    }
}

/// Where a loop of independent items runs (module doc).
pub trait Pool: Sync {
    /// `f(i)` for each `i` in `0..n`, the results in the order of `i`.
    fn map<T: Send + 'static, F: Fn(usize) -> T + Sync + Send>(&self, n: usize, f: F) -> Vec<T>;

    /// `f(job)` for each of `jobs` (a body to step, borrowed for the call), the results in
    /// the jobs' order. On this thread, one after another, unless the pool says otherwise.
    fn each<J: Send, T: Send + 'static, F: Fn(J) -> T + Sync + Send>(
        &self,
        jobs: Vec<J>,
        f: F,
    ) -> Vec<T> {
        jobs.into_iter().map(f).collect()
    }

    /// `a()` and `b()`, perhaps at once: on this thread, one after the other, unless the pool
    /// says otherwise.
    fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        (a(), b())
    }
}

impl Pool for Threads {
    /// On this thread (`One`), or one item per task on rayon's global pool (`All`).
    fn map<T: Send + 'static, F: Fn(usize) -> T + Sync + Send>(&self, n: usize, f: F) -> Vec<T> {
        match self {
            Threads::One => (0..n).map(f).collect(),
            Threads::All => (0..n).into_par_iter().with_max_len(1).map(f).collect(),
        }
    }

    /// On this thread (`One`), or one job per task on rayon's global pool (`All`). Without
    /// the bound of one, rayon cuts the jobs into about twice as many pieces as threads and
    /// cuts a piece further only once it is stolen: on the 32-blob pile on 2 cores, a thread
    /// done with its pieces found none left to take while the other stepped its last eight
    /// bodies (one thread idle for 0.25 ms a frame, 0.13 ms once each body is a task).
    fn each<J: Send, T: Send + 'static, F: Fn(J) -> T + Sync + Send>(
        &self,
        jobs: Vec<J>,
        f: F,
    ) -> Vec<T> {
        match self {
            Threads::One => jobs.into_iter().map(f).collect(),
            Threads::All => jobs.into_par_iter().with_max_len(1).map(f).collect(),
        }
    }

    /// One after the other (`One`), or with `rayon::join` (`All`).
    fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        match self {
            Threads::One => (a(), b()),
            Threads::All => rayon::join(a, b),
        }
    }
}
