//! Object stores: configuration, listing, and what they fetched.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JObject;
use jni::objects::JObjectArray;
use jni::objects::JString;
use jni::sys::jobject;

use super::call;
use super::values::*;
use crate::io::store;
use crate::io::transfer;

/// Sets the properties of `scope` (`s3`, `s3://bucket`, …): `keys[i]` is `values[i]`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_configureStore<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    scope: JString<'l>,
    keys: JObjectArray<'l>,
    values: JObjectArray<'l>,
) {
    call(&mut env, |env| {
        let scope = string(env, &scope)?;
        let pairs = strings(env, &keys)?.into_iter().zip(strings(env, &values)?).collect();
        store::configure(&scope, pairs).map_err(Into::into)
    })
}

/// `Object[]{String[] locations, long[] sizes, long[] modified millis}`: the objects under
/// `location`, in location order.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_listObjects<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    location: JString<'l>,
) -> jobject {
    call(&mut env, |env| {
        let listed = store::list(&string(env, &location)?)?;
        let locations: Vec<Option<String>> = listed.iter().map(|l| Some(l.location.clone())).collect();
        let sizes: Vec<u64> = listed.iter().map(|l| l.size).collect();
        let modified: Vec<u64> = listed.iter().map(|l| l.modified_millis as u64).collect();
        let parts: Vec<JObject> =
            vec![string_array(env, &locations)?.into(), long_array(env, &sizes)?.into(), long_array(env, &modified)?.into()];
        Ok(raw(object_array(env, parts)?))
    })
}

/// `long[]{requests, bytes fetched, segment cache hits, listings, requests in flight}` of every
/// store: the first four since the process started.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_storeFetched<'l>(mut env: EnvUnowned<'l>, _: JClass<'l>) -> jobject {
    call(&mut env, |env| Ok(raw(long_array(env, &store::fetched())?)))
}

/// Writes the local file `local` to the object at `location`, atomically; returns its bytes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_uploadObject<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    local: JString<'l>,
    location: JString<'l>,
) -> jni::sys::jlong {
    call(&mut env, |env| {
        let local = string(env, &local)?;
        Ok(transfer::upload(std::path::Path::new(&local), &string(env, &location)?)? as i64)
    })
}

/// Writes the object at `location` to the local file `local` (in place once complete); returns
/// its bytes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_downloadObject<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    location: JString<'l>,
    local: JString<'l>,
) -> jni::sys::jlong {
    call(&mut env, |env| {
        let location = string(env, &location)?;
        Ok(transfer::download(&location, std::path::Path::new(&string(env, &local)?))? as i64)
    })
}

/// Copies the object at `from` to `to` (same store), on the store's side.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_copyObject<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    from: JString<'l>,
    to: JString<'l>,
) {
    call(&mut env, |env| Ok(transfer::copy(&string(env, &from)?, &string(env, &to)?)?))
}

/// Deletes the object at `location` (none there: nothing to do).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_deleteObject<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    location: JString<'l>,
) {
    call(&mut env, |env| Ok(transfer::delete(&string(env, &location)?)?))
}
