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
use crate::io::file::OpenFile;
use crate::predicate::prepared::PreparedFilter;
use crate::scan::Scan;
use crate::scan::chunk::Chunk;
use crate::scan::count::SplitRows;
use crate::scan::count::Stop;
use crate::scan::count::count_chunks;
use crate::scan::count::count_splits;
use super::JniResult;
use super::values::read_i32s;
use super::values::read_i64s;

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
        let max = count_limits(env, "count chunks", max_chunks, &out, 5)?;
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

/// `max_chunks` as a number of chunks, once checked positive, and `out` checked to hold `need`
/// longs: the limits every native count takes (`what` names the call in the error).
fn count_limits(env: &mut jni::Env<'_>, what: &str, max_chunks: jint, out: &JLongArray<'_>, need: usize) -> JniResult<usize> {
    let invalid = |detail: String| crate::error::Error::Invalid(format!("{what}: {detail}"));
    let max = usize::try_from(max_chunks).ok().filter(|&m| m > 0).ok_or_else(|| invalid(format!("{max_chunks} chunks at most")))?;
    if out.len(env)? < need {
        return Err(invalid(format!("out holds fewer than {need} longs")).into());
    }
    Ok(max)
}

/// A scan's arguments as Java sends them: the column names, and the prune predicate's encoding
/// (null: none).
fn scan_args(env: &mut jni::Env<'_>, columns: &JObjectArray<'_>, prune: &JByteArray<'_>) -> JniResult<(Vec<String>, Option<Predicate>)> {
    let columns = strings(env, columns)?;
    let prune = if prune.is_null() { None } else { Some(Predicate::decode(&bytes(env, prune)?)?) };
    Ok((columns, prune))
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

/// Splits' filtered counts in as few calls as possible ([`count_splits`]): split `i` is the rows
/// `[splits[4i], splits[4i+1])` of the open file `files[i]`, planned when the file had
/// `splits[4i+2]` bytes and modification time `splits[4i+3]` (a negative size: not checked).
/// From split `from` on, each is checked, scanned over `columns` (pruned by `prune` when given,
/// as `openScanRows`) and counted through the filter (`shape`, `leaves`, `leaf_columns` as
/// `prepareFilter`; every leaf native) for up to `max_chunks` chunks, its count written to
/// `counts[i]`. Returns the number of splits when all are counted; else the index of the split
/// with chunks left (or a declined chunk), with what `countChunks` writes to `out` for it, then
/// its scan's and filter's handles, which Java goes on with and owns.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_countSplits<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    files: JLongArray<'l>,
    splits: JLongArray<'l>,
    from: jint,
    columns: JObjectArray<'l>,
    prune: JByteArray<'l>,
    shape: jni::objects::JIntArray<'l>,
    leaves: JObjectArray<'l>,
    leaf_columns: jni::objects::JIntArray<'l>,
    max_chunks: jint,
    counts: JLongArray<'l>,
    out: JLongArray<'l>,
) -> jint {
    call(&mut env, |env| {
        let max = count_limits(env, "count splits", max_chunks, &out, 7)?;
        let handles = read_i64s(env, files.into())?;
        let planned = read_i64s(env, splits.into())?;
        let n = handles.len();
        let invalid = |detail: String| crate::error::Error::Invalid(format!("count splits: {detail}"));
        if planned.len() != 4 * n || counts.len(env)? < n {
            return Err(invalid(format!("{n} files, {} split longs, {} counts", planned.len(), counts.len(env)?)).into());
        }
        let from = usize::try_from(from).ok().filter(|&f| f <= n).ok_or_else(|| invalid(format!("from {from} of {n}")))?;
        let (columns, prune) = scan_args(env, &columns, &prune)?;
        let specs = super::filter::leaf_specs(env, &leaves, leaf_columns)?;
        let shape = read_i32s(env, shape.into())?;
        let mut batch = Vec::with_capacity(n - from);
        for i in from..n {
            let p = &planned[4 * i..4 * i + 4];
            batch.push(SplitRows {
                file: unsafe { borrow::<OpenFile>(handles[i], "file")? },
                rows: p[0].max(0) as u64..p[1].max(0) as u64,
                planned: (p[2] >= 0).then(|| (p[2] as u64, p[3])),
            });
        }
        let mut counted = vec![0u64; batch.len()];
        let stopped = count_splits(&batch, &columns, prune.as_ref(), &shape, &specs, max, &mut counted)?;
        let counted: Vec<jlong> = counted.iter().map(|&c| c as jlong).collect();
        counts.set_region(env, from as jint, &counted)?;
        let Some(unfinished) = stopped else {
            return Ok(n as jint);
        };
        let (ended, declined, len, first_row) = stop_fields(unfinished.counted.stop);
        let scan = into_handle(Mutex::new(unfinished.scan));
        let filter = into_handle(unfinished.filter);
        let fields = [unfinished.counted.chunks as jlong, ended, declined, len, first_row, scan, filter];
        if let Err(e) = out.set_region(env, 0, &fields) {
            // Java never saw them.
            unsafe {
                free::<Chunk>(declined);
                free::<ScanHandle>(scan);
                free::<PreparedFilter>(filter);
            }
            return Err(e.into());
        }
        Ok((from + unfinished.index) as jint)
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
        let (columns, prune) = scan_args(env, &columns, &prune)?;
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
