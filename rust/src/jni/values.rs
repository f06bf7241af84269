//! Java arrays and strings in and out.

use jni::Env;
use jni::objects::JBooleanArray;
use jni::objects::JByteArray;
use jni::objects::JByteBuffer;
use jni::objects::JDoubleArray;
use jni::objects::JFloatArray;
use jni::objects::JIntArray;
use jni::objects::JLongArray;
use jni::objects::JObject;
use jni::objects::JObjectArray;
use jni::objects::JShortArray;
use jni::objects::JString;
use jni::sys::jobject;

use super::JniResult;

/// A Java `long[]` holding `values`.
pub(crate) fn long_array<'l>(env: &mut Env<'l>, values: &[u64]) -> JniResult<JLongArray<'l>> {
    let a = JLongArray::new(env, values.len())?;
    // SAFETY-free reinterpretation: u64 and i64 have the same size; Java sees the same bits.
    let signed: Vec<i64> = values.iter().map(|&v| v as i64).collect();
    a.set_region(env, 0, &signed)?;
    Ok(a)
}

/// A Java `double[]` holding `values`.
pub(crate) fn double_array<'l>(env: &mut Env<'l>, values: &[f64]) -> JniResult<JDoubleArray<'l>> {
    let a = JDoubleArray::new(env, values.len())?;
    a.set_region(env, 0, values)?;
    Ok(a)
}

/// A Java `int[]` holding `values`.
pub(crate) fn int_array<'l>(env: &mut Env<'l>, values: &[i32]) -> JniResult<JIntArray<'l>> {
    let a = JIntArray::new(env, values.len())?;
    a.set_region(env, 0, values)?;
    Ok(a)
}

/// A Java `boolean[]` holding `values`.
pub(crate) fn bool_array<'l>(env: &mut Env<'l>, values: &[bool]) -> JniResult<JBooleanArray<'l>> {
    let a = JBooleanArray::new(env, values.len())?;
    a.set_region(env, 0, values)?;
    Ok(a)
}

/// A Java `String[]` (null elements for `None`).
pub(crate) fn string_array<'l>(env: &mut Env<'l>, values: &[Option<String>]) -> JniResult<JObjectArray<'l, JString<'l>>> {
    let a = JObjectArray::<JString>::new(env, values.len(), JString::null())?;
    for (i, v) in values.iter().enumerate() {
        if let Some(s) = v {
            let js = JString::from_str(env, s)?;
            a.set_element(env, i, &js)?;
        }
    }
    Ok(a)
}

/// A Java `Object[]` of the given elements.
pub(crate) fn object_array<'l>(env: &mut Env<'l>, elements: Vec<JObject<'l>>) -> JniResult<JObjectArray<'l>> {
    let a = JObjectArray::<JObject>::new(env, elements.len(), JObject::null())?;
    for (i, e) in elements.iter().enumerate() {
        a.set_element(env, i, e)?;
    }
    Ok(a)
}

/// A direct ByteBuffer over `bytes`, or null when empty.
///
/// # Safety
/// The memory must stay alive and unchanged for as long as Java can reach the buffer: callers
/// pass memory owned by a chunk, which Java frees only after every view over it is unusable.
pub(crate) unsafe fn byte_buffer<'l>(env: &mut Env<'l>, bytes: Option<&[u8]>) -> JniResult<JObject<'l>> {
    match bytes {
        Some(b) if !b.is_empty() => {
            let buffer: JByteBuffer<'l> = unsafe { env.new_direct_byte_buffer(b.as_ptr() as *mut u8, b.len())? };
            Ok(buffer.into())
        }
        _ => Ok(JObject::null()),
    }
}

/// The Rust string of a Java string.
pub(crate) fn string(env: &mut Env<'_>, s: &JString<'_>) -> JniResult<String> {
    Ok(s.try_to_string(env)?)
}

/// The strings of a Java `String[]`.
pub(crate) fn strings(env: &mut Env<'_>, a: &JObjectArray<'_>) -> JniResult<Vec<String>> {
    let n = a.len(env)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let e = a.get_element(env, i)?;
        let s = env.cast_local::<JString>(e)?;
        out.push(s.try_to_string(env)?);
    }
    Ok(out)
}

/// The elements of a Java `String[]`, `None` for null ones.
pub(crate) fn optional_strings(env: &mut Env<'_>, a: &JObjectArray<'_>) -> JniResult<Vec<Option<String>>> {
    let n = a.len(env)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let e = a.get_element(env, i)?;
        out.push(if e.is_null() { None } else { Some(env.cast_local::<JString>(e)?.try_to_string(env)?) });
    }
    Ok(out)
}

/// The bytes of a Java `byte[]`.
pub(crate) fn bytes(env: &mut Env<'_>, a: &JByteArray<'_>) -> JniResult<Vec<u8>> {
    Ok(env.convert_byte_array(a)?)
}

/// Element `i` of an `Object[]` (possibly null).
pub(crate) fn element<'l>(env: &mut Env<'l>, a: &JObjectArray<'_>, i: usize) -> JniResult<JObject<'l>> {
    Ok(a.get_element(env, i)?)
}

macro_rules! read_primitive {
    ($name:ident, $arr:ty, $t:ty) => {
        /// The contents of a Java primitive array held in a `JObject` (type-checked).
        pub(crate) fn $name(env: &mut Env<'_>, obj: JObject<'_>) -> JniResult<Vec<$t>> {
            let a = env.cast_local::<$arr>(obj)?;
            let n = a.len(env)?;
            let mut v = vec![<$t>::default(); n];
            a.get_region(env, 0, &mut v)?;
            Ok(v)
        }
    };
}

read_primitive!(read_bools, JBooleanArray, bool);
read_primitive!(read_i8s, JByteArray, i8);
read_primitive!(read_i16s, JShortArray, i16);
read_primitive!(read_i32s, JIntArray, i32);
read_primitive!(read_i64s, JLongArray, i64);
read_primitive!(read_f32s, JFloatArray, f32);
read_primitive!(read_f64s, JDoubleArray, f64);

/// The raw pointer form of a local reference, for returning from a native method.
pub(crate) fn raw<'l>(o: impl Into<JObject<'l>>) -> jobject {
    o.into().into_raw()
}
