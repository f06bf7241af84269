//! Files: open, row count, schema, free.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JObject;
use jni::objects::JString;
use jni::sys::jlong;
use jni::sys::jobject;

use super::JniResult;
use super::borrow;
use super::call;
use super::free;
use super::into_handle;
use super::values::*;
use crate::io::file::Column;
use crate::io::file::OpenFile;
use crate::io::file::open;
use crate::io::file::open_listed;

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_openFile<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    path: JString<'l>,
) -> jlong {
    call(&mut env, |env| Ok(into_handle(open(&string(env, &path)?)?)))
}

/// Opens the file a listing found with `size` bytes, modified at `modified_millis`
/// ([`open_listed`]: an object without a HEAD).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_openListedFile<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    path: JString<'l>,
    size: jlong,
    modified_millis: jlong,
) -> jlong {
    call(&mut env, |env| Ok(into_handle(open_listed(&string(env, &path)?, size as u64, modified_millis)?)))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_rowCount<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
) -> jlong {
    call(&mut env, |_| Ok(unsafe { borrow::<OpenFile>(file, "file")? }.row_count() as jlong))
}

/// Throws unless the open file still has `size` bytes and modification time `modified_millis`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_checkUnchanged<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
    size: jlong,
    modified_millis: jlong,
) {
    call(&mut env, |_| unsafe { borrow::<OpenFile>(file, "file")? }.check_unchanged(size as u64, modified_millis).map_err(Into::into))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_schema<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
) -> jobject {
    call(&mut env, |env| {
        let columns = unsafe { borrow::<OpenFile>(file, "file")? }.columns()?;
        Ok(raw(schema_to_java(env, &columns)?))
    })
}

/// `Object[]{String[] names, int[] codes, boolean[] nullable, int[] p1, int[] p2, String[] tz,
/// String[] dtype text, Object[] children}` (see `Schema.fromNative`): `children[i]` is null for
/// a flat column, else the same encoding of its fields (a list's one element).
fn schema_to_java<'l>(env: &mut jni::Env<'l>, columns: &[Column]) -> JniResult<JObject<'l>> {
    let names: Vec<Option<String>> = columns.iter().map(|c| Some(c.name.clone())).collect();
    let codes: Vec<i32> = columns.iter().map(|c| c.ty.code()).collect();
    let nullable: Vec<bool> = columns.iter().map(|c| c.nullable).collect();
    let p1: Vec<i32> = columns.iter().map(|c| c.ty.params().0).collect();
    let p2: Vec<i32> = columns.iter().map(|c| c.ty.params().1).collect();
    let tz: Vec<Option<String>> = columns.iter().map(|c| c.ty.timezone().map(str::to_string)).collect();
    let text: Vec<Option<String>> = columns.iter().map(|c| Some(c.dtype.clone())).collect();
    let mut children = Vec::with_capacity(columns.len());
    for c in columns {
        let nested = c.ty.children();
        children.push(if nested.is_empty() { JObject::null() } else { schema_to_java(env, nested)? });
    }
    let parts: Vec<JObject> = vec![
        string_array(env, &names)?.into(),
        int_array(env, &codes)?.into(),
        bool_array(env, &nullable)?.into(),
        int_array(env, &p1)?.into(),
        int_array(env, &p2)?.into(),
        string_array(env, &tz)?.into(),
        string_array(env, &text)?.into(),
        object_array(env, children)?.into(),
    ];
    Ok(object_array(env, parts)?.into())
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_freeFile<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
) {
    call(&mut env, |_| {
        unsafe { free::<OpenFile>(file) };
        Ok(())
    })
}
