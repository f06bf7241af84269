//! Segments read lately, handed out again instead of read again: a process-wide cache of file
//! bytes, least recently used dropped first, at most [`capacity`] bytes.
//!
//! vortex requests a segment once per chunk it spans (the 10M-row sample's 459 KB `sym` code
//! segments span ~6 chunks each), and every read is a copy out of the page cache: a count over
//! the sample read 8.7 MB per query, most of its native time. Kept across scans, a repeated query
//! over the same columns reads nothing: its time is the filter's.
//!
//! Chunks are kept too: the arrays a scan's split future decoded from the segments, by the
//! scan's projection and file rows ([`Item::Chunk`]). A scan whose range finds all its chunks
//! kept skips vortex's layout readers, segment futures and array deserialization altogether.
//! Those are per file: over 100 small files read in turn, each file's reader state had left the
//! CPU's caches by the time its split came round again.
//!
//! Only segments read by scans are kept (not the footer). A file is known by its contents'
//! identity (device, inode, size, modification time: [`Identity`]), so two opens of the same file
//! (two connections, a connection and a dataset) share its kept segments, and a file rewritten
//! since is another file. Its segments are forgotten when its last open closes, so nothing of a
//! closed file stays; while it is open they stay until newer segments push them out. A kept buffer is shared with the chunks decoded
//! from it, so while they live it costs nothing extra. Files do not change while open: a dataset
//! checks each file's size and modification time before scanning it, and a file changed under a
//! scan of a single file was already an error or unspecified.
//!
//! Not vortex's segment cache (`MokaSegmentCache`, byte-capped too): it can only forget all files
//! at once, so it would hold the bytes of closed files.

use std::collections::HashMap;
use std::sync::Mutex;

use once_cell::sync::Lazy;
use vortex_array::ArrayRef;
use vortex_array::buffer::BufferHandle;

use super::lru::Lru;
use crate::io::Identity;

/// Bytes kept at most by default: the segments of a workload over a few 10M-row files (the whole
/// 10M-row sample is 76.5 MB; a count over its `sym` reads 8.7 MB, the newest trades' prices
/// 62 MB). A workload that does not fit gains nothing: least recently used first, a cycle over
/// more than the bound finds nothing kept (measured: 64 MiB left the sample's workload as fast
/// as keeping nothing, and slower on the scans that read most; 256 MiB made it 1.1–2.3× faster).
pub const DEFAULT_CAPACITY: usize = 256 << 20;

/// What is kept of a file: a segment by its id, or a chunk of a scan's columns (the projection's
/// [`crate::scan::Projection`] id and the chunk's file rows).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Item {
    Segment(u32),
    Chunk { projection: u64, rows: (u64, u64) },
}

/// An item of a file, by the file's key ([`open`]).
type Key = (u64, Item);

/// A kept segment's bytes, or a kept chunk: the arrays vortex decoded from the segments (their
/// buffers are the segments' own, so a chunk costs little more than its segments).
#[derive(Clone)]
pub enum Kept {
    Segment(BufferHandle),
    Chunk(ArrayRef),
}

/// Kept items by file and item, bounded in bytes.
static MEMO: Lazy<Mutex<Lru<Key, Kept>>> = Lazy::new(|| Mutex::new(Lru::new(DEFAULT_CAPACITY)));

fn lock() -> std::sync::MutexGuard<'static, Lru<Key, Kept>> {
    MEMO.lock().unwrap_or_else(|e| e.into_inner())
}

/// Open files by identity: their key in the memo and how many opens hold it.
static OPEN: Lazy<Mutex<HashMap<Identity, (u64, usize)>>> = Lazy::new(Mutex::default);
static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// One more open of the file `identity`: its key, the same for every open of the same contents.
pub fn open(identity: Identity) -> u64 {
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    let entry = open.entry(identity).or_insert_with(|| (NEXT_KEY.fetch_add(1, std::sync::atomic::Ordering::Relaxed), 0));
    entry.1 += 1;
    entry.0
}

/// One open of the file `identity` closed: the last one forgets its segments.
pub fn close(identity: Identity) {
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    let Some(entry) = open.get_mut(&identity) else { return };
    entry.1 -= 1;
    if entry.1 == 0 {
        let key = entry.0;
        open.remove(&identity);
        drop(open);
        forget(key);
    }
}

/// Segment `segment` of file `file`, if kept.
pub fn get(file: u64, segment: u32) -> Option<BufferHandle> {
    match lock().get(&(file, Item::Segment(segment)))? {
        Kept::Segment(buffer) => Some(buffer.clone()),
        Kept::Chunk(_) => None,
    }
}

/// Keeps segment `segment` of file `file` (`len` bytes), unless another thread kept it first.
pub fn keep(file: u64, segment: u32, buffer: &BufferHandle, len: usize) {
    let dropped = lock().insert((file, Item::Segment(segment)), Kept::Segment(buffer.clone()), len);
    drop(dropped);
}

/// The chunk of file rows `rows` of projection `projection` of file `file`, if kept.
pub fn get_chunk(file: u64, projection: u64, rows: (u64, u64)) -> Option<ArrayRef> {
    match lock().get(&(file, Item::Chunk { projection, rows }))? {
        Kept::Chunk(array) => Some(array.clone()),
        Kept::Segment(_) => None,
    }
}

/// Keeps a chunk (`len` bytes: its arrays' buffers, counted again beside the segments they
/// share, so the bound errs on the side of less), unless another thread kept it first.
pub fn keep_chunk(file: u64, projection: u64, rows: (u64, u64), array: &ArrayRef, len: usize) {
    let dropped = lock().insert((file, Item::Chunk { projection, rows }), Kept::Chunk(array.clone()), len);
    drop(dropped);
}

/// Forgets file `file`'s segments.
pub fn forget(file: u64) {
    let dropped = lock().remove_where(|&(f, _), _| f == file);
    drop(dropped);
}

/// Bytes kept at most.
pub fn capacity() -> usize {
    lock().bound()
}

/// Keeps at most `bytes` from now on (0: nothing), dropping the least recently used segments
/// beyond it now.
pub fn set_capacity(bytes: usize) {
    let dropped = lock().set_bound(bytes);
    drop(dropped);
}

/// Drops every kept segment (the capacity stays): memory to give back under pressure.
pub fn clear() {
    let dropped = lock().shrink_to(0);
    drop(dropped);
}

/// Bytes kept now.
pub fn held() -> usize {
    lock().held()
}

/// Bytes of file `file`'s segments kept now.
#[cfg(test)]
pub fn held_by(file: u64) -> usize {
    lock().held_where(|&(f, _)| f == file)
}
