//! Scans: open, next chunk, count chunks, free.

use std::sync::Mutex;

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JLongArray;
use jni::objects::JObjectArray;
use jni::sys::jint;
use jni::sys::jlong;

use super::borrow;
use super::call;
use super::free;
use super::into_handle;
use super::values::bytes;
use super::values::strings;
use crate::predicate::Predicate;
use jni::objects::JByteArray;
use crate::chunk::Chunk;
use crate::file::OpenFile;
use crate::prepared::PreparedFilter;
use crate::scan::Scan;
use crate::scan_count::Stop;
use crate::scan_count::count_chunks;

/// Java drives a scan from one thread at a time; the mutex makes misuse safe rather than racy.
pub(super) type ScanHandle = Mutex<Scan>;

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_prunedRows<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    scan: jlong,
) -> jlong {
    call(&mut env, |_| {
        let scan = unsafe { borrow::<ScanHandle>(scan, "scan")? };
        Ok(scan.lock().expect("scan lock poisoned").pruned_rows() as jlong)
    })
}

/// The next chunk's handle (0 at the end), its length and first file row written to
/// `position[0]` and `position[1]`: one crossing per chunk rather than three.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_nextChunk<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    scan: jlong,
    position: JLongArray<'l>,
) -> jlong {
    call(&mut env, |env| {
        let scan = unsafe { borrow::<ScanHandle>(scan, "scan")? };
        let next = scan.lock().expect("scan lock poisoned").next_chunk()?;
        let Some(chunk) = next else {
            return Ok(0);
        };
        position.set_region(env, 0, &[chunk.len as jlong, chunk.first_row as jlong])?;
        Ok(into_handle(Chunk::new(chunk)))
    })
}

/// The rows the prepared filter selects in the scan's next chunks, at most `max_chunks`, read
/// and dropped here ([`count_chunks`]). Writes to `out` the chunks counted, 1 if the scan ended
/// (else 0), and the handle (else 0), length and first row of the chunk the filter declined,
/// which Java then owns.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_countChunks<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    scan: jlong,
    filter: jlong,
    max_chunks: jint,
    out: JLongArray<'l>,
) -> jlong {
    call(&mut env, |env| {
        let invalid = |what: String| crate::error::Error::Invalid(format!("count chunks: {what}"));
        let max = usize::try_from(max_chunks).ok().filter(|&m| m > 0).ok_or_else(|| invalid(format!("{max_chunks} chunks at most")))?;
        if out.len(env)? < 5 {
            return Err(invalid("out holds fewer than 5 longs".into()).into());
        }
        let scan = unsafe { borrow::<ScanHandle>(scan, "scan")? };
        let filter = unsafe { borrow::<PreparedFilter>(filter, "prepared filter")? };
        let counted = count_chunks(&mut scan.lock().expect("scan lock poisoned"), filter, max)?;
        let (ended, declined, len, first_row) = stop_fields(counted.stop);
        if let Err(e) = out.set_region(env, 0, &[counted.chunks as jlong, ended, declined, len, first_row]) {
            unsafe { free::<Chunk>(declined) }; // Java never saw it
            return Err(e.into());
        }
        Ok(counted.rows as jlong)
    })
}

/// Why a count stopped, as Java reads it: (1 if the scan ended, the declined chunk's handle,
/// its length, its first row), the chunk handed over to Java.
fn stop_fields(stop: Stop) -> (jlong, jlong, jlong, jlong) {
    match stop {
        Stop::Limit => (0, 0, 0, 0),
        Stop::End => (1, 0, 0, 0),
        Stop::Declined(chunk) => {
            let (len, first_row) = (chunk.len() as jlong, chunk.data.first_row as jlong);
            (0, into_handle(chunk), len, first_row)
        }
    }
}

/// A split's filtered count in as few calls as possible: opens the scan of `columns` over the
/// file rows `[start, end)` (pruned by `prune` when given, as `openScanRows`), prepares the
/// filter (`shape`, `leaves`, `leaf_columns` as `prepareFilter`; every leaf native) and counts up
/// to `max_chunks` chunks (as `countChunks`). Writes to `out` what `countChunks` writes, then the
/// scan's and the filter's handles when the scan has not ended (Java goes on with them and owns
/// them, and the declined chunk if any), else 0 and 0 (both freed here). A split of a small file
/// is counted in this one call.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_countSplit<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
    columns: JObjectArray<'l>,
    prune: JByteArray<'l>,
    start: jlong,
    end: jlong,
    shape: jni::objects::JIntArray<'l>,
    leaves: JObjectArray<'l>,
    leaf_columns: jni::objects::JIntArray<'l>,
    max_chunks: jint,
    out: JLongArray<'l>,
) -> jlong {
    call(&mut env, |env| {
        let invalid = |what: String| crate::error::Error::Invalid(format!("count split: {what}"));
        let max = usize::try_from(max_chunks).ok().filter(|&m| m > 0).ok_or_else(|| invalid(format!("{max_chunks} chunks at most")))?;
        if out.len(env)? < 7 {
            return Err(invalid("out holds fewer than 7 longs".into()).into());
        }
        let specs = super::filter::leaf_specs(env, &leaves, leaf_columns)?;
        let shape = super::values::read_i32s(env, shape.into())?;
        let columns = strings(env, &columns)?;
        let prune = if prune.is_null() { None } else { Some(Predicate::decode(&bytes(env, &prune)?)?) };
        let file = unsafe { borrow::<OpenFile>(file, "file")? };
        let rows = start.max(0) as u64..end.max(0) as u64;
        let mut scan = Scan::open_rows(file, &columns, prune.as_ref(), rows)?;
        let filter = scan.prepare_filter(&shape, specs)?;
        let counted = count_chunks(&mut scan, &filter, max)?;
        let (ended, declined, len, first_row) = stop_fields(counted.stop);
        let (scan, filter) = if ended == 1 { (0, 0) } else { (into_handle(Mutex::new(scan)), into_handle(filter)) };
        if let Err(e) = out.set_region(env, 0, &[counted.chunks as jlong, ended, declined, len, first_row, scan, filter]) {
            // Java never saw them.
            unsafe {
                free::<Chunk>(declined);
                free::<ScanHandle>(scan);
                free::<PreparedFilter>(filter);
            }
            return Err(e.into());
        }
        Ok(counted.rows as jlong)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_freeScan<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    scan: jlong,
) {
    call(&mut env, |_| {
        unsafe { free::<ScanHandle>(scan) };
        Ok(())
    })
}

/// Starts a scan of the named columns over the file rows `[start, end)` (a dataset split),
/// pruning by zone maps with `prune` when given.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_openScanRows<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
    columns: JObjectArray<'l>,
    prune: JByteArray<'l>,
    start: jlong,
    end: jlong,
) -> jlong {
    call(&mut env, |env| {
        let columns = strings(env, &columns)?;
        let prune = if prune.is_null() { None } else { Some(Predicate::decode(&bytes(env, &prune)?)?) };
        let file = unsafe { borrow::<OpenFile>(file, "file")? };
        let rows = start.max(0) as u64..end.max(0) as u64;
        Ok(into_handle(Mutex::new(Scan::open_rows(file, &columns, prune.as_ref(), rows)?)))
    })
}

/// The file's natural splits zone maps keep for `prune` (may be null), as `long[]{start0, end0,
/// start1, end1, ...}`. A prune predicate vortex cannot evaluate on zone maps keeps every split.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_naturalSplits<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
    prune: JByteArray<'l>,
) -> jni::sys::jobject {
    call(&mut env, |env| {
        let prune = if prune.is_null() { None } else { Some(Predicate::decode(&bytes(env, &prune)?)?) };
        let file = unsafe { borrow::<OpenFile>(file, "file")? };
        let splits = match crate::scan::natural_splits(file, prune.as_ref()) {
            Ok(s) => s,
            Err(_) if prune.is_some() => crate::scan::natural_splits(file, None)?,
            Err(e) => return Err(e.into()),
        };
        let flat: Vec<u64> = splits.iter().flat_map(|r| [r.start, r.end]).collect();
        Ok(super::values::raw(super::values::long_array(env, &flat)?))
    })
}
