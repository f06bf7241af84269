//! A local file as vortex reads it: positional reads (`pread`, never a mapping: a truncated file
//! is an error, not a signal), each segment read where it is awaited.
//!
//! vortex's own file source sends every segment read to a per-file read driver (a task of the
//! runtime) that merges nearby reads into windows and hands them to a blocking thread; the
//! segment's future is woken when the thread is done. Here instead:
//!
//! - **Segments are read on the scanning thread** ([`Segments`]): the first poll of a segment's
//!   future reads exactly its bytes, so each chunk's arrays own just their own buffers (with
//!   vortex's 4 MiB windows one chunk of one column of the 10M-row `trades` sample held
//!   2.6–6.2 MB, mostly other chunks' and columns' bytes) and threads scanning the same file read
//!   side by side. The hand-off to a blocking thread cost a small file most of its scan (a count
//!   over 100 files of 100,000 rows paid ~0.1 ms per file for it); on a big file it moved the
//!   read's copy out of the page cache (~40% of a count's CPU over the 10M-row sample) onto
//!   another core, so at threads=1 a count already kept ~1.5 cores busy and a second scanning
//!   thread had little left to take (threads=2 only 1.2–1.4× faster than threads=1). Reading
//!   inline makes that 1.5–1.8×. What is given up is the read driver's read-ahead: a file
//!   not in the page cache is read one segment at a time as the scan reaches it.
//! - **Segments read lately are handed out again** ([`crate::cache::segments`]): vortex requests a
//!   segment once per chunk it spans, and a repeated query the same segments.
//! - **The descriptor closes with the last handle.** The descriptor lives in a slot that
//!   [`Descriptor`] empties when dropped (with the last `OpenFile` clone); a read after that fails
//!   with an error instead of reading.

use std::fs::File;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::RwLock;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;

use vortex_array::buffer::BufferHandle;
use vortex_array::memory::BufferAllocatorRef;
use vortex_buffer::Alignment;
use vortex_error::VortexResult;
use vortex_error::vortex_err;
use vortex_file::SegmentSpec;
use vortex_io::VortexReadAt;
use vortex_io::std_file::DEFAULT_CONCURRENCY;
use vortex_io::std_file::read_exact_at;
use vortex_layout::segments::SegmentFuture;
use vortex_layout::segments::SegmentId;
use vortex_layout::segments::SegmentSource;

use super::Identity;
use crate::cache::segments;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// The open file, until [`Descriptor`] closes it.
type Slot = RwLock<Option<Arc<File>>>;

struct Source {
    /// The file's contents' identity when opened, and its key in [`segments`].
    identity: Identity,
    key: u64,
    uri: Arc<str>,
    file: Slot,
    allocator: BufferAllocatorRef,
    /// Scans of the file open now ([`Reading`]): only segments read by a scan are remembered.
    scans: AtomicUsize,
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

    /// Segment `id` (`spec`), kept or read now.
    fn segment(&self, id: SegmentId, spec: SegmentSpec) -> VortexResult<BufferHandle> {
        if let Some(kept) = segments::get(self.key, *id) {
            return Ok(kept);
        }
        // Two threads scanning adjacent splits may both read a segment they share: waiting for
        // the other's read would take as long as reading it.
        let buffer = self.read(spec.offset, spec.length as usize, spec.alignment)?;
        if self.scans.load(Ordering::Acquire) > 0 {
            segments::keep(self.key, *id, &buffer, spec.length as usize);
        }
        Ok(buffer)
    }
}

/// The source vortex reads the footer from when the file is opened.
#[derive(Clone)]
pub struct LocalFile(Arc<Source>);

/// Closes the file when dropped (and forgets its segments); reads started before finish with
/// their own reference.
pub struct Descriptor(Arc<Source>);

impl Drop for Descriptor {
    fn drop(&mut self) {
        self.0.file.write().unwrap_or_else(|e| e.into_inner()).take();
        segments::close(self.0.identity);
    }
}

impl Descriptor {
    /// The open file's metadata now (`fstat`: no path lookup, and the file that is read, even
    /// if another one has been moved to its path since).
    pub fn metadata(&self) -> std::io::Result<std::fs::Metadata> {
        self.0.file().map_err(std::io::Error::other)?.metadata()
    }

    /// Marks a scan of the file open until the guard is dropped: segments read meanwhile are
    /// remembered ([`segments`]) until the file closes or newer ones push them out.
    pub fn reading(&self) -> Reading {
        self.0.scans.fetch_add(1, Ordering::AcqRel);
        Reading(Arc::clone(&self.0))
    }
}

/// An open scan of a file ([`Descriptor::reading`]).
pub struct Reading(Arc<Source>);

impl Drop for Reading {
    fn drop(&mut self) {
        self.0.scans.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Opens `path` for vortex's reads, buffers from `allocator`.
pub fn open(path: &Path, allocator: BufferAllocatorRef) -> std::io::Result<(LocalFile, Descriptor)> {
    let file = File::open(path)?;
    let identity = Identity::of(&file.metadata()?);
    let source = Arc::new(Source {
        identity,
        key: segments::open(identity),
        uri: path.to_string_lossy().into(),
        file: RwLock::new(Some(Arc::new(file))),
        allocator,
        scans: AtomicUsize::new(0),
    });
    Ok((LocalFile(Arc::clone(&source)), Descriptor(source)))
}

impl Descriptor {
    /// The identity of the file's contents when it was opened.
    pub fn identity(&self) -> Identity {
        self.0.identity
    }

    /// The file's key in [`segments`]: the same for every open of the same contents.
    pub fn segment_key(&self) -> u64 {
        self.0.key
    }
}

impl LocalFile {
    /// The file's segments (`specs`: the footer's segment map) read where they are awaited.
    pub fn segments(&self, specs: Arc<[SegmentSpec]>) -> Segments {
        Segments { source: Arc::clone(&self.0), specs }
    }
}

impl VortexReadAt for LocalFile {
    fn uri(&self) -> Option<&Arc<str>> {
        Some(&self.0.uri)
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
        Box::pin(async move { source.read(offset, length, alignment) })
    }
}

/// A file's segments for its layout readers: each read by the first poll of its future, on the
/// polling thread.
pub struct Segments {
    source: Arc<Source>,
    specs: Arc<[SegmentSpec]>,
}

impl SegmentSource for Segments {
    fn request(&self, id: SegmentId) -> SegmentFuture {
        let spec = self.specs.get(*id as usize).copied();
        let source = Arc::clone(&self.source);
        Box::pin(async move {
            let spec = spec.ok_or_else(|| vortex_err!("{}: the footer has no segment {}", source.uri, *id))?;
            source.segment(id, spec)
        })
    }
}
