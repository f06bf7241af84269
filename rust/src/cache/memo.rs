//! A memo: values computed once per key and kept for the life of their holder (an open file, a
//! dictionary), a bounded number of keys at a time ([`Lru`]). What it keeps does not change while
//! the holder lives (files do not change while open: a dataset checks size and modification time
//! before it scans a split).

use std::borrow::Borrow;
use std::hash::Hash;
use std::sync::Mutex;

use super::lru::Lru;

pub(crate) struct Memo<K, V>(Mutex<Lru<K, V>>);

impl<K: Hash + Eq + Clone, V: Clone> Memo<K, V> {
    /// A memo of at most `keys` keys.
    pub(crate) fn new(keys: usize) -> Self {
        Memo(Mutex::new(Lru::new(keys)))
    }

    /// The value of `key`, computed by `compute` the first time (not under the lock: two threads
    /// may both compute a missing value; either result is the same, the first kept). The key is
    /// copied only when a value is kept.
    pub(crate) fn get_or_compute<Q, E>(&self, key: &Q, compute: impl FnOnce() -> Result<V, E>) -> Result<V, E>
    where
        K: Borrow<Q>,
        Q: ToOwned<Owned = K> + Hash + Eq + ?Sized,
    {
        if let Some(v) = self.lock().get(key) {
            return Ok(v.clone());
        }
        let computed = compute()?;
        let dropped = self.lock().insert(key.to_owned(), computed.clone(), 1);
        drop(dropped);
        Ok(computed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lru<K, V>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
