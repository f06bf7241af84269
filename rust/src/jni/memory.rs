//! The library's native memory, for Java's accounting and back-pressure.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::sys::jlong;

use super::call;
use crate::memory;

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_liveNativeBytes<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
) -> jlong {
    call(&mut env, |_| Ok(memory::live_bytes() as jlong))
}

