//! A local file as vortex reads it: positional reads on the runtime's blocking threads, like
//! vortex's own `FileReadAt`, with two differences that bound what an open file costs.
//!
//! - **Smaller read windows.** Nearby segment reads are merged into windows of at most
//!   [`MAX_WINDOW`] bytes instead of vortex's 4 MiB. A chunk's arrays are slices of the window they
//!   were read in and keep all of it alive: with 4 MiB windows one chunk of one column of the
//!   10M-row `trades` sample held 2.6–6.2 MB, mostly other chunks' and columns' bytes; now 0.26–0.5 MB.
//! - **The descriptor closes with the last handle.** vortex's read driver is a task of the
//!   runtime; it drops its file only when some later call polls the runtime again, so a file left
//!   to the garbage collector kept its descriptor indefinitely. Here the descriptor lives in a
//!   slot that [`Descriptor`] empties when dropped (with the last `OpenFile` clone); a read after
//!   that fails with an error instead of reading.

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
use vortex_io::CoalesceConfig;
use vortex_io::VortexReadAt;
use vortex_io::runtime::Handle;
use vortex_io::std_file::DEFAULT_CONCURRENCY;
use vortex_io::std_file::read_exact_at;

/// Reads further apart than this are not merged into one window.
pub const MAX_GAP: u64 = 16 << 10;
/// The largest window merged reads may span.
pub const MAX_WINDOW: u64 = 256 << 10;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// The open file, until [`Descriptor`] closes it.
type Slot = Arc<RwLock<Option<Arc<File>>>>;

/// The source vortex reads segments from.
pub struct LocalFile {
    uri: Arc<str>,
    file: Slot,
    handle: Handle,
    allocator: BufferAllocatorRef,
}

/// Closes the file when dropped; reads started before finish with their own reference.
pub struct Descriptor(Slot);

impl Drop for Descriptor {
    fn drop(&mut self) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// Opens `path` for vortex's reads on `handle`, buffers from `allocator`.
pub fn open(path: &Path, handle: Handle, allocator: BufferAllocatorRef) -> std::io::Result<(LocalFile, Descriptor)> {
    let slot: Slot = Arc::new(RwLock::new(Some(Arc::new(File::open(path)?))));
    let source = LocalFile {
        uri: path.to_string_lossy().into(),
        file: Arc::clone(&slot),
        handle,
        allocator,
    };
    Ok((source, Descriptor(slot)))
}

fn current(slot: &Slot, uri: &str) -> VortexResult<Arc<File>> {
    slot.read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .ok_or_else(|| vortex_err!("{uri}: read after the file was closed"))
}

impl VortexReadAt for LocalFile {
    fn uri(&self) -> Option<&Arc<str>> {
        Some(&self.uri)
    }

    fn coalesce_config(&self) -> Option<CoalesceConfig> {
        Some(CoalesceConfig::new(MAX_GAP, MAX_WINDOW))
    }

    fn concurrency(&self) -> usize {
        DEFAULT_CONCURRENCY
    }

    fn size(&self) -> BoxFuture<VortexResult<u64>> {
        let file = current(&self.file, &self.uri);
        Box::pin(async move { Ok(file?.metadata()?.len()) })
    }

    fn read_at(&self, offset: u64, length: usize, alignment: Alignment) -> BoxFuture<VortexResult<BufferHandle>> {
        let (slot, uri) = (Arc::clone(&self.file), Arc::clone(&self.uri));
        let (handle, allocator) = (self.handle.clone(), self.allocator.clone());
        Box::pin(async move {
            handle
                .spawn_blocking(move || {
                    let file = current(&slot, &uri)?;
                    let mut buffer = allocator.with_capacity_aligned::<u8>(length, alignment);
                    // SAFETY: `read_exact_at` writes every byte of the slice or fails, and on
                    // failure the buffer is dropped unread.
                    unsafe { buffer.set_len(length) };
                    read_exact_at(&file, buffer.as_mut_slice(), offset)?;
                    Ok(BufferHandle::new_host(buffer.freeze()))
                })
                .await
        })
    }
}
