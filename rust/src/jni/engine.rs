//! The native engine (`io.vortex4j.engine.EngineNative`): a query's tables, its plan's
//! execution into an Arrow C stream, EXPLAIN, cancel, free.

use jni::EnvUnowned;
use jni::objects::JByteArray;
use jni::objects::JClass;
use jni::objects::JLongArray;
use jni::objects::JObjectArray;
use jni::sys::jint;
use jni::sys::jlong;
use jni::sys::jobject;

use super::borrow;
use super::call;
use super::free;
use super::into_handle;
use super::values::*;
use crate::convert::export::PartitionType;
use crate::convert::ffi::write_to;
use crate::engine::query::Query;
use crate::engine::scan::Split;
use crate::error::Error;

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_engine_EngineNative_openQuery<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    threads: jint,
    memory_limit: jlong,
) -> jlong {
    call(&mut env, |_| Ok(into_handle(Query::new(threads.max(1) as usize, memory_limit.max(0) as usize)?)))
}

/// Registers the table named `names` over splits of `paths`: split `i` is rows `[splits[4i],
/// splits[4i+1])` of `paths[i]`, planned when the file had `splits[4i+2]` bytes (negative: not
/// checked) and modification time `splits[4i+3]` ms. The table's Hive partition columns are
/// `partition_names` of types `partition_types` (`int64`, `date`, `utf8`); split `i`'s value of
/// column `k` is `partition_values[i * partition_names.length + k]` (null: the default partition).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_io_vortex4j_engine_EngineNative_registerTable<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    query: jlong,
    names: JObjectArray<'l>,
    paths: JObjectArray<'l>,
    splits: JLongArray<'l>,
    partition_names: JObjectArray<'l>,
    partition_types: JObjectArray<'l>,
    partition_values: JObjectArray<'l>,
) {
    call(&mut env, |env| {
        let query = unsafe { borrow::<Query>(query, "native query")? };
        let names = strings(env, &names)?;
        let paths = strings(env, &paths)?;
        let planned = read_i64s(env, splits.into())?;
        if planned.len() != 4 * paths.len() {
            return Err(Error::Invalid(format!("{} split longs for {} splits", planned.len(), paths.len())).into());
        }
        let partition_columns = strings(env, &partition_names)?
            .into_iter()
            .zip(strings(env, &partition_types)?)
            .map(|(n, t)| Ok((n, PartitionType::parse(&t)?)))
            .collect::<crate::error::Result<Vec<_>>>()?;
        let values = optional_strings(env, &partition_values)?;
        let width = partition_columns.len();
        if values.len() != width * paths.len() {
            return Err(Error::Invalid(format!("{} partition values for {} splits of {width} partition columns", values.len(), paths.len())).into());
        }
        let splits = paths
            .into_iter()
            .zip(planned.chunks_exact(4))
            .enumerate()
            .map(|(i, (path, p))| Split {
                path,
                rows: p[0].max(0) as u64..p[1].max(0) as u64,
                planned: (p[2] >= 0).then(|| (p[2] as u64, p[3])),
                partition: values[i * width..(i + 1) * width].to_vec(),
            })
            .collect();
        Ok(query.register(&names, splits, partition_columns)?)
    })
}

/// DataFusion's physical plan of the Substrait plan `plan`, an operator per line.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_engine_EngineNative_explain<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    query: jlong,
    plan: JByteArray<'l>,
) -> jobject {
    call(&mut env, |env| {
        let query = unsafe { borrow::<Query>(query, "native query")? };
        let text = query.explain(&bytes(env, &plan)?)?;
        Ok(raw(jni::objects::JString::from_str(env, text)?))
    })
}

/// Executes the Substrait plan `plan`, its results the Arrow C stream written to `stream`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_engine_EngineNative_execute<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    query: jlong,
    plan: JByteArray<'l>,
    stream: jlong,
) {
    call(&mut env, |env| {
        let query = unsafe { borrow::<Query>(query, "native query")? };
        let results = query.execute(&bytes(env, &plan)?)?;
        unsafe { write_to(stream, results)? };
        Ok(())
    })
}

/// Stops the query's execution: a thread waiting for its next batch gets an error at once.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_engine_EngineNative_cancel<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    query: jlong,
) {
    call(&mut env, |_| {
        unsafe { borrow::<Query>(query, "native query")? }.cancel().raise();
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_engine_EngineNative_freeQuery<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    query: jlong,
) {
    call(&mut env, |_| {
        if query != 0 {
            // Its results may still be read (they hold what they need): stop them first.
            unsafe { borrow::<Query>(query, "native query")? }.cancel().raise();
            unsafe { free::<Query>(query) };
        }
        Ok(())
    })
}
