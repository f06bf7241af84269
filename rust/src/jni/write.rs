//! Writing: open a writer, append batches, finish, free.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JObject;
use jni::objects::JObjectArray;
use jni::objects::JString;
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
use crate::types::ChildType;
use crate::types::ColumnType;
use crate::write::ColumnData;
use crate::write::ColumnSpec;
use crate::write::FileWriter;

/// Java appends batches from one thread at a time; the mutex makes misuse safe.
type WriterHandle = std::sync::Mutex<FileWriter>;

/// Decodes the schema encoding of `Schema.toNative()`.
fn schema(env: &mut jni::Env<'_>, encoded: &JObjectArray<'_>) -> JniResult<Vec<ColumnSpec>> {
    Ok(schema_with_text(env, encoded)?.into_iter().map(|(c, _)| c).collect())
}

/// The columns of `Schema.toNative()`'s encoding, each with its type as Java writes it.
fn schema_with_text(env: &mut jni::Env<'_>, encoded: &JObjectArray<'_>) -> JniResult<Vec<(ColumnSpec, String)>> {
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
    let text = element(env, encoded, 6)?;
    let text = strings(env, &env.cast_local::<JObjectArray>(text)?)?;
    let nested_schemas = element(env, encoded, 7)?;
    let nested_schemas = env.cast_local::<JObjectArray>(nested_schemas)?;
    let n = names.len();
    if [codes.len(), nullable.len(), p1.len(), p2.len(), tz.len(env)?, text.len(), nested_schemas.len(env)?] != [n; 7] {
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
        // A struct's fields, a list's element: the nested schema's encoding.
        let mut children = Vec::new();
        if (19..=21).contains(&codes[i]) {
            let nested = element(env, &nested_schemas, i)?;
            if nested.is_null() {
                return Err(Error::Invalid("malformed schema encoding".into()).into());
            }
            let nested = env.cast_local::<JObjectArray>(nested)?;
            for (c, text) in schema_with_text(env, &nested)? {
                children.push(ChildType { name: c.name, ty: c.ty, nullable: c.nullable, dtype: text });
            }
        }
        let ty = ColumnType::from_java(codes[i], p1[i], p2[i], zone, children)
            .ok_or_else(|| Error::column(&names[i], format!("type code {} cannot be written", codes[i])))?;
        out.push((ColumnSpec { name: names[i].clone(), ty, nullable: nullable[i] }, text[i].clone()));
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

/// Reads a column of a batch (`v` its values, `o` its offsets) by the Java array type Batch uses
/// for its kind; a nested column's values are its children's `{values, offsets, validity}`.
fn column_data(env: &mut jni::Env<'_>, ty: &ColumnType, v: JObject<'_>, o: JObject<'_>) -> JniResult<ColumnData> {
    use vortex_array::dtype::PType::*;
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
            ColumnData::Bytes {
                data,
                offsets: read_i32s(env, o)?,
            }
        }
        ColumnType::Struct(_) | ColumnType::List(_) | ColumnType::FixedSizeList(..) => {
            let types: Vec<&ColumnType> = match ty {
                ColumnType::Struct(fields) => fields.iter().map(|f| &f.ty).collect(),
                ColumnType::List(e) | ColumnType::FixedSizeList(e, _) => vec![&e.ty],
                _ => unreachable!(),
            };
            let nodes = env.cast_local::<JObjectArray>(v)?;
            if nodes.len(env)? != types.len() {
                return Err(Error::Invalid("malformed nested column".into()).into());
            }
            let mut children = Vec::with_capacity(types.len());
            for (k, t) in types.into_iter().enumerate() {
                let node = element(env, &nodes, k)?;
                let node = env.cast_local::<JObjectArray>(node)?;
                let (cv, co, cvalid) = (element(env, &node, 0)?, element(env, &node, 1)?, element(env, &node, 2)?);
                let data = column_data(env, t, cv, co)?;
                let valid = if cvalid.is_null() { None } else { Some(read_bools(env, cvalid)?) };
                children.push((data, valid));
            }
            let offsets = if matches!(ty, ColumnType::List(_)) { Some(read_i32s(env, o)?) } else { None };
            ColumnData::Nested { children, offsets }
        }
        ColumnType::Unsupported => {
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
            let (v, o) = (element(env, &values, i)?, element(env, &offsets, i)?);
            data.push(column_data(env, &spec.ty, v, o)?);
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
