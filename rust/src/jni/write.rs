//! Writing: open a writer, append batches, finish, free; and the reference-written fixture.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JObjectArray;
use jni::objects::JString;
use jni::sys::jboolean;
use jni::sys::jint;
use jni::sys::jlong;

use super::Failure;
use super::JniResult;
use super::borrow;
use super::call;
use super::free;
use super::into_handle;
use super::values::*;
use crate::error::Error;
use crate::fixture::write_dict_fixture;
use crate::types::ColumnType;
use crate::write::ColumnData;
use crate::write::ColumnSpec;
use crate::write::FileWriter;

/// Java appends batches from one thread at a time; the mutex makes misuse safe.
type WriterHandle = std::sync::Mutex<FileWriter>;

/// Decodes the schema encoding of `Schema.toNative()`.
fn schema(env: &mut jni::Env<'_>, encoded: &JObjectArray<'_>) -> JniResult<Vec<ColumnSpec>> {
    let names = element(env, encoded, 0)?;
    let names = strings(env, &env.cast_local::<JObjectArray>(names)?)?;
    let codes = element(env, encoded, 1)?;
    let codes = read_i32s(env, codes)?;
    let nullable = element(env, encoded, 2)?;
    let nullable = read_bools(env, nullable)?;
    let p1 = element(env, encoded, 3)?;
    let p1 = read_i32s(env, p1)?;
    let p2 = element(env, encoded, 4)?;
    let p2 = read_i32s(env, p2)?;
    let tz = element(env, encoded, 5)?;
    let tz = env.cast_local::<JObjectArray>(tz)?;
    let n = names.len();
    if [codes.len(), nullable.len(), p1.len(), p2.len(), tz.len(env)?] != [n; 5] {
        return Err(Error::Invalid("malformed schema encoding".into()).into());
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let zone = element(env, &tz, i)?;
        let zone = if zone.is_null() {
            None
        } else {
            let s = env.cast_local::<JString>(zone)?;
            Some(string(env, &s)?)
        };
        if (19..=21).contains(&codes[i]) {
            return Err(Error::column(&names[i], "writing struct and list columns is not supported yet").into());
        }
        let ty = ColumnType::from_java(codes[i], p1[i], p2[i], zone, Vec::new())
            .ok_or_else(|| Error::column(&names[i], format!("type code {} cannot be written", codes[i])))?;
        out.push(ColumnSpec {
            name: names[i].clone(),
            ty,
            nullable: nullable[i],
        });
    }
    Ok(out)
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_openWriter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    path: JString<'l>,
    encoded_schema: JObjectArray<'l>,
) -> jlong {
    call(&mut env, |env| {
        let path = string(env, &path)?;
        let columns = schema(env, &encoded_schema)?;
        Ok(into_handle(std::sync::Mutex::new(FileWriter::create(&path, columns)?)))
    })
}

/// Reads column `i` of a batch by the Java array type Batch uses for its kind.
fn column_data(
    env: &mut jni::Env<'_>,
    ty: &ColumnType,
    values: &JObjectArray<'_>,
    offsets: &JObjectArray<'_>,
    i: usize,
) -> JniResult<ColumnData> {
    use vortex_array::dtype::PType::*;
    let v = element(env, values, i)?;
    Ok(match ty {
        ColumnType::Null => ColumnData::Null,
        ColumnType::Bool => ColumnData::Bool(read_bools(env, v)?),
        ColumnType::Int(I8 | U8) | ColumnType::Decimal { .. } => ColumnData::I8(read_i8s(env, v)?),
        ColumnType::Int(I16 | U16) => ColumnData::I16(read_i16s(env, v)?),
        ColumnType::Int(I32 | U32) | ColumnType::Date => ColumnData::I32(read_i32s(env, v)?),
        ColumnType::Int(I64 | U64) | ColumnType::Time(_) | ColumnType::Timestamp(..) => {
            ColumnData::I64(read_i64s(env, v)?)
        }
        ColumnType::Int(F16 | F32) => ColumnData::F32(read_f32s(env, v)?),
        ColumnType::Int(F64) => ColumnData::F64(read_f64s(env, v)?),
        ColumnType::Utf8 | ColumnType::Binary => {
            let data = read_i8s(env, v)?.into_iter().map(|b| b as u8).collect();
            let o = element(env, offsets, i)?;
            ColumnData::Bytes {
                data,
                offsets: read_i32s(env, o)?,
            }
        }
        ColumnType::Struct(_) | ColumnType::List(_) | ColumnType::FixedSizeList(..) | ColumnType::Unsupported => {
            return Err(Failure::Lib(Error::Invalid("unsupported column".into())));
        }
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_writeBatch<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    writer: jlong,
    rows: jint,
    values: JObjectArray<'l>,
    offsets: JObjectArray<'l>,
    validity: JObjectArray<'l>,
) {
    call(&mut env, |env| {
        let writer = unsafe { borrow::<WriterHandle>(writer, "writer")? };
        let mut writer = writer.lock().expect("writer lock poisoned");
        let specs = writer.columns().to_vec();
        let mut data = Vec::with_capacity(specs.len());
        let mut valid = Vec::with_capacity(specs.len());
        for (i, spec) in specs.iter().enumerate() {
            data.push(column_data(env, &spec.ty, &values, &offsets, i)?);
            let v = element(env, &validity, i)?;
            valid.push(if v.is_null() { None } else { Some(read_bools(env, v)?) });
        }
        let rows = usize::try_from(rows).map_err(|_| Error::Invalid(format!("negative row count {rows}")))?;
        Ok(writer.push(rows, data, valid)?)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_finishWriter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    writer: jlong,
) -> jlong {
    call(&mut env, |_| {
        let writer = unsafe { borrow::<WriterHandle>(writer, "writer")? };
        Ok(writer.lock().expect("writer lock poisoned").finish()? as jlong)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_freeWriter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    writer: jlong,
) {
    call(&mut env, |_| {
        unsafe { free::<WriterHandle>(writer) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_writeDictFixture<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    path: JString<'l>,
    chunks: jint,
    rows_per_chunk: jint,
    seed: jlong,
    reference_strategy: jboolean,
) -> jni::sys::jobject {
    call(&mut env, |env| {
        let path = string(env, &path)?;
        let chunks = usize::try_from(chunks).map_err(|_| Error::Invalid("negative chunk count".into()))?;
        let rows = usize::try_from(rows_per_chunk).map_err(|_| Error::Invalid("negative row count".into()))?;
        let expected = write_dict_fixture(&path, chunks, rows, seed as u64, reference_strategy)?;
        Ok(raw(string_array(env, &expected)?))
    })
}
