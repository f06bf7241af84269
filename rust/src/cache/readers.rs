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

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use once_cell::sync::Lazy;
use vortex_layout::LayoutReader;

/// Files whose readers are kept by default.
pub const DEFAULT_CAPACITY: usize = 256;

type Reader = Arc<dyn LayoutReader>;

struct Lru<V> {
    capacity: usize,
    /// Use counter: an entry's stamp is its last use.
    clock: u64,
    readers: HashMap<u64, (V, u64)>,
}

impl<V: Clone> Lru<V> {
    fn new(capacity: usize) -> Self {
        Lru { capacity, clock: 0, readers: HashMap::new() }
    }

    /// The value of `key`, marked used.
    fn get(&mut self, key: u64) -> Option<V> {
        self.clock += 1;
        let now = self.clock;
        self.readers.get_mut(&key).map(|(v, used)| {
            *used = now;
            v.clone()
        })
    }

    /// Keeps `value` for `key` unless the capacity is 0 or `key` has one already (returned
    /// instead); returns the value to use and the entries evicted to make room (with their keys),
    /// to be dropped once the lock is released.
    fn insert(&mut self, key: u64, value: V) -> (V, Vec<(u64, V)>) {
        if self.capacity == 0 {
            return (value, Vec::new());
        }
        if let Some(kept) = self.get(key) {
            return (kept, Vec::new());
        }
        let evicted = self.shrink_to(self.capacity - 1);
        self.readers.insert(key, (value.clone(), self.clock));
        (value, evicted)
    }

    /// Drops the least recently used entries until at most `keep` are left; returns them with
    /// their keys, to be dropped once the lock is released.
    fn shrink_to(&mut self, keep: usize) -> Vec<(u64, V)> {
        let mut dropped = Vec::new();
        while self.readers.len() > keep {
            let oldest = self.readers.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| *k);
            let Some(key) = oldest else { break };
            dropped.extend(self.readers.remove(&key).map(|(r, _)| (key, r)));
        }
        dropped
    }
}

static CACHE: Lazy<Mutex<Lru<Reader>>> = Lazy::new(|| Mutex::new(Lru::new(DEFAULT_CAPACITY)));

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

fn lock() -> std::sync::MutexGuard<'static, Lru<Reader>> {
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
        let removed = lock().readers.remove(&self.0);
        drop(removed);
        // Also when no reader was kept (capacity 0): the file's dictionaries go with the file.
        crate::cache::dictionaries::forget(self.0);
    }
}

/// Drops readers no longer kept, and the dictionary cache's entries of their files with them
/// (it holds their dictionaries' values); not under the lock.
fn forgotten<V>(readers: Vec<(u64, V)>) {
    for (key, reader) in readers {
        drop(reader);
        crate::cache::dictionaries::forget(key);
    }
}

/// The reader of the file `key`: the kept one, or `build()`'s, kept (evicting the least recently
/// used reader when full). With a capacity of 0 every call builds.
pub fn reader<E>(key: &CacheKey, build: impl FnOnce() -> Result<Reader, E>) -> Result<Reader, E> {
    if let Some(kept) = lock().get(key.0) {
        return Ok(kept);
    }
    // Built outside the lock: other files' scans need not wait (another thread building the same
    // file's reader meanwhile is harmless: the first one kept is shared).
    let built = build()?;
    let (reader, evicted) = lock().insert(key.0, built);
    forgotten(evicted);
    Ok(reader)
}

/// How many files' readers are kept at most.
pub fn capacity() -> usize {
    lock().capacity
}

/// Sets how many files' readers are kept at most (0: none), dropping the least recently used
/// ones beyond it.
pub fn set_capacity(capacity: usize) {
    let evicted = {
        let mut cache = lock();
        cache.capacity = capacity;
        cache.shrink_to(capacity)
    };
    forgotten(evicted);
}

/// How many files' readers are kept now.
pub fn len() -> usize {
    lock().readers.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The policy (the process-wide cache itself is exercised by the Java tests, which run one at
    /// a time: here other tests' scans would use it concurrently).
    #[test]
    fn keeps_the_most_recently_used_up_to_the_capacity() {
        let mut lru = Lru::new(3);
        for k in 0..5u64 {
            let (v, _) = lru.insert(k, Arc::new(k));
            assert_eq!(*v, k);
        }
        let mut kept: Vec<u64> = lru.readers.keys().copied().collect();
        kept.sort();
        assert_eq!(kept, [2, 3, 4]);
        // 2 used again: 3 is now the oldest and goes first.
        assert_eq!(lru.get(2).as_deref(), Some(&2));
        let (_, evicted) = lru.insert(7, Arc::new(7));
        assert_eq!(evicted.iter().map(|(k, v)| (*k, **v)).collect::<Vec<_>>(), [(3, 3)]);
        // A key inserted twice keeps its first value.
        let first = lru.get(7).unwrap();
        let (second, evicted) = lru.insert(7, Arc::new(70));
        assert!(Arc::ptr_eq(&first, &second) && evicted.is_empty());
        // Shrinking drops the oldest; a capacity of 0 keeps nothing.
        assert_eq!(lru.shrink_to(1).len(), 2);
        assert_eq!(lru.readers.keys().copied().collect::<Vec<_>>(), [7]);
        lru.capacity = 0;
        lru.shrink_to(0);
        let (v, _) = lru.insert(9, Arc::new(9));
        assert_eq!(*v, 9);
        assert!(lru.readers.is_empty() && lru.get(9).is_none());
    }
}
