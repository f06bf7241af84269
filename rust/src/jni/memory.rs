//! The library's native memory, for Java's accounting and back-pressure, and the bound of the
//! layout-reader cache.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::sys::jint;
use jni::sys::jlong;

use super::call;
use crate::memory;
use crate::reader_cache;

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
