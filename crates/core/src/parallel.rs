//! Two independent jobs at once, on a thread that lives only for the call.
//!
//! Loading and compiling a large model (a 2.6-million-spring scan) is a few passes over
//! hundreds of megabytes; some of them do not depend on each other, and a second core halves
//! their time. A game that never asked for threads is left with none: no pool is started.

/// Runs `a` on a second thread while `b` runs on this one, when the machine has a second core
/// and a thread can be started; otherwise one after the other. A panic in `a` is passed on.
pub(crate) fn both<A: Send, B>(a: impl Fn() -> A + Sync, b: impl FnOnce() -> B) -> (A, B) {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new().spawn_scoped(scope, &a);
        let b = b();
        let a = match spawned {
            Ok(thread) => thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => a(),
        };
        (a, b)
    })
}

#[cfg(test)]
mod tests {
    use super::both;

    #[test]
    fn both_jobs_run_and_return_in_order() {
        let data: Vec<u64> = (1..=1000).collect();
        let (sum, max) = both(|| data.iter().sum::<u64>(), || data.iter().max().copied());
        assert_eq!((sum, max), (500_500, Some(1000)));
    }
}
