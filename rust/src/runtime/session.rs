//! The one Vortex session and I/O runtime of the process.
//!
//! Vortex needs a session (encodings, layouts, editions) and a runtime handle to drive its
//! futures. We use the current-thread runtime: every JNI call drives vortex on the calling Java
//! thread, so Java stays in charge of parallelism and no hidden thread pool is created.

use once_cell::sync::Lazy;
use vortex_array::ExecutionCtx;
use vortex_array::VortexSessionExecute;
use vortex_array::array_session;
use vortex_edition::EDITION_DECLARATIONS;
use vortex_edition::EditionSession;
use vortex_edition::EditionSessionExt;
use vortex_edition::declarations::core::CORE_2026_08_3;
use vortex_io::runtime::BlockingRuntime;
use vortex_io::runtime::current::CurrentThreadRuntime;
use vortex_io::session::RuntimeSession;
use vortex_io::session::RuntimeSessionExt;
use vortex_layout::session::LayoutSession;
use vortex_session::VortexSession;

/// The runtime must outlive the session: the session only keeps a weak handle to it.
pub static RUNTIME: Lazy<CurrentThreadRuntime> = Lazy::new(CurrentThreadRuntime::new);

/// Reads every encoding the default writer produces and writes with the `core` edition the
/// reference writer of vortex 0.90 enables.
pub static SESSION: Lazy<VortexSession> = Lazy::new(|| {
    let session = array_session()
        .with::<EditionSession>()
        .with::<LayoutSession>()
        .with::<RuntimeSession>()
        .with_handle(RUNTIME.handle());
    vortex_file::register_default_encodings(&session);
    for declaration in EDITION_DECLARATIONS {
        session
            .register_edition(declaration)
            .expect("first-party edition declarations are valid");
    }
    session
        .enable_edition(CORE_2026_08_3)
        .expect("the core edition is registered above");
    session
});

/// The session.
pub fn session() -> &'static VortexSession {
    &SESSION
}

/// A fresh execution context for decoding arrays on the current thread.
pub fn execution_ctx() -> ExecutionCtx {
    SESSION.create_execution_ctx()
}

/// Drives a vortex future to completion on the calling thread.
///
/// Polled once first: most of a scan's futures are ready at once (segments are read where they
/// are awaited, see `io::local_file`), and the runtime's `block_on` registers a new executor runner
/// (a 512-slot queue, under a lock the scanning threads share) per call, ~2% of a count over
/// 100 small files. A future still pending goes to the runtime, which also runs what it spawned.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    if let std::task::Poll::Ready(output) =
        future.as_mut().poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
    {
        return output;
    }
    RUNTIME.block_on(future)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_is_usable_twice() {
        let _ = session();
        let _ = execution_ctx();
        assert_eq!(block_on(async { 41 + 1 }), 42);
    }
}
