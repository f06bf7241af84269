//! Files open now, by path and contents' identity: a weak reference to the state one open of
//! each shares with the others ([`crate::io::file::open`]).
//!
//! Two connections, datasets or Spark tasks reading the same file share one footer, layout
//! reader, zone-map results, dictionaries (with their code tables) and descriptor. With an open
//! each, a dataset of 100 files read through two connections kept 200 files' state, and a count
//! over it took ~40% more CPU than through one connection (its state no longer in the CPU's
//! caches), where one file read twice took the same.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::Weak;

use once_cell::sync::Lazy;

use crate::io::Identity;
use crate::io::file::Shared;

struct OpenFiles {
    files: HashMap<(String, Identity), Weak<Shared>>,
    /// Dead entries are dropped when the map reaches this size.
    sweep_at: usize,
}

static OPEN_FILES: Lazy<Mutex<OpenFiles>> = Lazy::new(|| Mutex::new(OpenFiles { files: HashMap::new(), sweep_at: 64 }));

fn lock() -> std::sync::MutexGuard<'static, OpenFiles> {
    OPEN_FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// The state of an open of the file at `path` with contents `identity` that is still open.
pub(crate) fn shared(path: &str, identity: Identity) -> Option<Arc<Shared>> {
    lock().files.get(&(path.to_string(), identity))?.upgrade()
}

/// Remembers `shared`, an open's state of the file at `path` with contents `identity`, for
/// [`shared`]. Once its last open closes, its entry holds nothing (a dangling weak reference)
/// until the next sweep.
pub(crate) fn remember(path: &str, identity: Identity, shared: &Arc<Shared>) {
    let mut open = lock();
    if open.files.len() >= open.sweep_at {
        open.files.retain(|_, shared| shared.strong_count() > 0);
        open.sweep_at = (2 * open.files.len()).max(64);
    }
    open.files.insert((path.to_string(), identity), Arc::downgrade(shared));
}
