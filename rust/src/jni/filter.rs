//! Filters: the dictionary kernel, per-code tables, and the reference filtered scan.

use jni::EnvUnowned;
use jni::objects::JByteArray;
use jni::objects::JClass;
use jni::objects::JIntArray;
use jni::objects::JLongArray;
use jni::objects::JObjectArray;
use jni::sys::jboolean;
use jni::sys::jint;
use jni::sys::jlong;
use jni::sys::jobject;

use super::borrow;
use super::call;
use super::values::*;
use crate::chunk::Chunk;
use crate::file::OpenFile;
use crate::predicate::Predicate;
use crate::scan::filtered_count;
use crate::scan::filtered_rows;

/// A bitmap as a `long[]`, or null.
fn bitmap_or_null(env: &mut jni::Env<'_>, words: Option<Vec<u64>>) -> super::JniResult<jobject> {
    match words {
        Some(words) => Ok(raw(long_array(env, &words)?)),
        None => Ok(std::ptr::null_mut()),
    }
}

/// A bitmap (`long[]`) from `compute`, or null.
fn words_or_null<'l>(
    env: &mut EnvUnowned<'l>,
    chunk: jlong,
    leaf: JByteArray<'l>,
    compute: impl FnOnce(&Chunk, &[u8]) -> crate::error::Result<Option<Vec<u64>>>,
) -> jobject {
    call(env, |env| {
        let leaf = bytes(env, &leaf)?;
        let words = compute(unsafe { borrow::<Chunk>(chunk, "chunk")? }, &leaf)?;
        bitmap_or_null(env, words)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_evaluateDictFilter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
    leaf: JByteArray<'l>,
) -> jobject {
    words_or_null(&mut env, chunk, leaf, |c, l| c.dict_filter(column.max(-1) as usize, l))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_evaluateFilter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
    leaf: JByteArray<'l>,
) -> jobject {
    words_or_null(&mut env, chunk, leaf, |c, l| c.filter(column.max(-1) as usize, l))
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
    key: jint,
    selection: JLongArray<'l>,
    funcs: JIntArray<'l>,
    columns: JIntArray<'l>,
) -> jobject {
    call(&mut env, |env| {
        let selection = if selection.is_null() { None } else { Some(read_i64s(env, selection.into())?) };
        let selection: Option<Vec<u64>> = selection.map(|s| s.into_iter().map(|w| w as u64).collect());
        let funcs = read_i32s(env, funcs.into())?;
        let columns = read_i32s(env, columns.into())?;
        if funcs.len() != columns.len() {
            return Err(crate::error::Error::Invalid("aggregate functions and columns differ in number".into()).into());
        }
        let aggs: Vec<(i32, i32)> = funcs.into_iter().zip(columns).collect();
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        let key = usize::try_from(key).ok();
        let Some((groups, partials)) = chunk.aggregate(key, selection.as_deref(), &aggs)? else {
            return Ok(std::ptr::null_mut());
        };
        let mut parts = vec![long_array(env, &[groups as u64])?.into()];
        for p in partials {
            let count: Vec<u64> = p.count.iter().map(|&c| c as u64).collect();
            let value: Vec<u64> = p.value.iter().map(|&v| v as u64).collect();
            parts.push(long_array(env, &count)?.into());
            parts.push(long_array(env, &value)?.into());
        }
        Ok(raw(object_array(env, parts)?))
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
