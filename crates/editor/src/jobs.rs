//! Work done on a copy off the UI thread (the check, the fix, the modes, a tune): a job for one
//! model revision whose result the panels take when it is done.

use eframe::egui;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// A job for a model revision, running; `None` when none is.
pub type Job<T> = Option<(u64, Receiver<Result<T, String>>)>;

/// Runs `job` on a thread for `revision`, waking `ctx` when it is done.
pub fn spawn<T: Send + 'static, E: std::fmt::Display>(
    revision: u64,
    ctx: &egui::Context,
    job: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> (u64, Receiver<Result<T, String>>) {
    let (send, receive) = channel();
    let ctx = ctx.clone();
    std::thread::spawn(move || {
        // The receiver is gone when a newer job replaced this one: nothing to tell.
        let _ = send.send(job().map_err(|e| e.to_string()));
        ctx.request_repaint();
    });
    (revision, receive)
}

/// A finished job's revision and result, taken out of `job`; `None` while it runs.
pub fn take<T>(job: &mut Job<T>) -> Option<(u64, Result<T, String>)> {
    let (revision, receive) = job.as_ref()?;
    let revision = *revision;
    let result = match receive.try_recv() {
        Ok(result) => result,
        Err(TryRecvError::Empty) => return None,
        Err(TryRecvError::Disconnected) => Err("the work stopped unexpectedly".to_string()),
    };
    *job = None;
    Some((revision, result))
}
