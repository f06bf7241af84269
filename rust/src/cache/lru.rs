//! The bound every cache follows: entries kept up to a bound on their summed weights (1 each: a
//! bound in entries; their sizes: a bound in bytes), the least recently used dropped first.
//!
//! What is dropped comes back to the caller, to be freed once its lock is released (a kept value
//! may hold a file's reader tree or megabytes of segments).

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::hash::Hash;

pub(crate) struct Lru<K, V> {
    bound: usize,
    /// The kept entries' summed weights.
    held: usize,
    /// Use counter: an entry's stamp is its last use.
    clock: u64,
    entries: HashMap<K, Entry<V>>,
    /// Keys by last use, oldest first.
    by_use: BTreeMap<u64, K>,
}

struct Entry<V> {
    value: V,
    weight: usize,
    used: u64,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    /// Keeps entries up to `bound` summed weights.
    pub(crate) fn new(bound: usize) -> Self {
        Lru { bound, held: 0, clock: 0, entries: HashMap::new(), by_use: BTreeMap::new() }
    }

    /// The bound on the kept entries' summed weights.
    pub(crate) fn bound(&self) -> usize {
        self.bound
    }

    /// The kept entries' summed weights.
    pub(crate) fn held(&self) -> usize {
        self.held
    }

    /// How many entries are kept.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The value of `key`, marked used.
    pub(crate) fn get<Q>(&mut self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.clock += 1;
        let entry = self.entries.get_mut(key)?;
        if let Some(key) = self.by_use.remove(&entry.used) {
            self.by_use.insert(self.clock, key);
        }
        entry.used = self.clock;
        Some(&entry.value)
    }

    /// Keeps `value` (of `weight`) for `key`, dropping the least recently used entries to make
    /// room, and returns them. Nothing is kept (nor dropped) when `key` has a value already (the
    /// first one stays) or `weight` exceeds the bound.
    #[must_use]
    pub(crate) fn insert(&mut self, key: K, value: V, weight: usize) -> Vec<(K, V)> {
        if weight > self.bound || self.entries.contains_key(&key) {
            return Vec::new();
        }
        let dropped = self.shrink_to(self.bound - weight);
        self.clock += 1;
        self.held += weight;
        self.by_use.insert(self.clock, key.clone());
        self.entries.insert(key, Entry { value, weight, used: self.clock });
        dropped
    }

    /// Sets the bound, dropping the least recently used entries beyond it; returns them.
    #[must_use]
    pub(crate) fn set_bound(&mut self, bound: usize) -> Vec<(K, V)> {
        self.bound = bound;
        self.shrink_to(bound)
    }

    /// Drops the least recently used entries until at most `held` weights are kept; returns them.
    #[must_use]
    pub(crate) fn shrink_to(&mut self, held: usize) -> Vec<(K, V)> {
        let mut dropped = Vec::new();
        while self.held > held {
            let Some((_, oldest)) = self.by_use.pop_first() else { break };
            if let Some(entry) = self.entries.remove(&oldest) {
                self.held -= entry.weight;
                dropped.push((oldest, entry.value));
            }
        }
        dropped
    }

    /// Drops the entry of `key`; returns its value.
    #[must_use]
    pub(crate) fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let entry = self.entries.remove(key)?;
        self.by_use.remove(&entry.used);
        self.held -= entry.weight;
        Some(entry.value)
    }

    /// Drops the entries `drop` picks; returns them.
    #[must_use]
    pub(crate) fn remove_where(&mut self, drop: impl Fn(&K, &V) -> bool) -> Vec<(K, V)> {
        let keys: Vec<K> = self.entries.iter().filter(|(k, e)| drop(k, &e.value)).map(|(k, _)| k.clone()).collect();
        keys.into_iter().filter_map(|k| self.remove(&k).map(|v| (k, v))).collect()
    }

    /// The summed weights of the entries whose key `count` picks.
    #[cfg(test)]
    pub(crate) fn held_where(&self, count: impl Fn(&K) -> bool) -> usize {
        self.entries.iter().filter(|(k, _)| count(k)).map(|(_, e)| e.weight).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bounded in entries (weight 1 each), as the layout-reader cache is.
    #[test]
    fn keeps_the_most_recently_used_up_to_the_bound() {
        let mut lru = Lru::new(3);
        for k in 0..5u64 {
            let _ = lru.insert(k, k, 1);
        }
        let mut kept: Vec<u64> = lru.entries.keys().copied().collect();
        kept.sort();
        assert_eq!(kept, [2, 3, 4]);
        // 2 used again: 3 is now the oldest and goes first.
        assert_eq!(lru.get(&2), Some(&2));
        assert_eq!(lru.insert(7, 7, 1), [(3, 3)]);
        // A key inserted twice keeps its first value.
        assert!(lru.insert(7, 70, 1).is_empty());
        assert_eq!(lru.get(&7), Some(&7));
        // Shrinking drops the oldest; a bound of 0 keeps nothing.
        assert_eq!(lru.shrink_to(1).len(), 2);
        assert_eq!(lru.entries.keys().copied().collect::<Vec<_>>(), [7]);
        assert_eq!(lru.set_bound(0), [(7, 7)]);
        assert!(lru.insert(9, 9, 1).is_empty());
        assert!(lru.entries.is_empty() && lru.get(&9).is_none());
    }

    /// Bounded in bytes, entries dropped by key, as the segment cache is.
    #[test]
    fn keeps_the_most_recently_used_up_to_the_bytes_and_forgets_a_file() {
        const BOUND: usize = 2 << 20;
        let mut lru = Lru::new(BOUND);
        let quarter = BOUND / 4;
        for s in 0..4u32 {
            assert!(lru.insert((1u64, s), s, quarter).is_empty());
        }
        assert_eq!(lru.held(), BOUND);
        // 0 used again: 1 is now the oldest and makes room for the fifth.
        assert!(lru.get(&(1, 0)).is_some());
        assert_eq!(lru.insert((2, 0), 0, quarter), [((1, 1), 1)]);
        assert!(lru.get(&(1, 1)).is_none() && lru.get(&(1, 0)).is_some());
        assert_eq!(lru.held(), BOUND);
        // An entry heavier than the bound is not kept, and drops nothing.
        assert!(lru.insert((3, 0), 0, BOUND + 1).is_empty());
        assert!(lru.get(&(3, 0)).is_none());
        // Dropping a file's entries drops those only.
        assert_eq!(lru.remove_where(|&(f, _), _| f == 1).len(), 3);
        assert_eq!((lru.held(), lru.len(), lru.by_use.len()), (quarter, 1, 1));
        assert_eq!(lru.held_where(|&(f, _)| f == 2), quarter);
        assert!(lru.get(&(2, 0)).is_some());
        // A smaller bound drops the least recently used now; 0 keeps nothing.
        assert!(lru.insert((2, 1), 1, quarter).is_empty());
        assert!(lru.get(&(2, 0)).is_some());
        assert_eq!(lru.set_bound(quarter).len(), 1);
        assert!(lru.get(&(2, 1)).is_none() && lru.get(&(2, 0)).is_some());
        assert_eq!(lru.set_bound(0).len(), 1);
        assert!(lru.insert((2, 2), 2, 1).is_empty());
        assert_eq!((lru.held(), lru.len(), lru.by_use.len()), (0, 0, 0));
    }
}
