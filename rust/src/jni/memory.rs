//! The library's native memory, for Java's accounting and back-pressure, and the bounds of the
//! layout-reader cache and the segment cache.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::sys::jint;
use jni::sys::jlong;

use super::call;
use crate::memory;
use crate::reader_cache;
use crate::segment_memo;

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_liveNativeBytes<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(memory::live_bytes() as jlong))
}


#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_setReaderCacheCapacity<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    files: jint,
) {
    call(&mut env, |_| Ok(reader_cache::set_capacity(files.max(0) as usize)))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_readerCacheCapacity<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(reader_cache::capacity() as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_cachedReaders<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(reader_cache::len() as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_setSegmentCacheCapacity<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    bytes: jlong,
) {
    call(&mut env, |_| Ok(segment_memo::set_capacity(usize::try_from(bytes.max(0)).unwrap_or(usize::MAX))))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_segmentCacheCapacity<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(segment_memo::capacity().min(jlong::MAX as usize) as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_cachedSegmentBytes<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(segment_memo::held() as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_clearSegmentCache<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) {
    call(&mut env, |_| Ok(segment_memo::clear()))
}
