//! Per-dictionary state shared across chunks: the reference writer stores one dictionary per
//! column (`vortex.shared`), and every chunk's `Dict` points at the same values array. Keyed by
//! that array's identity, we keep each dictionary's code tables (one per predicate) and its
//! export to Java, so both are computed once per scan rather than once per chunk.
//!
//! An entry holds a reference to its values array, so the identity (its address) cannot be reused
//! by another array while the entry lives. The cache is bounded (one entry per file whose layout
//! reader is kept) and least-recently-used.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use once_cell::sync::Lazy;
use vortex_array::ArrayRef;

use super::lru::Lru;
use super::memo::Memo;
use crate::export::Exported;
use crate::filter::dict::CodeTable;

/// Dictionaries remembered at once, at least: with fewer entries than the files a query scans, a
/// query over more files than that found none of its dictionaries again (least recently used
/// evicted in a cycle), so every file's code tables were computed anew by every query.
const MIN_CAPACITY: usize = 32;

/// Dictionaries remembered at once: one per file whose layout reader is kept
/// ([`crate::cache::readers::capacity`], which keeps the dictionaries' values alive anyway), at least
/// [`MIN_CAPACITY`]. When a file's reader goes (the file closed or its reader evicted), the cache
/// forgets that file's dictionaries ([`forget`]), so none outlives its file's reader.
fn capacity() -> usize {
    crate::cache::readers::capacity().max(MIN_CAPACITY)
}
/// Code tables remembered per dictionary.
const TABLES_PER_DICTIONARY: usize = 64;

/// What we keep about one dictionary.
pub struct Dictionary {
    /// A process-unique id Java uses to share decoded strings between chunks.
    pub id: u64,
    /// The open file it belongs to ([`crate::io::file::OpenFile::id`]).
    file: u64,
    /// Held, not read: while the entry lives, its key (this array's address) is no other array's.
    _values: ArrayRef,
    export: OnceLock<Arc<Exported>>,
    /// Per predicate encoding: its table, or `None` where the native side declines.
    tables: Memo<Vec<u8>, Option<Arc<CodeTable>>>,
    ascii: OnceLock<bool>,
}

impl Dictionary {
    /// The code table for `key` (a predicate's encoding), computing it on first use; `None`
    /// (remembered too) when `compute` declines.
    pub fn table<E>(
        &self,
        key: &[u8],
        compute: impl FnOnce() -> Result<Option<CodeTable>, E>,
    ) -> Result<Option<Arc<CodeTable>>, E> {
        self.tables.get_or_compute(key, || Ok(compute()?.map(Arc::new)))
    }

    /// Whether every entry is ASCII, computed on first use.
    pub fn ascii<E>(&self, compute: impl FnOnce() -> Result<bool, E>) -> Result<bool, E> {
        if let Some(&a) = self.ascii.get() {
            return Ok(a);
        }
        let a = compute()?;
        Ok(*self.ascii.get_or_init(|| a))
    }

    /// The dictionary exported for Java, computing it on first use.
    pub fn export<E>(&self, compute: impl FnOnce() -> Result<Exported, E>) -> Result<Arc<Exported>, E> {
        if let Some(e) = self.export.get() {
            return Ok(Arc::clone(e));
        }
        let e = Arc::new(compute()?);
        Ok(Arc::clone(self.export.get_or_init(|| e)))
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);
static CACHE: Lazy<Mutex<Cache>> = Lazy::new(|| Mutex::new(Cache(Lru::new(MIN_CAPACITY))));

/// The entries by their values array's address.
struct Cache(Lru<usize, Arc<Dictionary>>);

impl Cache {
    /// The entry of `values`, made for the file `file` if there is none, with the cache bounded
    /// to `capacity` entries; and the entries dropped, to be freed once the lock is released.
    fn entry(&mut self, file: u64, values: &ArrayRef, capacity: usize) -> (Arc<Dictionary>, Vec<(usize, Arc<Dictionary>)>) {
        let mut dropped = self.0.set_bound(capacity);
        if let Some(entry) = self.0.get(&values.addr()) {
            return (Arc::clone(entry), dropped);
        }
        let entry = Arc::new(Dictionary {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            file,
            _values: values.clone(),
            export: OnceLock::new(),
            tables: Memo::new(TABLES_PER_DICTIONARY),
            ascii: OnceLock::new(),
        });
        dropped.extend(self.0.insert(values.addr(), Arc::clone(&entry), 1));
        (entry, dropped)
    }

    /// Takes out the entries of `file`, to be dropped once the lock is released.
    fn forget(&mut self, file: u64) -> Vec<(usize, Arc<Dictionary>)> {
        self.0.remove_where(|_, d| d.file == file)
    }
}

/// The entry for the dictionary `values` of the open file `file` ([`crate::io::file::OpenFile::id`]),
/// most recently used first.
pub fn dictionary(file: u64, values: &ArrayRef) -> Arc<Dictionary> {
    let capacity = capacity();
    let (entry, dropped) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).entry(file, values, capacity);
    drop(dropped);
    entry
}

/// Forgets the dictionaries of the open file `file` (those in use stay valid for their holders);
/// called when the file's layout reader is dropped, so the cache holds no dictionary of a closed
/// file, and other files' stay.
pub fn forget(file: u64) {
    let forgotten = CACHE.lock().unwrap_or_else(|e| e.into_inner()).forget(file);
    drop(forgotten);
}

#[cfg(test)]
mod tests {
    use super::*;
    use vortex_array::IntoArray;

    fn values(n: i32) -> ArrayRef {
        vortex_buffer::buffer![n, n + 1].into_array()
    }

    /// Forgetting a file drops its entries only: the other file's dictionaries come back as the
    /// same entries (same id, tables kept), the forgotten file's as new ones. On a cache of its
    /// own (the process-wide one is shared with other tests' scans).
    #[test]
    fn forgetting_a_file_keeps_the_other_files_dictionaries() {
        let mut cache = Cache(Lru::new(MIN_CAPACITY));
        let mut entry = |file, values: &ArrayRef| cache.entry(file, values, 8).0;
        let (a1, a2, b) = (values(1), values(3), values(5));
        let kept = [entry(1, &a1), entry(1, &a2)];
        let forgotten = entry(2, &b);
        assert_eq!(entry(1, &a1).id, kept[0].id);
        let dropped = cache.forget(2);
        assert_eq!(dropped.len(), 1);
        assert!(Arc::ptr_eq(&dropped[0].1, &forgotten));
        assert_eq!(cache.0.len(), 2);
        let mut entry = |file, values: &ArrayRef| cache.entry(file, values, 8).0;
        assert_eq!(entry(1, &a1).id, kept[0].id);
        assert_eq!(entry(1, &a2).id, kept[1].id);
        assert_ne!(entry(2, &b).id, forgotten.id);
        // Forgetting a file with no entries drops nothing.
        assert!(cache.forget(3).is_empty());
        assert_eq!(cache.0.len(), 3);
    }
}
