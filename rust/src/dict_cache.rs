//! Per-dictionary state shared across chunks: the reference writer stores one dictionary per
//! column (`vortex.shared`), and every chunk's `Dict` points at the same values array. Keyed by
//! that array's identity, we keep each dictionary's code tables (one per predicate) and its
//! export to Java, so both are computed once per scan rather than once per chunk.
//!
//! An entry holds a reference to its values array, so the identity cannot be reused by another
//! array while the entry lives. The cache is bounded (one entry per file whose layout reader is
//! kept) and least-recently-used.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use once_cell::sync::Lazy;
use vortex_array::ArrayRef;

use crate::dict_filter::CodeTable;
use crate::export::Exported;

/// Dictionaries remembered at once, at least: with fewer entries than the files a query scans, a
/// query over more files than that found none of its dictionaries again (least recently used
/// evicted in a cycle), so every file's code tables were computed anew by every query.
const MIN_CAPACITY: usize = 32;

/// Dictionaries remembered at once: one per file whose layout reader is kept
/// ([`crate::reader_cache::capacity`], which keeps the dictionaries' values alive anyway), at least
/// [`MIN_CAPACITY`]. When a file's reader goes (the file closed or its reader evicted), the cache
/// forgets every dictionary ([`forget_all`]: it cannot tell whose they were), so none outlives
/// its file for long.
fn capacity() -> usize {
    crate::reader_cache::capacity().max(MIN_CAPACITY)
}
/// Code tables remembered per dictionary.
const TABLES_PER_DICTIONARY: usize = 64;

/// What we keep about one dictionary.
pub struct Dictionary {
    /// A process-unique id Java uses to share decoded strings between chunks.
    pub id: u64,
    values: ArrayRef,
    export: OnceLock<Arc<Exported>>,
    /// Per predicate encoding: its table, or `None` where the native side declines.
    tables: Mutex<HashMap<Vec<u8>, Option<Arc<CodeTable>>>>,
    ascii: OnceLock<bool>,
}

impl Dictionary {
    /// The dictionary values.
    pub fn values(&self) -> &ArrayRef {
        &self.values
    }

    /// The code table for `key` (a predicate's encoding), computing it on first use; `None`
    /// (remembered too) when `compute` declines.
    pub fn table<E>(
        &self,
        key: &[u8],
        compute: impl FnOnce() -> Result<Option<CodeTable>, E>,
    ) -> Result<Option<Arc<CodeTable>>, E> {
        if let Some(t) = self.tables.lock().expect("table cache poisoned").get(key) {
            return Ok(t.clone());
        }
        let table = compute()?.map(Arc::new);
        let mut tables = self.tables.lock().expect("table cache poisoned");
        if tables.len() >= TABLES_PER_DICTIONARY {
            tables.clear();
        }
        tables.insert(key.to_vec(), table.clone());
        Ok(table)
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
static CACHE: Lazy<Mutex<Vec<Arc<Dictionary>>>> = Lazy::new(|| Mutex::new(Vec::new()));

/// The entry for the dictionary `values`, most recently used first.
pub fn dictionary(values: &ArrayRef) -> Arc<Dictionary> {
    let capacity = capacity();
    let mut cache = CACHE.lock().expect("dictionary cache poisoned");
    if let Some(pos) = cache.iter().position(|d| ArrayRef::ptr_eq(&d.values, values)) {
        let entry = cache.remove(pos);
        cache.insert(0, Arc::clone(&entry));
        return entry;
    }
    let entry = Arc::new(Dictionary {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        values: values.clone(),
        export: OnceLock::new(),
        tables: Mutex::new(HashMap::new()),
        ascii: OnceLock::new(),
    });
    cache.insert(0, Arc::clone(&entry));
    cache.truncate(capacity);
    entry
}

/// Forgets every dictionary (those in use stay valid for their holders); called when a file's
/// layout reader is dropped, so the cache holds no dictionary of a closed file.
pub fn forget_all() {
    let forgotten = std::mem::take(&mut *CACHE.lock().expect("dictionary cache poisoned"));
    drop(forgotten);
}
