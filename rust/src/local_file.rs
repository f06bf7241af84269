//! A local file as vortex reads it: positional reads (`pread`, never a mapping: a truncated file
//! is an error, not a signal).
//!
//! vortex's own file source sends every segment read to a per-file read driver (a task of the
//! runtime) that merges nearby reads and hands them to a blocking thread; the segment's future is
//! woken when the thread is done. That keeps reads ahead of decoding on a big file, but for a
//! small one the hand-off, several wake-ups of other threads, is most of the scan: a count over
//! 100 files of 100,000 rows paid ~0.1 ms per file for it. So:
//!
//! - **Small files' segments are read where they are awaited** ([`Segments`], files up to
//!   [`INLINE_MAX_FILE`] bytes): the first poll of a segment's future reads exactly its bytes on
//!   the scanning thread, so each chunk's arrays own just their own buffers and threads scanning
//!   the same file read side by side.
//! - **Bigger files keep vortex's read driver** ([`LocalFile`] as its source) with smaller read
//!   windows: nearby reads are merged into windows of at most [`MAX_WINDOW`] bytes instead of
//!   vortex's 4 MiB (a chunk's arrays are slices of the window they were read in and keep all of
//!   it alive: with 4 MiB windows one chunk of one column of the 10M-row `trades` sample held
//!   2.6–6.2 MB, mostly other chunks' and columns' bytes; now 0.26–0.5 MB), read on the runtime's
//!   blocking threads.
//! - **The descriptor closes with the last handle.** The descriptor lives in a slot that
//!   [`Descriptor`] empties when dropped (with the last `OpenFile` clone); a read after that fails
//!   with an error instead of reading. (vortex's read driver drops its source only when the
//!   runtime polls it again.)

use std::fs::File;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::RwLock;

use vortex_array::buffer::BufferHandle;
use vortex_array::memory::BufferAllocatorRef;
use vortex_buffer::Alignment;
use vortex_error::VortexResult;
use vortex_error::vortex_err;
use vortex_file::SegmentSpec;
use vortex_io::CoalesceConfig;
use vortex_io::VortexReadAt;
use vortex_io::runtime::Handle;
use vortex_io::std_file::DEFAULT_CONCURRENCY;
use vortex_io::std_file::read_exact_at;
use vortex_layout::segments::SegmentFuture;
use vortex_layout::segments::SegmentId;
use vortex_layout::segments::SegmentSource;

/// Files up to this size are read on the scanning threads ([`Segments`]).
pub const INLINE_MAX_FILE: u64 = u64::MAX;
/// How many recently read segments a file's [`Segments`] hands out again: vortex requests a
/// segment once per chunk it spans (the 10M-row sample's 459 KB `sym` code segments span ~6
/// chunks each), and a read is a copy out of the page cache.
const RECENT: usize = 4;
/// Reads further apart than this are not merged into one window.
pub const MAX_GAP: u64 = 16 << 10;
/// The largest window merged reads may span.
pub const MAX_WINDOW: u64 = 256 << 10;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// The open file, until [`Descriptor`] closes it.
type Slot = RwLock<Option<Arc<File>>>;

struct Source {
    uri: Arc<str>,
    file: Slot,
    handle: Handle,
    allocator: BufferAllocatorRef,
}

impl Source {
    /// The open file; an error once [`Descriptor`] closed it.
    fn file(&self) -> VortexResult<Arc<File>> {
        self.file
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(|| vortex_err!("{}: read after the file was closed", self.uri))
    }

    /// `length` bytes at `offset`, read now on this thread into a buffer aligned to `alignment`.
    fn read(&self, offset: u64, length: usize, alignment: Alignment) -> VortexResult<BufferHandle> {
        let file = self.file()?;
        let mut buffer = self.allocator.with_capacity_aligned::<u8>(length, alignment);
        // SAFETY: `read_exact_at` writes every byte of the slice or fails, and on failure the
        // buffer is dropped unread.
        unsafe { buffer.set_len(length) };
        read_exact_at(&file, buffer.as_mut_slice(), offset)
            .map_err(|e| vortex_err!("{}: cannot read {length} bytes at {offset}: {e}", self.uri))?;
        Ok(BufferHandle::new_host(buffer.freeze()))
    }
}

/// The source vortex's read driver reads from: the footer at open, and a big file's segments.
#[derive(Clone)]
pub struct LocalFile(Arc<Source>);

/// Closes the file when dropped; reads started before finish with their own reference.
pub struct Descriptor(Arc<Source>);

impl Drop for Descriptor {
    fn drop(&mut self) {
        self.0.file.write().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// Opens `path` for vortex's reads on `handle`, buffers from `allocator`.
pub fn open(path: &Path, handle: Handle, allocator: BufferAllocatorRef) -> std::io::Result<(LocalFile, Descriptor)> {
    let source = Arc::new(Source {
        uri: path.to_string_lossy().into(),
        file: RwLock::new(Some(Arc::new(File::open(path)?))),
        handle,
        allocator,
    });
    Ok((LocalFile(Arc::clone(&source)), Descriptor(source)))
}

impl LocalFile {
    /// The file's segments (`specs`: the footer's segment map) read where they are awaited.
    pub fn segments(&self, specs: Arc<[SegmentSpec]>) -> Segments {
        Segments { source: Arc::clone(&self.0), specs, recent: Default::default() }
    }
}

impl VortexReadAt for LocalFile {
    fn uri(&self) -> Option<&Arc<str>> {
        Some(&self.0.uri)
    }

    fn coalesce_config(&self) -> Option<CoalesceConfig> {
        Some(CoalesceConfig::new(MAX_GAP, MAX_WINDOW))
    }

    fn concurrency(&self) -> usize {
        DEFAULT_CONCURRENCY
    }

    fn size(&self) -> BoxFuture<VortexResult<u64>> {
        let source = Arc::clone(&self.0);
        Box::pin(async move { Ok(source.file()?.metadata()?.len()) })
    }

    fn read_at(&self, offset: u64, length: usize, alignment: Alignment) -> BoxFuture<VortexResult<BufferHandle>> {
        let source = Arc::clone(&self.0);
        let handle = source.handle.clone();
        Box::pin(async move { handle.spawn_blocking(move || source.read(offset, length, alignment)).await })
    }
}

/// A file's segments for its layout readers: each read by the first poll of its future, on the
/// polling thread.
pub struct Segments {
    source: Arc<Source>,
    specs: Arc<[SegmentSpec]>,
    recent: Arc<std::sync::Mutex<std::collections::VecDeque<(SegmentId, BufferHandle)>>>,
}

impl SegmentSource for Segments {
    fn request(&self, id: SegmentId) -> SegmentFuture {
        let spec = self.specs.get(*id as usize).copied();
        let source = Arc::clone(&self.source);
        let recent = Arc::clone(&self.recent);
        Box::pin(async move {
            let spec = spec.ok_or_else(|| vortex_err!("{}: the footer has no segment {}", source.uri, *id))?;
            if let Some((_, b)) = recent.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(s, _)| *s == id) {
                return Ok(b.clone());
            }
            let b = source.read(spec.offset, spec.length as usize, spec.alignment)?;
            let mut r = recent.lock().unwrap_or_else(|e| e.into_inner());
            if r.len() == RECENT {
                r.pop_front();
            }
            r.push_back((id, b.clone()));
            Ok(b)
        })
    }
}
