//! A local file as vortex reads it: positional reads (`pread`, never a mapping: a truncated file
//! is an error, not a signal) made on the thread that needs the bytes.
//!
//! vortex's own file source sends every segment read to a per-file read driver (a task of the
//! runtime) that merges nearby reads and hands them to a blocking thread; the segment's future is
//! woken when the thread is done. For files in the page cache that hand-off, several wake-ups of
//! other threads per read, cost more than the copy itself, and per file: a count over 100 small
//! files paid ~0.1 ms per file for it, and a second scanning thread waited on the first's wake-ups.
//! Here:
//!
//! - **Segments are read where they are awaited** ([`Segments`]): the first poll of a segment's
//!   future reads exactly its bytes, on the scanning thread, so each chunk's arrays own just their
//!   own buffers (no window of other chunks' bytes kept alive) and threads scanning the same file
//!   read side by side. The price is no read-ahead on a cold file beyond the kernel's own.
//! - **The descriptor closes with the last handle.** The descriptor lives in a slot that
//!   [`Descriptor`] empties when dropped (with the last `OpenFile` clone); a read after that fails
//!   with an error instead of reading. (vortex's read driver, kept only for the footer's read at
//!   open, drops its source only when the runtime polls it again.)

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
use vortex_io::std_file::read_exact_at;
use vortex_layout::segments::SegmentFuture;
use vortex_layout::segments::SegmentId;
use vortex_layout::segments::SegmentSource;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// The open file, until [`Descriptor`] closes it.
type Slot = RwLock<Option<Arc<File>>>;

struct Source {
    uri: Arc<str>,
    file: Slot,
    allocator: BufferAllocatorRef,
}

impl Source {
    /// `length` bytes at `offset`, read now on this thread into a buffer aligned to `alignment`.
    fn read(&self, offset: u64, length: usize, alignment: Alignment) -> VortexResult<BufferHandle> {
        let file = self
            .file
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .ok_or_else(|| vortex_err!("{}: read after the file was closed", self.uri))?;
        let mut buffer = self.allocator.with_capacity_aligned::<u8>(length, alignment);
        // SAFETY: `read_exact_at` writes every byte of the slice or fails, and on failure the
        // buffer is dropped unread.
        unsafe { buffer.set_len(length) };
        read_exact_at(&file, buffer.as_mut_slice(), offset)
            .map_err(|e| vortex_err!("{}: cannot read {length} bytes at {offset}: {e}", self.uri))?;
        Ok(BufferHandle::new_host(buffer.freeze()))
    }
}

/// The source vortex reads the footer from when it opens the file.
#[derive(Clone)]
pub struct LocalFile(Arc<Source>);

/// Closes the file when dropped; reads started before finish with their own reference.
pub struct Descriptor(Arc<Source>);

impl Drop for Descriptor {
    fn drop(&mut self) {
        self.0.file.write().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// Opens `path` for vortex's reads, buffers from `allocator`.
pub fn open(path: &Path, allocator: BufferAllocatorRef) -> std::io::Result<(LocalFile, Descriptor)> {
    let source = Arc::new(Source {
        uri: path.to_string_lossy().into(),
        file: RwLock::new(Some(Arc::new(File::open(path)?))),
        allocator,
    });
    Ok((LocalFile(Arc::clone(&source)), Descriptor(source)))
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

    fn coalesce_config(&self) -> Option<CoalesceConfig> {
        None
    }

    fn concurrency(&self) -> usize {
        1
    }

    fn size(&self) -> BoxFuture<VortexResult<u64>> {
        let source = Arc::clone(&self.0);
        Box::pin(async move {
            let file = source.file.read().unwrap_or_else(|e| e.into_inner()).clone();
            let file = file.ok_or_else(|| vortex_err!("{}: read after the file was closed", source.uri))?;
            Ok(file.metadata()?.len())
        })
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
            source.read(spec.offset, spec.length as usize, spec.alignment)
        })
    }
}
