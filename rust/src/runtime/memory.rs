//! The library's allocator: large blocks come from address space that is never unmapped, and
//! every live byte is counted.
//!
//! Java reads a chunk's buffers through direct `ByteBuffer`s, without copying, while another
//! thread may close the chunk. With the system allocator a large free is an `munmap`, and a read
//! racing with it faults (SIGSEGV kills the JVM). Here, blocks of [`LARGE`] bytes or more are
//! carved from arenas mapped once and kept for the life of the process: a freed block is recycled
//! (its pages handed back with `madvise(MADV_DONTNEED)`, which reads back as zeros), so a read of
//! freed memory returns some bytes but never faults. Buffers exported to Java that do not lie in
//! an arena are copied into one ([`pinned`]). Java checks the chunk's closed flag after each read
//! and throws instead of returning what it read from freed memory (`NativeHandle.checkRead`).
//!
//! Up to [`RETAIN`] bytes of freed blocks stay resident for reuse (their pages are not handed
//! back); a [`Retaining`] guard raises that while a conversion runs.
//!
//! Small blocks go to the system allocator. [`live_bytes`] is what Rust code holds, the figure
//! Java's back-pressure (`NativeMemory`) and monitoring read.

use std::alloc::GlobalAlloc;
use std::alloc::Layout;
use std::alloc::System;
use std::sync::Mutex;
use std::sync::atomic::AtomicI64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;

use arrow::buffer::Buffer;

/// Blocks of at least this many bytes come from the arenas; exported buffers smaller than this are
/// copied into a block of this size (only the pages written cost memory).
pub(crate) const LARGE: usize = 64 << 10;
const LARGE_CLASS: usize = LARGE.trailing_zeros() as usize;
const PAGE: usize = 4096;
/// Address space mapped at a time (reserved, not committed: pages cost memory once written).
const ARENA: usize = 1 << 30;
const MAX_ARENAS: usize = 4096;
/// Freed blocks kept resident (not handed back) for quick reuse, at most this many bytes.
const RETAIN: usize = 32 << 20;
/// The same while a [`Retaining`] guard lives (a conversion: its writer frees and allocates
/// blocks at a high rate, and each page handed back costs a fault and a zeroing when reused).
const RETAIN_RAISED: usize = 256 << 20;
/// Live [`Retaining`] guards.
static RAISERS: AtomicUsize = AtomicUsize::new(0);
/// The free-list link's low bit: the block is resident (its pages were not handed back).
const RESIDENT: usize = 1;

/// Bytes of live allocations (system and arena), as requested by their layouts.
static LIVE: AtomicI64 = AtomicI64::new(0);

static ARENA_COUNT: AtomicUsize = AtomicUsize::new(0);
static ARENA_START: [AtomicUsize; MAX_ARENAS] = [const { AtomicUsize::new(0) }; MAX_ARENAS];
static ARENA_END: [AtomicUsize; MAX_ARENAS] = [const { AtomicUsize::new(0) }; MAX_ARENAS];

/// Free blocks by size class (a power of two), bump space of the newest arena.
struct Pool {
    /// Head of each class's free list: a block address, tagged with [`RESIDENT`]; 0 when empty.
    /// Each free block holds the next link in its first word.
    free: [usize; 64],
    bump: usize,
    end: usize,
    /// Bytes of resident free blocks.
    retained: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    free: [0; 64],
    bump: 0,
    end: 0,
    retained: 0,
});

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The global allocator of the library (see the module comment).
pub(crate) struct Allocator;

/// What a block from the pool holds.
#[derive(PartialEq)]
enum Contents {
    /// Never written since mapped: zeros.
    Zeros,
    /// Handed back except its first page (zeros beyond it).
    FirstPage,
    /// Anything.
    Stale,
}

fn class_of(size: usize) -> Option<usize> {
    let class = size.checked_next_power_of_two()?.trailing_zeros() as usize;
    (class < 63).then_some(class.max(LARGE_CLASS))
}

fn align_up(x: usize, align: usize) -> usize {
    (x + align - 1) & !(align - 1)
}

/// Maps a new arena of at least `len` bytes and makes it the bump space; false if the OS refuses.
fn map_arena(p: &mut Pool, len: usize) -> bool {
    let n = ARENA_COUNT.load(Ordering::Relaxed);
    if n == MAX_ARENAS {
        return false;
    }
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return false;
    }
    let base = base as usize;
    ARENA_START[n].store(base, Ordering::Relaxed);
    ARENA_END[n].store(base + len, Ordering::Relaxed);
    ARENA_COUNT.store(n + 1, Ordering::Release);
    p.bump = base;
    p.end = base + len;
    true
}

/// A block of class `class` aligned to `align` (a power of two, at least a page), or null.
fn take(class: usize, align: usize) -> (*mut u8, Contents) {
    let size = 1usize << class;
    let mut p = pool();
    let head = p.free[class];
    if head != 0 && (head & !RESIDENT) % align == 0 {
        let block = head & !RESIDENT;
        // SAFETY: a free block of ours; its first word is the link written by `give`.
        p.free[class] = unsafe { *(block as *const usize) };
        let contents = if head & RESIDENT != 0 {
            p.retained -= size;
            Contents::Stale
        } else {
            Contents::FirstPage
        };
        return (block as *mut u8, contents);
    }
    let mut start = align_up(p.bump, align);
    if p.end == 0 || start.checked_add(size).is_none_or(|e| e > p.end) {
        let want = size.saturating_add(align);
        if !map_arena(&mut p, want.max(ARENA)) && !map_arena(&mut p, want) {
            return (std::ptr::null_mut(), Contents::Zeros);
        }
        start = align_up(p.bump, align);
    }
    p.bump = start + size;
    (start as *mut u8, Contents::Zeros)
}

/// Returns a block of class `class` to its free list, handing its pages back unless it is kept
/// resident for reuse.
fn give(block: *mut u8, class: usize) {
    let size = 1usize << class;
    let resident = {
        let mut p = pool();
        let keep = p.retained + size <= retain_limit();
        if keep {
            p.retained += size;
        }
        keep
    };
    if !resident {
        // SAFETY: the pages belong to this free block; the mapping itself stays.
        unsafe { libc::madvise(block.add(PAGE) as *mut libc::c_void, size - PAGE, libc::MADV_DONTNEED) };
    }
    let mut p = pool();
    // SAFETY: the block is ours and free; its first word becomes the free-list link.
    unsafe { *(block as *mut usize) = p.free[class] };
    p.free[class] = block as usize | if resident { RESIDENT } else { 0 };
}

fn retain_limit() -> usize {
    if RAISERS.load(Ordering::SeqCst) > 0 { RETAIN_RAISED } else { RETAIN }
}

/// While it lives, up to [`RETAIN_RAISED`] bytes of freed large blocks stay resident instead of
/// [`RETAIN`]; when the last guard goes, the blocks beyond [`RETAIN`] are handed back. A
/// conversion holds one: its writer frees and reallocates blocks of a few MB all the time, and
/// with 32 MB retained most of its pages were faulted in and zeroed again (a fifth of its CPU).
pub struct Retaining(());

impl Retaining {
    /// Raises the limit until the guard is dropped.
    pub fn start() -> Self {
        RAISERS.fetch_add(1, Ordering::SeqCst);
        Retaining(())
    }
}

impl Drop for Retaining {
    fn drop(&mut self) {
        if RAISERS.fetch_sub(1, Ordering::SeqCst) == 1 {
            trim_retained();
        }
    }
}

/// Hands back the pages of resident free blocks until at most the current limit are kept.
/// Blocks are taken off their free list while their pages go, so no thread reuses one meanwhile.
fn trim_retained() {
    for class in LARGE_CLASS..64 {
        let size = 1usize << class;
        // Detached resident blocks, linked through their first word.
        let mut chain = 0usize;
        {
            let mut guard = pool();
            let p: &mut Pool = &mut guard;
            let limit = retain_limit();
            if p.retained <= limit {
                return;
            }
            // The link that holds the entry being looked at.
            let mut at: *mut usize = &mut p.free[class];
            // SAFETY: every entry is a free block of ours whose first word is the next link.
            unsafe {
                while *at != 0 && p.retained > limit {
                    let entry = *at;
                    let block = entry & !RESIDENT;
                    if entry & RESIDENT != 0 {
                        *at = *(block as *const usize);
                        *(block as *mut usize) = chain;
                        chain = block;
                        p.retained -= size;
                    } else {
                        at = block as *mut usize;
                    }
                }
            }
        }
        while chain != 0 {
            let block = chain;
            // SAFETY: a detached free block: its link is in its first page, which stays.
            unsafe {
                chain = *(block as *const usize);
                libc::madvise((block + PAGE) as *mut libc::c_void, size - PAGE, libc::MADV_DONTNEED);
            }
            let mut p = pool();
            // SAFETY: as in `give`.
            unsafe { *(block as *mut usize) = p.free[class] };
            p.free[class] = block;
        }
    }
}

fn large_layout(layout: &Layout) -> Option<(usize, usize)> {
    if layout.size() < LARGE {
        return None;
    }
    Some((class_of(layout.size())?, layout.align().max(PAGE)))
}

unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = match large_layout(&layout) {
            Some((class, align)) => take(class, align).0,
            None => unsafe { System.alloc(layout) },
        };
        if !ptr.is_null() {
            LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = match large_layout(&layout) {
            Some((class, align)) => {
                let (ptr, contents) = take(class, align);
                if !ptr.is_null() {
                    let dirty = match contents {
                        Contents::Zeros => 0,
                        Contents::FirstPage => PAGE.min(layout.size()),
                        Contents::Stale => layout.size(),
                    };
                    // SAFETY: the block holds at least `layout.size()` bytes.
                    unsafe { std::ptr::write_bytes(ptr, 0, dirty) };
                }
                ptr
            }
            None => unsafe { System.alloc_zeroed(layout) },
        };
        if !ptr.is_null() {
            LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match large_layout(&layout) {
            Some((class, _)) => give(ptr, class),
            None => unsafe { System.dealloc(ptr, layout) },
        }
        LIVE.fetch_sub(layout.size() as i64, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees a valid layout for the new size.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let delta = new_size as i64 - layout.size() as i64;
        match (large_layout(&layout), large_layout(&new_layout)) {
            (None, None) => {
                let p = unsafe { System.realloc(ptr, layout, new_size) };
                if !p.is_null() {
                    LIVE.fetch_add(delta, Ordering::Relaxed);
                }
                p
            }
            (Some((old, _)), Some((new, _))) if old == new => {
                LIVE.fetch_add(delta, Ordering::Relaxed);
                ptr
            }
            _ => {
                let p = unsafe { self.alloc(new_layout) };
                if !p.is_null() {
                    // SAFETY: both blocks hold at least the smaller size; they do not overlap.
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                p
            }
        }
    }
}

/// Bytes of freed large blocks kept resident for reuse.
#[cfg(test)]
fn retained_bytes() -> u64 {
    pool().retained as u64
}

/// Bytes the library's Rust code holds now (chunks, exports, files' footers, caches).
pub(crate) fn live_bytes() -> u64 {
    LIVE.load(Ordering::Relaxed).max(0) as u64
}

/// Whether `len` bytes at `ptr` lie in an arena, i.e. stay readable for the life of the process.
pub(crate) fn in_arena(ptr: *const u8, len: usize) -> bool {
    let (start, end) = (ptr as usize, (ptr as usize).saturating_add(len));
    let n = ARENA_COUNT.load(Ordering::Acquire);
    (0..n).any(|i| ARENA_START[i].load(Ordering::Relaxed) <= start && end <= ARENA_END[i].load(Ordering::Relaxed))
}

/// `buffer` itself if its bytes lie in an arena, else a copy that does: a buffer Java may read
/// after it is freed (see the module comment).
pub(crate) fn pinned(buffer: Buffer) -> Buffer {
    if buffer.is_empty() || in_arena(buffer.as_ptr(), buffer.len()) {
        return buffer;
    }
    let mut copy = Vec::with_capacity(buffer.len().max(LARGE));
    copy.extend_from_slice(buffer.as_slice());
    Buffer::from_vec(copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_buffers_are_copied_into_an_arena_and_large_ones_stay() {
        let small = Buffer::from_vec(vec![7u8; 100]);
        assert!(!in_arena(small.as_ptr(), small.len()));
        let pinned_small = pinned(small.clone());
        assert!(in_arena(pinned_small.as_ptr(), pinned_small.len()));
        assert_eq!(pinned_small.as_slice(), small.as_slice());

        let large = Buffer::from_vec(vec![3u8; 3 * LARGE + 5]);
        assert!(in_arena(large.as_ptr(), large.len()));
        assert_eq!(pinned(large.clone()).as_ptr(), large.as_ptr());
    }

    #[test]
    fn freed_blocks_stay_readable_and_are_reused() {
        let layout = Layout::from_size_align(5 * LARGE, 64).unwrap();
        let a = unsafe { Allocator.alloc(layout) };
        unsafe { std::ptr::write_bytes(a, 0xAB, layout.size()) };
        unsafe { Allocator.dealloc(a, layout) };
        // Still mapped: reading it neither faults nor needs the block to be live.
        let byte = unsafe { std::ptr::read_volatile(a.add(layout.size() - 1)) };
        assert!(byte == 0xAB || byte == 0);
        let b = unsafe { Allocator.alloc_zeroed(layout) };
        let all_zero = (0..layout.size()).all(|i| unsafe { *b.add(i) } == 0);
        unsafe { Allocator.dealloc(b, layout) };
        assert!(all_zero);
    }

    #[test]
    fn live_bytes_follow_allocations() {
        // Other tests allocate and free concurrently (the counter is global), so one measurement
        // may see their frees: the same bounds must hold in one of a few measurements.
        let mut seen = Vec::new();
        for _ in 0..5 {
            let before = live_bytes() as i64;
            let v = vec![1u8; 64 << 20];
            let during = live_bytes() as i64;
            drop(v);
            let after = live_bytes() as i64;
            if during - before > 60 << 20 && during - after > 60 << 20 {
                return;
            }
            seen.push((before, during, after));
        }
        panic!("live bytes did not follow a 64 MiB allocation: {seen:?}");
    }

    #[test]
    fn a_retaining_guard_keeps_freed_blocks_resident_until_it_goes() {
        // Conversions of other tests raise and lower the limit concurrently, and take retained
        // blocks: the bounds must hold in one of a few attempts.
        let mut seen = Vec::new();
        for _ in 0..5 {
            let guard = Retaining::start();
            let blocks: Vec<Vec<u8>> = (0..24).map(|_| vec![1u8; 4 << 20]).collect();
            drop(blocks);
            let raised = retained_bytes();
            drop(guard);
            let alone = RAISERS.load(Ordering::SeqCst) == 0;
            let lowered = retained_bytes();
            if raised > RETAIN as u64 + (32 << 20) && alone && lowered <= RETAIN as u64 {
                return;
            }
            seen.push((raised, alone, lowered));
        }
        panic!("retained bytes (while raised, no other guard, after) did not follow the guard: {seen:?}");
    }

    #[test]
    fn realloc_within_a_class_keeps_the_block() {
        let mut v: Vec<u8> = Vec::with_capacity(LARGE + 1);
        let p = v.as_ptr();
        v.resize(LARGE + 1, 1);
        v.reserve_exact(2 * LARGE - v.len());
        assert_eq!(v.as_ptr(), p);
        v.reserve_exact(8 * LARGE);
        assert!(v.iter().all(|&b| b == 1));
    }
}
