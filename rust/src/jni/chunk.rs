//! Chunks: column export, encoding tree, free (length and first row come with `nextChunk`).

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JObject;
use jni::sys::jint;
use jni::sys::jlong;
use jni::sys::jobject;

use super::JniResult;
use super::borrow;
use super::call;
use super::free;
use super::values::*;
use crate::export::Exported;
use crate::scan::chunk::Chunk;

/// `Object[]{long[] header, validity, values, offsets, data, Object[] dictionary, Object[]
/// children}` (see `ColumnExport.java`).
fn export_to_java<'l>(env: &mut jni::Env<'l>, e: &Exported) -> JniResult<JObject<'l>> {
    let header = [e.is_dictionary as u64, e.len as u64, e.code_width as u64, e.dictionary_id];
    let dictionary = match &e.dictionary {
        Some(d) => export_to_java(env, d)?,
        None => JObject::null(),
    };
    let children = if e.children.is_empty() {
        JObject::null()
    } else {
        let mut parts = Vec::with_capacity(e.children.len());
        for c in &e.children {
            parts.push(export_to_java(env, c)?);
        }
        object_array(env, parts)?.into()
    };
    // SAFETY: the buffers belong to an export the chunk keeps until Java frees the chunk.
    let parts = unsafe {
        vec![
            long_array(env, &header)?.into(),
            byte_buffer(env, e.validity.as_deref())?,
            byte_buffer(env, e.values.as_deref())?,
            byte_buffer(env, e.offsets.as_deref())?,
            byte_buffer(env, e.data.as_deref())?,
            dictionary,
            children,
        ]
    };
    Ok(object_array(env, parts)?.into())
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_exportColumn<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
) -> jobject {
    call(&mut env, |env| {
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        let export = chunk.export(column.max(-1) as usize).map_err(|e| e.in_file(&chunk.data.path))?;
        Ok(raw(export_to_java(env, &export)?))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_exportDictionary<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
) -> jobject {
    call(&mut env, |env| {
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        match chunk.export_dictionary(column.max(-1) as usize).map_err(|e| e.in_file(&chunk.data.path))? {
            Some(d) => Ok(raw(export_to_java(env, &d)?)),
            None => Ok(std::ptr::null_mut()),
        }
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_encodingTree<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
) -> jobject {
    call(&mut env, |env| {
        let tree = unsafe { borrow::<Chunk>(chunk, "chunk")? }.encoding_tree(column.max(-1) as usize)?;
        Ok(raw(jni::objects::JString::from_str(env, tree)?))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_freeChunk<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
) {
    call(&mut env, |_| {
        unsafe { free::<Chunk>(chunk) };
        Ok(())
    })
}
