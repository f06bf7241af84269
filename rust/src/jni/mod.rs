//! The JNI shell: one `extern "system"` function per native method of
//! `io.vortex4j.reader.internal.Native`, each a line or two of glue around the safe modules.
//!
//! Every entry runs inside [`call`], which catches panics and turns every error into a Java
//! exception, so neither a panic nor a Rust error crosses into the JVM. Handles are boxed Rust
//! values passed to Java as `long`s; Java frees each exactly once.

mod chunk;
mod codes;
mod convert;
mod engine;
mod file;
mod filter;
mod memory;
mod scan;
mod statistics;
mod store;
mod values;
mod write;

use std::any::Any;

use jni::Env;
use jni::EnvUnowned;
use jni::Outcome;
use jni::objects::JObject;
use jni::strings::JNIString;
use jni::sys::jboolean;
use jni::sys::jlong;
use jni::sys::jobject;

use crate::error::Error;

/// Why a native call failed.
pub(crate) enum Failure {
    /// An error of the safe layer; its class and message become the Java exception.
    Lib(Error),
    /// A JNI call failed (a Java exception may already be pending).
    Jni(jni::errors::Error),
    /// A null handle: Java used something after closing it.
    Closed(&'static str),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Lib(e)
    }
}

impl From<jni::errors::Error> for Failure {
    fn from(e: jni::errors::Error) -> Self {
        Failure::Jni(e)
    }
}

pub(crate) type JniResult<T> = Result<T, Failure>;

/// The value a native method returns when it throws.
pub(crate) trait OnThrow {
    fn on_throw() -> Self;
}

impl OnThrow for () {
    fn on_throw() -> Self {}
}

impl OnThrow for jlong {
    fn on_throw() -> Self {
        0
    }
}

impl OnThrow for jni::sys::jint {
    fn on_throw() -> Self {
        0
    }
}

/// Entries returning a Java `boolean` return false when they throw.
impl OnThrow for jboolean {
    fn on_throw() -> Self {
        false
    }
}

impl OnThrow for jobject {
    fn on_throw() -> Self {
        JObject::null().into_raw()
    }
}

/// Runs `f`; on error or panic, throws a Java exception and returns a placeholder.
pub(crate) fn call<'local, T: OnThrow>(
    env: &mut EnvUnowned<'local>,
    f: impl FnOnce(&mut Env<'local>) -> JniResult<T>,
) -> T {
    let outcome = env.with_env(|env| -> Result<Result<T, Failure>, jni::errors::Error> { Ok(f(env)) });
    let failure = match outcome.into_outcome() {
        Outcome::Ok(Ok(v)) => return v,
        Outcome::Ok(Err(f)) => f,
        Outcome::Err(e) => Failure::Jni(e),
        Outcome::Panic(p) => Failure::Lib(Error::Invalid(format!(
            "internal error in the native library (please report): {}",
            panic_message(p.as_ref())
        ))),
    };
    throw(env, failure);
    T::on_throw()
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

fn throw(env: &mut EnvUnowned<'_>, failure: Failure) {
    let _ = env
        .with_env(|env| -> Result<(), jni::errors::Error> {
            if env.exception_check() {
                // A Java exception is already pending (e.g. from a failed JNI call): keep it.
                return Ok(());
            }
            let (class, message) = match failure {
                Failure::Lib(e) => (e.java_class(), e.to_string()),
                Failure::Jni(e) => ("io/vortex4j/VortexException", format!("JNI call failed: {e}")),
                Failure::Closed(what) => ("java/lang/IllegalStateException", format!("{what} is closed")),
            };
            env.throw_new(JNIString::new(class), JNIString::new(message))
        })
        .into_outcome();
}

/// Moves a value to the heap and returns its handle.
pub(crate) fn into_handle<T>(value: T) -> jlong {
    Box::into_raw(Box::new(value)) as jlong
}

/// Borrows the value behind a handle.
///
/// # Safety
/// `handle` must be 0 or come from [`into_handle`] with the same `T` and not be freed yet;
/// the Java wrappers guarantee this (they check before every call and free exactly once).
pub(crate) unsafe fn borrow<'a, T>(handle: jlong, what: &'static str) -> JniResult<&'a T> {
    if handle == 0 {
        return Err(Failure::Closed(what));
    }
    Ok(unsafe { &*(handle as *const T) })
}

/// Frees the value behind a handle (0 is ignored).
///
/// # Safety
/// As for [`borrow`]; afterwards the handle must not be used again.
pub(crate) unsafe fn free<T>(handle: jlong) {
    if handle != 0 {
        drop(unsafe { Box::from_raw(handle as *mut T) });
    }
}
