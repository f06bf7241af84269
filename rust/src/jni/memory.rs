//! The library's native memory, for Java's accounting and back-pressure, and the bounds of the
//! layout-reader cache and the segment cache.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::sys::jint;
use jni::sys::jlong;

use super::call;
use crate::cache::readers;
use crate::cache::segments;
use crate::runtime::memory;

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
    call(&mut env, |_| Ok(readers::set_capacity(files.max(0) as usize)))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_readerCacheCapacity<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(readers::capacity() as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_cachedReaders<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(readers::len() as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_setSegmentCacheCapacity<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    bytes: jlong,
) {
    call(&mut env, |_| Ok(segments::set_capacity(usize::try_from(bytes.max(0)).unwrap_or(usize::MAX))))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_segmentCacheCapacity<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(segments::capacity().min(jlong::MAX as usize) as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_cachedSegmentBytes<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(segments::held() as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_clearSegmentCache<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) {
    call(&mut env, |_| Ok(segments::clear()))
}
