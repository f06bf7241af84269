//! Filters: prepared filters (selections, native counts and aggregates), per-code tables computed
//! in Java, and the reference filtered scan.

use jni::EnvUnowned;
use jni::objects::JByteArray;
use jni::objects::JClass;
use jni::objects::JDoubleArray;
use jni::objects::JIntArray;
use jni::objects::JLongArray;
use jni::objects::JObjectArray;
use jni::sys::jboolean;
use jni::sys::jint;
use jni::sys::jlong;
use jni::sys::jobject;

use super::borrow;
use super::call;
use super::free;
use super::into_handle;
use super::values::*;
use crate::aggregate::Aggregated;
use crate::aggregate::Values;
use crate::filter::LeafPath;
use crate::io::file::OpenFile;
use crate::predicate::Predicate;
use crate::predicate::prepared::Filtered;
use crate::predicate::prepared::LeafSpec;
use crate::predicate::prepared::PreparedFilter;
use crate::scan::chunk::Chunk;
use crate::scan::filtered_count;
use crate::scan::filtered_rows;

/// A bitmap as a `long[]`, or null.
fn bitmap_or_null(env: &mut jni::Env<'_>, words: Option<Vec<u64>>) -> super::JniResult<jobject> {
    match words {
        Some(words) => Ok(raw(long_array(env, &words)?)),
        None => Ok(std::ptr::null_mut()),
    }
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_filteredScanRows<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
    predicate: JByteArray<'l>,
) -> jobject {
    call(&mut env, |env| {
        let predicate = Predicate::decode(&bytes(env, &predicate)?)?;
        let rows = filtered_rows(unsafe { borrow::<OpenFile>(file, "file")? }, &predicate)?;
        Ok(raw(long_array(env, &rows)?))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_filteredScanCount<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
    predicate: JByteArray<'l>,
    columns: JObjectArray<'l>,
    materialize: jboolean,
) -> jlong {
    call(&mut env, |env| {
        let predicate = Predicate::decode(&bytes(env, &predicate)?)?;
        let columns = strings(env, &columns)?;
        let file = unsafe { borrow::<OpenFile>(file, "file")? };
        Ok(filtered_count(file, &predicate, &columns, materialize)? as jlong)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_aggregateChunk<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    keys: JIntArray<'l>,
    selection: JLongArray<'l>,
    funcs: JIntArray<'l>,
    columns: JIntArray<'l>,
    starts: JDoubleArray<'l>,
) -> jobject {
    call(&mut env, |env| {
        let selection = if selection.is_null() { None } else { Some(read_i64s(env, selection.into())?) };
        let selection: Option<Vec<u64>> = selection.map(|s| s.into_iter().map(|w| w as u64).collect());
        let aggs = aggregate_specs(env, funcs, columns, starts)?;
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        let keys = key_columns(env, keys)?;
        let Some(aggregated) = chunk.aggregate(&keys, selection.as_deref(), &aggs)? else {
            return Ok(std::ptr::null_mut());
        };
        partials_to_java(env, aggregated)
    })
}

/// Aggregate functions, their columns and float sums so far (`starts`; null: all 0.0), as
/// (function ordinal, column index, start) triples.
fn aggregate_specs(env: &mut jni::Env<'_>, funcs: JIntArray<'_>, columns: JIntArray<'_>, starts: JDoubleArray<'_>) -> super::JniResult<Vec<(i32, i32, f64)>> {
    let funcs = read_i32s(env, funcs.into())?;
    let columns = read_i32s(env, columns.into())?;
    let starts = if starts.is_null() { vec![0.0; funcs.len()] } else { read_f64s(env, starts.into())? };
    if funcs.len() != columns.len() || funcs.len() != starts.len() {
        return Err(crate::error::Error::Invalid("aggregate functions, columns and starts differ in number".into()).into());
    }
    Ok(funcs.into_iter().zip(columns).zip(starts).map(|((f, c), s)| (f, c, s)).collect())
}

/// The group columns' indices (a negative index is an error of the caller).
fn key_columns(env: &mut jni::Env<'_>, keys: JIntArray<'_>) -> super::JniResult<Vec<usize>> {
    let keys = read_i32s(env, keys.into())?;
    keys.into_iter()
        .map(|k| usize::try_from(k).map_err(|_| crate::error::Error::Invalid(format!("group column {k}")).into()))
        .collect()
}

/// `Object[]{long[]{groups}, rows, unused, count0, value0, ..., key0, nulls0, ...}` (see
/// `Native.aggregateChunk`); with several dictionary keys `unused` is the groups' composite codes,
/// with an integer key among several each key's values and null bitmap per group follow the
/// aggregates. A value is a `long[]`, or a `double[]` for a float aggregate.
fn partials_to_java(env: &mut jni::Env<'_>, aggregated: Aggregated) -> super::JniResult<jobject> {
    let mut parts = vec![long_array(env, &[aggregated.groups as u64])?.into()];
    let mut partials = aggregated.partials.into_iter();
    if let Some(p) = partials.next() {
        // Rows per group, then the composite codes in the slot of the first partial's values.
        parts.push(long_array(env, &p.count.iter().map(|&c| c as u64).collect::<Vec<_>>())?.into());
        parts.push(long_array(env, &aggregated.codes)?.into());
    }
    for p in partials {
        let count: Vec<u64> = p.count.iter().map(|&c| c as u64).collect();
        parts.push(long_array(env, &count)?.into());
        parts.push(match &p.value {
            Values::Int(v) => long_array(env, &v.iter().map(|&v| v as u64).collect::<Vec<_>>())?.into(),
            Values::Float(v) => double_array(env, v)?.into(),
        });
    }
    for key in &aggregated.keys {
        parts.push(long_array(env, &key.values.iter().map(|&v| v as u64).collect::<Vec<_>>())?.into());
        let mut nulls = vec![0u64; key.nulls.len().div_ceil(64)];
        key.nulls.iter().enumerate().filter(|(_, n)| **n).for_each(|(g, _)| nulls[g / 64] |= 1 << (g % 64));
        parts.push(long_array(env, &nulls)?.into());
    }
    Ok(raw(object_array(env, parts)?))
}

/// A prepared filter's leaves from Java: `leaves[k]` leaf `k`'s encoding (null: Java evaluates
/// it) on scan column `columns[k]`.
pub(super) fn leaf_specs<'l>(
    env: &mut jni::Env<'l>,
    leaves: &JObjectArray<'l>,
    columns: JIntArray<'l>,
) -> super::JniResult<Vec<LeafSpec>> {
    let columns = read_i32s(env, columns.into())?;
    if columns.len() != leaves.len(env)? {
        return Err(crate::error::Error::Invalid("leaves and their columns differ in number".into()).into());
    }
    let mut specs = Vec::with_capacity(columns.len());
    for (k, &column) in columns.iter().enumerate() {
        let leaf = element(env, leaves, k)?;
        let encoded = if leaf.is_null() { None } else { Some(bytes(env, &env.cast_local::<JByteArray>(leaf)?)?) };
        specs.push(LeafSpec { encoded, column: usize::try_from(column).unwrap_or(usize::MAX) });
    }
    Ok(specs)
}

/// Prepares a filter for the chunks of one scan (see `crate::predicate::prepared`), before or after its first
/// chunk: `leaves[k]` is leaf `k`'s encoding (null: Java evaluates it) on scan column
/// `columns[k]`, `shape` the tree.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_prepareFilter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    scan: jlong,
    shape: JIntArray<'l>,
    leaves: JObjectArray<'l>,
    columns: JIntArray<'l>,
) -> jlong {
    call(&mut env, |env| {
        let shape = read_i32s(env, shape.into())?;
        let specs = leaf_specs(env, &leaves, columns)?;
        let scan = unsafe { borrow::<super::scan::ScanHandle>(scan, "scan")? };
        let prepared = scan.lock().expect("scan lock poisoned").prepare_filter(&shape, specs)?;
        Ok(into_handle(prepared))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_freeFilter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    filter: jlong,
) {
    call(&mut env, |_| {
        unsafe { free::<PreparedFilter>(filter) };
        Ok(())
    })
}

/// The prepared filter and chunk a per-chunk call names, with the selections of the leaves Java
/// evaluates.
///
/// # Safety
/// `filter` and `chunk` are open handles Java holds for the call (as for [`borrow`]).
unsafe fn filter_on_chunk<'h>(
    env: &mut jni::Env<'_>,
    filter: jlong,
    chunk: jlong,
    external: &JObjectArray<'_>,
) -> super::JniResult<(&'h PreparedFilter, &'h Chunk, Vec<Option<Vec<u64>>>)> {
    let filter = unsafe { borrow::<PreparedFilter>(filter, "prepared filter")? };
    let external = external_selections(env, filter, external)?;
    let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
    Ok((filter, chunk, external))
}

/// The selections of the leaves Java evaluates (`long[]` or null each; the array itself null
/// when there are none).
fn external_selections(env: &mut jni::Env<'_>, filter: &PreparedFilter, external: &JObjectArray<'_>) -> super::JniResult<Vec<Option<Vec<u64>>>> {
    if external.is_null() {
        return Ok(vec![None; filter.leaves()]);
    }
    let n = external.len(env)?;
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let e = element(env, external, k)?;
        out.push(if e.is_null() { None } else { Some(read_i64s(env, e)?.into_iter().map(|w| w as u64).collect()) });
    }
    Ok(out)
}

/// The rows of the chunk the prepared filter selects, counted natively; -1 when it cannot
/// evaluate a leaf on this chunk (Java then computes the selection its own way).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_countSelected<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    filter: jlong,
    external: JObjectArray<'l>,
) -> jlong {
    call(&mut env, |env| {
        let (filter, chunk, external) = unsafe { filter_on_chunk(env, filter, chunk, &external)? };
        Ok(filter.count(chunk, &external)?.map_or(-1, |n| n as jlong))
    })
}

/// The rows of the chunk the prepared filter selects, as a bitmap; null when it cannot evaluate a
/// leaf on this chunk. `paths` (may be null; one int per leaf) receives the kernel that computed
/// each leaf's selection (the `path` code table).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_selectRows<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    filter: jlong,
    external: JObjectArray<'l>,
    paths: JIntArray<'l>,
) -> jobject {
    call(&mut env, |env| {
        let (filter, chunk, external) = unsafe { filter_on_chunk(env, filter, chunk, &external)? };
        let mut taken = vec![LeafPath::NotEvaluated; filter.leaves()];
        let words = filter.selection_by_paths(chunk, &external, &mut taken)?;
        if !paths.is_null() {
            let codes: Vec<i32> = taken.iter().map(|&p| p as i32).collect();
            if paths.len(env)? != codes.len() {
                return Err(crate::error::Error::Invalid(format!("{} paths for {} leaves", paths.len(env)?, codes.len())).into());
            }
            paths.set_region(env, 0, &codes)?;
        }
        bitmap_or_null(env, words)
    })
}

/// `Native.aggregateChunk` of the rows the prepared filter selects, in one call: the aggregate's
/// `Object[]`; the selection (`long[]`) when the aggregate kernel does not take the chunk; null
/// when the filter cannot be evaluated natively on it.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_aggregateSelected<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    filter: jlong,
    external: JObjectArray<'l>,
    keys: JIntArray<'l>,
    funcs: JIntArray<'l>,
    columns: JIntArray<'l>,
    starts: JDoubleArray<'l>,
) -> jobject {
    call(&mut env, |env| {
        let aggs = aggregate_specs(env, funcs, columns, starts)?;
        let keys = key_columns(env, keys)?;
        let (filter, chunk, external) = unsafe { filter_on_chunk(env, filter, chunk, &external)? };
        match filter.aggregate(chunk, &external, &keys, &aggs)? {
            Filtered::Aggregated(aggregated) => partials_to_java(env, aggregated),
            Filtered::Selected(words) => Ok(raw(long_array(env, &words)?)),
            Filtered::Declined => Ok(std::ptr::null_mut()),
        }
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_selectByCodeTable<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
    table: JLongArray<'l>,
) -> jobject {
    call(&mut env, |env| {
        let table: Vec<u64> = read_i64s(env, table.into())?.into_iter().map(|w| w as u64).collect();
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        let words = chunk.select_by_table(column.max(-1) as usize, &table)?;
        bitmap_or_null(env, words)
    })
}
