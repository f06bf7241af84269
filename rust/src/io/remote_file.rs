//! An object in a store as vortex reads it: ranged GETs on the I/O runtime ([`super::store`]),
//! each pinned to the ETag the object had when it was opened.
//!
//! - **The footer in one request**: vortex's open reads the file's tail with the size known from
//!   the HEAD, so a footer that fits its first read costs one request.
//! - **Segments requested at once, in parallel**: a segment's request starts when vortex asks for
//!   it (not when its future is first polled), so the segments of a chunk, and of the chunks a
//!   scan asks for ahead, are in flight together; two asks for the same segment share one request.
//! - **Kept for later scans** in the segment cache ([`crate::cache::segments`]) under the
//!   object's identity (location, ETag, size): a repeated query fetches nothing.
//! - **Never mixed data**: every GET carries `If-Match` with the opening ETag, so an object
//!   replaced under a running scan fails the read with an error naming it.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;

use futures::FutureExt;
use futures::future::Shared;
use object_store::GetOptions;
use object_store::GetRange;
use object_store::ObjectStore;
use object_store::path::Path as ObjectPath;
use vortex_array::buffer::BufferHandle;
use vortex_array::memory::BufferAllocatorRef;
use vortex_buffer::Alignment;
use vortex_error::VortexResult;
use vortex_error::vortex_err;
use vortex_file::SegmentSpec;
use vortex_io::VortexReadAt;
use vortex_layout::segments::SegmentFuture;
use vortex_layout::segments::SegmentId;
use vortex_layout::segments::SegmentSource;

use super::Identity;
use super::store;
use crate::cache::segments;
use crate::error::Error;
use crate::error::Result;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// A segment being fetched, shared by every ask for it until it arrives.
type InFlight = Shared<BoxFuture<std::result::Result<BufferHandle, Arc<str>>>>;

struct Object {
    location: Arc<str>,
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    size: u64,
    etag: Option<String>,
    modified_millis: i64,
    identity: Identity,
    /// The object's key in [`segments`].
    key: u64,
    allocator: BufferAllocatorRef,
    in_flight: Mutex<HashMap<u32, InFlight>>,
}

/// An open object: the source vortex reads the footer from, and what [`super::file::OpenFile`]
/// keeps. Its segments are forgotten when the last clone is dropped.
#[derive(Clone)]
pub struct RemoteFile(Arc<Object>);

impl Drop for Object {
    fn drop(&mut self) {
        segments::close(self.identity);
    }
}

/// Opens the object at `location` (one HEAD: its size, ETag and modification time).
pub fn open(location: &str, allocator: BufferAllocatorRef) -> Result<RemoteFile> {
    let located = store::locate(location)?;
    let (store, path) = (Arc::clone(&located.store), located.path.clone());
    let meta = store::run(async move {
        use object_store::ObjectStoreExt;
        store.head(&path).await
    })
    .map_err(|e| store::store_error(location, e))?;
    store::count_request(0);
    let modified_millis = meta.last_modified.timestamp_millis();
    let identity = Identity::object(location, meta.e_tag.as_deref(), meta.size, modified_millis);
    Ok(RemoteFile(Arc::new(Object {
        location: location.into(),
        store: located.store,
        path: located.path,
        size: meta.size,
        etag: meta.e_tag,
        modified_millis,
        identity,
        key: segments::open(identity),
        allocator,
        in_flight: Mutex::default(),
    })))
}

impl RemoteFile {
    /// The object's size when opened.
    pub fn size(&self) -> u64 {
        self.0.size
    }

    /// The identity of the object's contents when opened.
    pub fn identity(&self) -> Identity {
        self.0.identity
    }

    /// The object's key in [`segments`].
    pub fn segment_key(&self) -> u64 {
        self.0.key
    }

    /// Fails unless the object had `size` bytes and was last modified at `modified_millis` when
    /// opened (as listed when the split was planned). Later changes fail the reads themselves.
    pub fn check_unchanged(&self, size: u64, modified_millis: i64) -> Result<()> {
        if self.0.size == size && self.0.modified_millis == modified_millis {
            return Ok(());
        }
        Err(Error::file(
            &*self.0.location,
            format!(
                "the object changed after the split was planned (size {size} -> {}, modified {modified_millis} -> {} ms)",
                self.0.size, self.0.modified_millis
            ),
        ))
    }

    /// The object's segments (`specs`: the footer's segment map), each fetched when first asked for.
    pub fn segments(&self, specs: Arc<[SegmentSpec]>) -> RemoteSegments {
        RemoteSegments { object: Arc::clone(&self.0), specs }
    }
}

/// `length` bytes at `offset` of the object, as it was when opened, into a buffer aligned to
/// `alignment`: one ranged GET on the I/O runtime (retried there as the store is configured).
async fn fetch(object: Arc<Object>, offset: u64, length: usize, alignment: Alignment) -> VortexResult<BufferHandle> {
    let store = Arc::clone(&object.store);
    let path = object.path.clone();
    let options = GetOptions {
        range: Some(GetRange::Bounded(offset..offset + length as u64)),
        if_match: object.etag.clone(),
        ..Default::default()
    };
    let request = store::spawn(async move { store.get_opts(&path, options).await?.bytes().await });
    let bytes = request
        .await
        .map_err(|e| vortex_err!("{}: the request failed: {e}", object.location))?
        .map_err(|e| vortex_err!("{}", store::store_error(&object.location, e)))?;
    store::count_request(bytes.len() as u64);
    if bytes.len() != length {
        return Err(vortex_err!(
            "{}: asked for {length} bytes at {offset}, the store returned {}",
            object.location,
            bytes.len()
        ));
    }
    let mut buffer = object.allocator.with_capacity_aligned::<u8>(length, alignment);
    buffer.extend_from_slice(&bytes);
    Ok(BufferHandle::new_host(buffer.freeze()))
}

impl VortexReadAt for RemoteFile {
    fn uri(&self) -> Option<&Arc<str>> {
        Some(&self.0.location)
    }

    fn concurrency(&self) -> usize {
        16
    }

    fn size(&self) -> BoxFuture<VortexResult<u64>> {
        let size = self.0.size;
        Box::pin(async move { Ok(size) })
    }

    fn read_at(&self, offset: u64, length: usize, alignment: Alignment) -> BoxFuture<VortexResult<BufferHandle>> {
        Box::pin(fetch(Arc::clone(&self.0), offset, length, alignment))
    }
}

/// An object's segments for its layout readers.
pub struct RemoteSegments {
    object: Arc<Object>,
    specs: Arc<[SegmentSpec]>,
}

impl SegmentSource for RemoteSegments {
    fn request(&self, id: SegmentId) -> SegmentFuture {
        let object = Arc::clone(&self.object);
        if let Some(kept) = segments::get(object.key, *id) {
            store::count_hit();
            return Box::pin(async move { Ok(kept) });
        }
        let Some(spec) = self.specs.get(*id as usize).copied() else {
            return Box::pin(async move { Err(vortex_err!("{}: the footer has no segment {}", object.location, *id)) });
        };
        let shared = {
            let mut in_flight = object.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            in_flight
                .entry(*id)
                .or_insert_with(|| {
                    let started = store::spawn(fetch(Arc::clone(&object), spec.offset, spec.length as usize, spec.alignment));
                    let location = Arc::clone(&object.location);
                    let arrival: BoxFuture<std::result::Result<BufferHandle, Arc<str>>> = Box::pin(async move {
                        match started.await {
                            Ok(Ok(buffer)) => Ok(buffer),
                            Ok(Err(e)) => Err(crate::error::concise(&e).into()),
                            Err(e) => Err(format!("{location}: the request failed: {e}").into()),
                        }
                    });
                    arrival.shared()
                })
                .clone()
        };
        Box::pin(async move {
            let result = shared.await;
            object.in_flight.lock().unwrap_or_else(|e| e.into_inner()).remove(&*id);
            let buffer = result.map_err(|e| vortex_err!("{e}"))?;
            segments::keep(object.key, *id, &buffer, spec.length as usize);
            Ok(buffer)
        })
    }
}
