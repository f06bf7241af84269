//! Layout readers kept across the scans of open files, for at most a bounded number of files in
//! the process.
//!
//! vortex builds a file's reader tree for every scan unless the file was opened with its
//! layout-reader cache, which keeps the tree (and the dictionaries, zone maps and expression
//! results the tree's readers memoize) for the file's whole life: a dataset keeps all its files
//! open, so 1,000 files held 33 MB after their scans ended. Rebuilding instead costs every scan the
//! tree and a fresh read and decode of each dictionary, which dominates scans of small files (a
//! count over 100 files of 100,000 rows spent ~2.7× what one file of the same rows took).
//!
//! Here the readers of the most recently scanned files are kept, at most [`capacity`] of them
//! (least recently used dropped first; `-Dvortex4j.readerCacheFiles` on the Java side, default
//! [`DEFAULT_CAPACITY`]); a file's reader also goes when its last handle does, and with it the
//! dictionary cache's entries of that file ([`crate::cache::dictionaries::forget`]). A reader keeps no
//! descriptor open (the file's [`crate::io::local_file::Descriptor`] does) and is read-only, so
//! scans on several threads share it.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use once_cell::sync::Lazy;
use vortex_layout::LayoutReader;

use super::lru::Lru;

/// Files whose readers are kept by default.
pub const DEFAULT_CAPACITY: usize = 256;

type Reader = Arc<dyn LayoutReader>;

/// Readers by their file's key, bounded in files.
static CACHE: Lazy<Mutex<Lru<u64, Reader>>> = Lazy::new(|| Mutex::new(Lru::new(DEFAULT_CAPACITY)));

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

fn lock() -> std::sync::MutexGuard<'static, Lru<u64, Reader>> {
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// An open file's key in the cache; its reader is dropped with the last clone of the file.
pub struct CacheKey(u64);

impl CacheKey {
    /// A key no other file has.
    pub fn new() -> Self {
        CacheKey(NEXT_KEY.fetch_add(1, Ordering::Relaxed))
    }

    /// The key's number, unique in the process (also the file's key in [`crate::cache::dictionaries`]).
    pub fn id(&self) -> u64 {
        self.0
    }
}

impl Drop for CacheKey {
    fn drop(&mut self) {
        let removed = lock().remove(&self.0);
        drop(removed);
        // Also when no reader was kept (capacity 0): the file's dictionaries go with the file.
        crate::cache::dictionaries::forget(self.0);
    }
}

/// Drops readers no longer kept, and the dictionary cache's entries of their files with them
/// (it holds their dictionaries' values); not under the lock.
fn forgotten(readers: Vec<(u64, Reader)>) {
    for (key, reader) in readers {
        drop(reader);
        crate::cache::dictionaries::forget(key);
    }
}

/// The reader of the file `key`: the kept one, or `build()`'s, kept (evicting the least recently
/// used reader when full). With a capacity of 0 every call builds.
pub fn reader<E>(key: &CacheKey, build: impl FnOnce() -> Result<Reader, E>) -> Result<Reader, E> {
    if let Some(kept) = lock().get(&key.0) {
        return Ok(Arc::clone(kept));
    }
    // Built outside the lock: other files' scans need not wait (another thread building the same
    // file's reader meanwhile is harmless: the first one kept is shared).
    let built = build()?;
    let (reader, evicted) = {
        let mut cache = lock();
        match cache.get(&key.0) {
            Some(kept) => (Arc::clone(kept), Vec::new()),
            None => (Arc::clone(&built), cache.insert(key.0, built, 1)),
        }
    };
    forgotten(evicted);
    Ok(reader)
}

/// How many files' readers are kept at most.
pub fn capacity() -> usize {
    lock().bound()
}

/// Sets how many files' readers are kept at most (0: none), dropping the least recently used
/// ones beyond it.
pub fn set_capacity(capacity: usize) {
    let evicted = lock().set_bound(capacity);
    forgotten(evicted);
}

/// How many files' readers are kept now.
pub fn len() -> usize {
    lock().len()
}
