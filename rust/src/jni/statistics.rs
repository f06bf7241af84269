//! A file's per-column statistics from its footer.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JObject;
use jni::sys::jlong;
use jni::sys::jobject;

use super::borrow;
use super::call;
use super::values::*;
use crate::io::file::OpenFile;
use crate::scan::statistics::column_statistics;

/// `Object[]{long[] nullCounts, String[] mins, String[] maxs, String[] sums}`, one entry per top-level column
/// in schema order; -1 and null where unknown (see `ColumnStatistics.fromNative`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_columnStatistics<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
) -> jobject {
    call(&mut env, |env| {
        let stats = column_statistics(unsafe { borrow::<OpenFile>(file, "file")? });
        let nulls: Vec<u64> = stats.iter().map(|s| s.null_count.unwrap_or(u64::MAX)).collect();
        let mins: Vec<Option<String>> = stats.iter().map(|s| s.min.clone()).collect();
        let maxs: Vec<Option<String>> = stats.iter().map(|s| s.max.clone()).collect();
        let sums: Vec<Option<String>> = stats.iter().map(|s| s.sum.clone()).collect();
        let parts: Vec<JObject> = vec![
            long_array(env, &nulls)?.into(),
            string_array(env, &mins)?.into(),
            string_array(env, &maxs)?.into(),
            string_array(env, &sums)?.into(),
        ];
        Ok(raw(object_array(env, parts)?))
    })
}
