//! An object in a store as vortex reads it: ranged GETs on the I/O runtime ([`super::store`]),
//! each pinned to the ETag the object had when it was opened.
//!
//! - **The footer in one request**: vortex's open reads the file's tail with the size known from
//!   the listing or a HEAD, so a footer that fits its first read costs one request.
//! - **Segments requested at once, in parallel**: a segment's request starts when vortex asks for
//!   it (not when its future is first polled), and two asks for the same segment share one
//!   request. A scan's segments are also fetched ahead ([`RemoteFile::prefetch`]): the segments
//!   of its columns in its rows, in row order, up to [`PREFETCH_REQUESTS`] requests and
//!   [`PREFETCH_BYTES`] not yet asked for, so a scan that awaits one segment at a time still
//!   finds the next ones fetched. Segments fetched ahead that lie close together in the file
//!   share one request ([`store::Coalesce`]: the gap and size are store properties).
//! - **Kept for later scans** in the segment cache ([`crate::cache::segments`]) under the
//!   object's identity (location, ETag, size): a repeated query fetches nothing.
//! - **Never mixed data**: every GET carries `If-Match` with the opening ETag, so an object
//!   replaced under a running scan fails the read with an error naming it.

use std::collections::HashMap;
use std::collections::HashSet;
use std::collections::VecDeque;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;

use futures::FutureExt;
use futures::future::Shared;
use object_store::GetOptions;
use object_store::GetRange;
use object_store::ObjectMeta;
use object_store::ObjectStore;
use object_store::path::Path as ObjectPath;
use vortex_array::buffer::BufferHandle;
use vortex_array::memory::BufferAllocatorRef;
use vortex_buffer::Alignment;
use vortex_error::VortexResult;
use vortex_error::vortex_err;
use vortex_file::SegmentSpec;
use vortex_io::VortexReadAt;
use vortex_layout::LayoutChildType;
use vortex_layout::LayoutRef;
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
    ahead: Mutex<Ahead>,
    /// The footer's segment map, once read.
    specs: std::sync::OnceLock<Arc<[SegmentSpec]>>,
    /// How segments fetched ahead are merged into requests.
    coalesce: store::Coalesce,
}

/// Requests fetched ahead at once, at most.
pub const PREFETCH_REQUESTS: usize = 16;
/// Bytes fetched ahead and not yet asked for, at most (and at most a quarter of the segment cache,
/// where they wait).
pub const PREFETCH_BYTES: u64 = 64 << 20;

/// The segments a scan will ask for, fetched ahead of it.
#[derive(Default)]
struct Ahead {
    /// Segments still to fetch ahead, in the order the scan reads them.
    queue: VecDeque<u32>,
    /// Fetched (or being fetched) ahead and not asked for yet.
    unasked: HashSet<u32>,
    unasked_bytes: u64,
    running: usize,
    /// The requests fetching ahead now, by number: their segments and how to abort them.
    runs: HashMap<u64, Run>,
    next_run: u64,
    /// Scans of the object not yet dropped ([`Scanning`]).
    scans: usize,
}

/// A request fetching segments ahead.
struct Run {
    members: Vec<u32>,
    abort: tokio::task::AbortHandle,
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
    Ok(opened(location, located, meta, allocator))
}

/// Opens the object at `location` that a listing found with `size` bytes and modification time
/// `modified_millis`: without a request when that listing gave its ETag ([`store::listed_meta`]),
/// else as [`open`] does.
pub fn open_listed(location: &str, size: u64, modified_millis: i64, allocator: BufferAllocatorRef) -> Result<RemoteFile> {
    match store::listed_meta(location, size, modified_millis) {
        Some(meta) => Ok(opened(location, store::locate(location)?, meta, allocator)),
        None => open(location, allocator),
    }
}

fn opened(location: &str, located: store::Located, meta: ObjectMeta, allocator: BufferAllocatorRef) -> RemoteFile {
    let modified_millis = meta.last_modified.timestamp_millis();
    let identity = Identity::object(location, meta.e_tag.as_deref(), meta.size, modified_millis);
    RemoteFile(Arc::new(Object {
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
        ahead: Mutex::default(),
        specs: std::sync::OnceLock::new(),
        coalesce: located.coalesce,
    }))
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

    /// Starts fetching ahead the segments of the top-level `columns` (a dotted path: its
    /// top-level column) in the rows `ranges`, found in `layout` (the file's root layout), in
    /// the order of their rows; they wait in the segment cache.
    pub fn prefetch(&self, layout: &LayoutRef, columns: &[String], ranges: &[Range<u64>]) {
        if segments::capacity() == 0 || ranges.is_empty() {
            return;
        }
        let wanted: HashSet<&str> = columns.iter().map(|c| c.split('.').next().unwrap_or(c)).collect();
        let mut found = Vec::new();
        for slot in 0..layout.nslots() {
            let (Some(LayoutChildType::Field(name)), Ok(Some(child))) = (layout.slot_type(slot), layout.slot(slot)) else {
                continue;
            };
            if wanted.contains(name.as_ref()) {
                collect(&child, 0, ranges, &mut found);
            }
        }
        found.sort_by_key(|&(row, order, _)| (row, order));
        {
            let mut ahead = self.0.ahead.lock().unwrap_or_else(|e| e.into_inner());
            let queued: HashSet<u32> = ahead.queue.iter().copied().collect();
            ahead.queue.extend(found.into_iter().map(|(_, _, id)| id).filter(|id| !queued.contains(id)));
        }
        top_up(&self.0);
    }

    /// A scan of the object begins: while it lasts, its reads ahead run ([`Scanning`]).
    pub fn scanning(&self) -> Scanning {
        self.0.ahead.lock().unwrap_or_else(|e| e.into_inner()).scans += 1;
        Scanning { object: Arc::clone(&self.0), finished: false }
    }

    /// The object's segments (`specs`: the footer's segment map), each fetched when first asked for.
    pub fn segments(&self, specs: Arc<[SegmentSpec]>) -> RemoteSegments {
        let _ = self.0.specs.set(specs);
        RemoteSegments { object: Arc::clone(&self.0) }
    }
}

/// A scan of an object, from its start until it is dropped. A scan dropped before it read all its
/// rows (closed early, cancelled, failed) when no other scan of the object is running stops the
/// object's reads ahead: those not started are forgotten, and requests for segments no scan has
/// asked for yet are aborted, so nothing keeps fetching for a query that has stopped. A scan that
/// read all its rows leaves them running for the next split's scan.
pub struct Scanning {
    object: Arc<Object>,
    finished: bool,
}

impl Scanning {
    /// The scan read all its rows.
    pub fn finished(&mut self) {
        self.finished = true;
    }
}

impl Drop for Scanning {
    fn drop(&mut self) {
        let mut ahead = self.object.ahead.lock().unwrap_or_else(|e| e.into_inner());
        ahead.scans -= 1;
        if ahead.scans > 0 || self.finished {
            return;
        }
        ahead.queue.clear();
        let Ahead { runs, unasked, unasked_bytes, .. } = &mut *ahead;
        let mut in_flight = self.object.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        // A run some scan asked a segment of keeps going; under the lock no ask can come between
        // this check and the abort (an ask marks its segment asked before it awaits it).
        runs.retain(|_, run| {
            if !run.members.iter().all(|id| unasked.contains(id)) {
                return true;
            }
            run.abort.abort();
            for id in &run.members {
                unasked.remove(id);
                if let Some(spec) = self.object.specs.get().and_then(|specs| specs.get(*id as usize)) {
                    *unasked_bytes -= spec.length as u64;
                }
                // A later ask starts its own request rather than await the aborted one.
                in_flight.remove(id);
            }
            false
        });
    }
}

/// The segments of `layout` (its rows starting at file row `start`) and of its children whose
/// rows meet `ranges`, as (first row, discovery order, segment).
fn collect(layout: &LayoutRef, start: u64, ranges: &[Range<u64>], out: &mut Vec<(u64, usize, u32)>) {
    for id in layout.segment_ids() {
        out.push((start, out.len(), *id));
    }
    for slot in 0..layout.nslots() {
        let (Some(kind), Ok(Some(child))) = (layout.slot_type(slot), layout.slot(slot)) else {
            continue;
        };
        let first = match kind {
            LayoutChildType::Chunk((_, offset)) => start + offset,
            _ => start,
        };
        let rows = first..first + child.row_count();
        if ranges.iter().any(|r| r.start < rows.end && rows.start < r.end) {
            collect(&child, first, ranges, out);
        }
    }
}

/// Starts fetches ahead while the budget allows: the next segments of the queue (as many as
/// requests may still start), in file order, merged into one request where they lie within the
/// store's coalescing gap and size ([`store::Coalesce`]); each lands in the segment cache.
fn top_up(object: &Arc<Object>) {
    let budget = PREFETCH_BYTES.min(segments::capacity() as u64 / 4);
    loop {
        let mut picked: Vec<(u32, SegmentSpec)> = Vec::new();
        let runs = {
            let mut ahead = object.ahead.lock().unwrap_or_else(|e| e.into_inner());
            let free = PREFETCH_REQUESTS.saturating_sub(ahead.running);
            let mut bytes = ahead.unasked_bytes;
            while picked.len() < free && bytes < budget {
                let Some(id) = ahead.queue.pop_front() else {
                    break;
                };
                let Some(spec) = object.specs.get().and_then(|specs| specs.get(id as usize).copied()) else {
                    continue;
                };
                if segments::get(object.key, id).is_some()
                    || object.in_flight.lock().unwrap_or_else(|e| e.into_inner()).contains_key(&id)
                {
                    continue;
                }
                bytes += spec.length as u64;
                picked.push((id, spec));
            }
            if picked.is_empty() {
                return;
            }
            picked.sort_by_key(|(_, spec)| spec.offset);
            let runs = object.coalesce.runs(picked.iter().map(|(_, spec)| (spec.offset, spec.length as u64)));
            ahead.running += runs.len();
            for (id, spec) in &picked {
                ahead.unasked.insert(*id);
                ahead.unasked_bytes += spec.length as u64;
            }
            runs
        };
        for run in runs {
            let members = &picked[run];
            let (arrivals, abort) = start_run(object, members);
            let number = {
                let mut ahead = object.ahead.lock().unwrap_or_else(|e| e.into_inner());
                let number = ahead.next_run;
                ahead.next_run += 1;
                ahead.runs.insert(number, Run { members: members.iter().map(|(id, _)| *id).collect(), abort });
                number
            };
            let object = Arc::clone(object);
            let members: Vec<(u32, SegmentSpec)> = members.to_vec();
            store::spawn(async move {
                for ((id, spec), arrival) in members.into_iter().zip(arrivals) {
                    if let Ok(buffer) = arrival.clone().await {
                        segments::keep(object.key, id, &buffer, spec.length as usize);
                    }
                    forget(&object, id, &arrival);
                }
                {
                    let mut ahead = object.ahead.lock().unwrap_or_else(|e| e.into_inner());
                    ahead.running -= 1;
                    ahead.runs.remove(&number);
                }
                top_up(&object);
            });
        }
    }
}

/// Starts one request for the segments `members` (in file order, none being fetched): each
/// segment's arrival, sliced from the request's bytes, and the request's abort handle.
fn start_run(object: &Arc<Object>, members: &[(u32, SegmentSpec)]) -> (Vec<InFlight>, tokio::task::AbortHandle) {
    let first = members[0].1.offset;
    let last = members[members.len() - 1].1;
    let end = last.offset + last.length as u64;
    let (bytes, abort) = fetch_range(Arc::clone(object), first, (end - first) as usize);
    let bytes = bytes.boxed().shared();
    let mut in_flight = object.in_flight.lock().unwrap_or_else(|e| e.into_inner());
    let arrivals = members
        .iter()
        .map(|&(id, spec)| {
            let bytes = bytes.clone();
            let object = Arc::clone(object);
            let arrival: BoxFuture<std::result::Result<BufferHandle, Arc<str>>> = Box::pin(async move {
                let bytes = bytes.await?;
                let at = (spec.offset - first) as usize;
                Ok(buffer_of(&object, &bytes[at..at + spec.length as usize], spec.alignment))
            });
            let arrival = arrival.shared();
            in_flight.insert(id, arrival.clone());
            arrival
        })
        .collect();
    (arrivals, abort)
}

/// Drops segment `id`'s in-flight entry if it is still `arrival` (a later fetch may have replaced it).
fn forget(object: &Object, id: u32, arrival: &InFlight) {
    let mut in_flight = object.in_flight.lock().unwrap_or_else(|e| e.into_inner());
    if in_flight.get(&id).is_some_and(|current| current.ptr_eq(arrival)) {
        in_flight.remove(&id);
    }
}

/// Starts fetching segment `id` (unless it is being fetched): the arrival every ask awaits.
fn start_fetch(object: &Arc<Object>, id: u32, spec: SegmentSpec) -> InFlight {
    let mut in_flight = object.in_flight.lock().unwrap_or_else(|e| e.into_inner());
    in_flight
        .entry(id)
        .or_insert_with(|| {
            let (bytes, _) = fetch_range(Arc::clone(object), spec.offset, spec.length as usize);
            let object = Arc::clone(object);
            let arrival: BoxFuture<std::result::Result<BufferHandle, Arc<str>>> =
                Box::pin(async move { Ok(buffer_of(&object, &bytes.await?, spec.alignment)) });
            arrival.shared()
        })
        .clone()
}

/// Marks segment `id` asked for: no longer counted as fetched ahead.
fn asked(object: &Object, id: u32, length: u64) {
    let mut ahead = object.ahead.lock().unwrap_or_else(|e| e.into_inner());
    if ahead.unasked.remove(&id) {
        ahead.unasked_bytes -= length;
    }
}

/// `length` bytes at `offset` of the object, as it was when opened: one ranged GET, started now
/// on the I/O runtime (retried there as the store is configured); the future returned awaits it,
/// and the handle aborts it.
fn fetch_range(
    object: Arc<Object>,
    offset: u64,
    length: usize,
) -> (impl Future<Output = std::result::Result<bytes::Bytes, Arc<str>>> + Send + 'static, tokio::task::AbortHandle) {
    let store = Arc::clone(&object.store);
    let path = object.path.clone();
    let options = GetOptions {
        range: Some(GetRange::Bounded(offset..offset + length as u64)),
        if_match: object.etag.clone(),
        ..Default::default()
    };
    // Counted where it runs, so the figures are settled once nothing is in flight, whoever awaits.
    let running = store::Running::start();
    let request = store::spawn(async move {
        let _running = running;
        let bytes = store.get_opts(&path, options).await?.bytes().await?;
        store::count_request(bytes.len() as u64);
        Ok::<_, object_store::Error>(bytes)
    });
    let abort = request.abort_handle();
    let bytes = async move {
        let bytes = request
            .await
            .map_err(|e| format!("{}: the request failed: {e}", object.location))?
            .map_err(|e| store::store_error(&object.location, e).to_string())?;
        if bytes.len() != length {
            return Err(format!(
                "{}: asked for {length} bytes at {offset}, the store returned {}",
                object.location,
                bytes.len()
            )
            .into());
        }
        Ok(bytes)
    };
    (bytes, abort)
}

/// `bytes` in a buffer of the object's allocator aligned to `alignment`.
fn buffer_of(object: &Object, bytes: &[u8], alignment: Alignment) -> BufferHandle {
    let mut buffer = object.allocator.with_capacity_aligned::<u8>(bytes.len(), alignment);
    buffer.extend_from_slice(bytes);
    BufferHandle::new_host(buffer.freeze())
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
        let object = Arc::clone(&self.0);
        let (bytes, _) = fetch_range(Arc::clone(&object), offset, length);
        Box::pin(async move {
            let bytes = bytes.await.map_err(|e| vortex_err!("{e}"))?;
            Ok(buffer_of(&object, &bytes, alignment))
        })
    }
}

/// An object's segments for its layout readers (the segment map: [`Object::specs`]).
pub struct RemoteSegments {
    object: Arc<Object>,
}

impl SegmentSource for RemoteSegments {
    fn request(&self, id: SegmentId) -> SegmentFuture {
        let object = Arc::clone(&self.object);
        let Some(spec) = object.specs.get().and_then(|specs| specs.get(*id as usize).copied()) else {
            return Box::pin(async move { Err(vortex_err!("{}: the footer has no segment {}", object.location, *id)) });
        };
        asked(&object, *id, spec.length as u64);
        if let Some(kept) = segments::get(object.key, *id) {
            store::count_hit();
            top_up(&object);
            return Box::pin(async move { Ok(kept) });
        }
        let arrival = start_fetch(&object, *id, spec);
        Box::pin(async move {
            let result = arrival.clone().await;
            forget(&object, *id, &arrival);
            let buffer = result.map_err(|e| vortex_err!("{e}"))?;
            segments::keep(object.key, *id, &buffer, spec.length as usize);
            top_up(&object);
            Ok(buffer)
        })
    }
}
