//! Segments read lately, handed out again while their file is being scanned.
//!
//! vortex requests a segment once per chunk it spans (the 10M-row sample's 459 KB `sym` code
//! segments span ~6 chunks each), and every read is a copy out of the page cache: remembering
//! the segments read lately saves those copies (a count over the sample read 8.7 MB per query).
//!
//! Bounded three ways: at most [`CAPACITY`] bytes in the process (least recently used dropped
//! first), a file's segments are kept only while a scan of it is open and forgotten when its last
//! scan ends ([`crate::local_file::Reading`]) or the file closes. So the memo holds nothing once
//! scans end, however many files stay open. A kept buffer is shared with the chunks decoded from
//! it, so while they live it costs nothing extra.
//!
//! Not vortex's segment cache (`MokaSegmentCache`, byte-capped too): it can only forget all files
//! at once, so it would hold up to its capacity of file data after scans end and files close.
//! Repeated queries would skip their reads with a cache that outlives scans; not taken, for that
//! memory.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::Mutex;

use once_cell::sync::Lazy;
use vortex_array::buffer::BufferHandle;

/// Bytes of segments kept at most, over all files: the segments two threads' current chunks of a
/// few columns span. Measured on the 10M-row sample (SqlBench scans, alternating, one sitting):
/// 2 MiB keeps count-eq's gain (3.3–4.7 ms at threads=2 against 8.4–8.9 with nothing kept);
/// 32 MiB made top-n 2–4× slower (45–106 ms against 30–35), not understood yet.
pub const CAPACITY: usize = 2 << 20;

/// A segment: its file's id ([`crate::local_file`]) and its id in the file.
type Key = (u64, u32);

#[derive(Default)]
struct Memo {
    /// Use counter: an entry's stamp is its last use.
    clock: u64,
    held: usize,
    entries: HashMap<Key, (BufferHandle, usize, u64)>,
    /// Entries by last use, oldest first.
    by_use: BTreeMap<u64, Key>,
}

impl Memo {
    fn get(&mut self, key: Key) -> Option<BufferHandle> {
        self.clock += 1;
        let now = self.clock;
        let (buffer, _, used) = self.entries.get_mut(&key)?;
        self.by_use.remove(used);
        *used = now;
        self.by_use.insert(now, key);
        Some(buffer.clone())
    }

    /// Keeps `buffer` (`len` bytes) for `key`, dropping the least recently used entries to make
    /// room; returns what was dropped, to be freed once the lock is released.
    fn keep(&mut self, key: Key, buffer: BufferHandle, len: usize) -> Vec<BufferHandle> {
        let mut dropped = Vec::new();
        if len > CAPACITY || self.entries.contains_key(&key) {
            return dropped;
        }
        while self.held + len > CAPACITY {
            let Some((_, oldest)) = self.by_use.pop_first() else { break };
            if let Some((b, l, _)) = self.entries.remove(&oldest) {
                self.held -= l;
                dropped.push(b);
            }
        }
        self.clock += 1;
        self.held += len;
        self.entries.insert(key, (buffer, len, self.clock));
        self.by_use.insert(self.clock, key);
        dropped
    }

    fn forget(&mut self, file: u64) -> Vec<BufferHandle> {
        let mut dropped = Vec::new();
        let held = &mut self.held;
        let by_use = &mut self.by_use;
        self.entries.retain(|&(f, _), (b, l, used)| {
            if f != file {
                return true;
            }
            *held -= *l;
            by_use.remove(used);
            dropped.push(b.clone());
            false
        });
        dropped
    }
}

static MEMO: Lazy<Mutex<Memo>> = Lazy::new(Mutex::default);

fn lock() -> std::sync::MutexGuard<'static, Memo> {
    MEMO.lock().unwrap_or_else(|e| e.into_inner())
}

/// Segment `segment` of file `file`, if kept.
pub fn get(file: u64, segment: u32) -> Option<BufferHandle> {
    lock().get((file, segment))
}

/// Keeps segment `segment` of file `file` (`len` bytes), unless another thread kept it first.
pub fn keep(file: u64, segment: u32, buffer: &BufferHandle, len: usize) {
    let dropped = lock().keep((file, segment), buffer.clone(), len);
    drop(dropped);
}

/// Forgets file `file`'s segments.
pub fn forget(file: u64) {
    let dropped = lock().forget(file);
    drop(dropped);
}

/// Bytes of file `file`'s segments kept now.
#[cfg(test)]
pub fn held_by(file: u64) -> usize {
    lock().entries.iter().filter(|((f, _), _)| *f == file).map(|(_, (_, l, _))| l).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(len: usize) -> BufferHandle {
        BufferHandle::new_host(vortex_buffer::ByteBuffer::from(vec![0u8; len]))
    }

    /// The policy on a memo of its own (the process-wide one is shared with other tests' scans).
    #[test]
    fn keeps_the_most_recently_used_up_to_the_capacity_and_forgets_a_file() {
        let mut memo = Memo::default();
        let quarter = CAPACITY / 4;
        for s in 0..4 {
            assert!(memo.keep((1, s), buffer(quarter), quarter).is_empty());
        }
        assert_eq!(memo.held, CAPACITY);
        // 0 used again: 1 is now the oldest and makes room for the fifth.
        assert!(memo.get((1, 0)).is_some());
        assert_eq!(memo.keep((2, 0), buffer(quarter), quarter).len(), 1);
        assert!(memo.get((1, 1)).is_none() && memo.get((1, 0)).is_some());
        assert_eq!(memo.held, CAPACITY);
        // A segment bigger than the whole memo is not kept, and drops nothing.
        assert!(memo.keep((3, 0), buffer(CAPACITY + 1), CAPACITY + 1).is_empty());
        assert!(memo.get((3, 0)).is_none());
        // Forgetting a file drops its segments only.
        assert_eq!(memo.forget(1).len(), 3);
        assert_eq!(memo.held, quarter);
        assert_eq!(memo.entries.len(), 1);
        assert_eq!(memo.by_use.len(), 1);
        assert!(memo.get((2, 0)).is_some());
    }
}
