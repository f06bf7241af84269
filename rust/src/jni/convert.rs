//! Getting data in and out: conversions (`io.vortex4j.reader.convert.ConvertNative`) and Arrow's
//! C Data Interface (`io.vortex4j.arrow.ArrowNative`), each entry glue over `crate::convert`.

use std::sync::Mutex;
use std::sync::MutexGuard;

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::objects::JLongArray;
use jni::objects::JObject;
use jni::objects::JObjectArray;
use jni::objects::JString;
use jni::sys::jboolean;
use jni::sys::jint;
use jni::sys::jlong;
use jni::sys::jobject;

use super::borrow;
use super::call;
use super::free;
use super::into_handle;
use super::values::*;
use crate::convert::ConvertOptions;
use crate::convert::Converter;
use crate::convert::export::ExportColumn;
use crate::convert::export::ExportFormat;
use crate::convert::export::Exporter;
use crate::convert::export::PartitionType;
use crate::convert::ffi;
use crate::error::Error;
use crate::io::file::OpenFile;
use crate::scan::chunk::Chunk;

type ConverterHandle = Mutex<Option<Converter>>;
type ExporterHandle = Mutex<Exporter>;
type ArrowWriterHandle = Mutex<ffi::ArrowFileWriter>;

/// The value behind a `Mutex` handle, locked for this call (Java may share a handle across
/// threads; the lock makes misuse safe rather than racy).
///
/// # Safety
/// As for [`borrow`] with `Mutex<T>`.
unsafe fn locked<'a, T>(handle: jlong, what: &'static str) -> super::JniResult<MutexGuard<'a, T>> {
    let value = unsafe { borrow::<Mutex<T>>(handle, what)? };
    Ok(value.lock().unwrap_or_else(|_| panic!("{what} lock poisoned")))
}

/// The body of a `free*` entry: drops the `T` behind `handle` (0 is ignored).
fn free_entry<T>(env: &mut EnvUnowned<'_>, handle: jlong) {
    call(env, |_| {
        unsafe { free::<T>(handle) };
        Ok(())
    })
}

fn column_index(column: jint) -> Result<usize, Error> {
    usize::try_from(column).map_err(|_| Error::Invalid(format!("negative column index {column}")))
}

// ---- conversion

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_openConverter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    inputs: JObjectArray<'l>,
    out: JString<'l>,
    options: JObjectArray<'l>,
) -> jlong {
    call(&mut env, |env| {
        let inputs = strings(env, &inputs)?;
        let out = string(env, &out)?;
        let options = ConvertOptions::parse(&strings(env, &options)?)?;
        Ok(into_handle(Mutex::new(Some(Converter::new(&inputs, &out, options)?))))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_stepConverter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    converter: jlong,
    batches: jint,
) -> jboolean {
    call(&mut env, |_| {
        let mut c = unsafe { locked::<Option<Converter>>(converter, "converter")? };
        let c = c.as_mut().ok_or_else(|| Error::Invalid("the conversion is finished".into()))?;
        Ok(c.step(batches.max(1) as usize)?)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_converterProgress<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    converter: jlong,
) -> jobject {
    call(&mut env, |env| {
        let c = unsafe { locked::<Option<Converter>>(converter, "converter")? };
        let p = c.as_ref().map(|c| c.progress()).unwrap_or_default();
        Ok(raw(long_array(env, &[p.rows, p.bytes_done, p.bytes_total, p.bad_rows])?))
    })
}

/// Returns `Object[]{long[]{rows, badRows}, String[] paths, long[] rows, long[] bytes}`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_finishConverter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    converter: jlong,
) -> jobject {
    call(&mut env, |env| {
        let c = unsafe { locked::<Option<Converter>>(converter, "converter")? }.take();
        let summary = c.ok_or_else(|| Error::Invalid("the conversion is finished".into()))?.finish()?;
        let paths: Vec<Option<String>> = summary.files.iter().map(|f| Some(f.path.display().to_string())).collect();
        let rows: Vec<u64> = summary.files.iter().map(|f| f.rows).collect();
        let bytes: Vec<u64> = summary.files.iter().map(|f| f.bytes).collect();
        let parts: Vec<JObject> = vec![
            long_array(env, &[summary.rows, summary.bad_rows])?.into(),
            string_array(env, &paths)?.into(),
            long_array(env, &rows)?.into(),
            long_array(env, &bytes)?.into(),
        ];
        Ok(raw(object_array(env, parts)?))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_freeConverter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    converter: jlong,
) {
    free_entry::<ConverterHandle>(&mut env, converter)
}

// ---- export

/// `partition_types[i]` is null for a column of `file`, else the type (`int64`, `date`, `utf8`) of
/// a partition column; with `nullable`, the file's columns are exported as nullable (the files of
/// a dataset may differ in nullability).
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_openExporter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    path: JString<'l>,
    format: JString<'l>,
    options: JObjectArray<'l>,
    file: jlong,
    columns: JObjectArray<'l>,
    partition_types: JObjectArray<'l>,
    nullable: jboolean,
) -> jlong {
    call(&mut env, |env| {
        let path = string(env, &path)?;
        let format = ExportFormat::parse(&string(env, &format)?, &strings(env, &options)?)?;
        let names = strings(env, &columns)?;
        let types = optional_strings(env, &partition_types)?;
        if types.len() != names.len() {
            return Err(Error::Invalid(format!("{} partition types for {} columns", types.len(), names.len())).into());
        }
        let file = unsafe { borrow::<OpenFile>(file, "file")? };
        let mut columns = Vec::with_capacity(names.len());
        for (name, t) in names.iter().zip(types) {
            columns.push(match t {
                Some(t) => ExportColumn::Partition(PartitionType::parse(&t)?),
                None => {
                    let dtype = file.column_dtype(name)?;
                    ExportColumn::Stored(if nullable { dtype.as_nullable() } else { dtype })
                }
            });
        }
        crate::convert::export::check_target(&path)?;
        Ok(into_handle(Mutex::new(Exporter::create_columns(&path, &format, &names, &columns)?)))
    })
}

/// Sets the partition columns' values (text, null for null) of the rows exported next.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_setPartitionValues<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    exporter: jlong,
    values: JObjectArray<'l>,
) {
    call(&mut env, |env| {
        let values = optional_strings(env, &values)?;
        Ok(unsafe { locked::<Exporter>(exporter, "exporter")? }.set_partition_values(values)?)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_exportChunk<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    exporter: jlong,
    chunk: jlong,
    selection: JLongArray<'l>,
) {
    call(&mut env, |env| {
        let selection = self::selection(env, selection)?;
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        let mut exporter = unsafe { locked::<Exporter>(exporter, "exporter")? };
        // The exported stored columns come first; filter-only columns may follow them.
        let n = exporter.stored_columns();
        let columns = chunk.data.columns.get(..n).ok_or_else(|| {
            Error::Invalid(format!("a chunk of {} columns for an export of {n}", chunk.data.columns.len()))
        })?;
        Ok(exporter.write(columns, chunk.len(), selection.as_deref())?)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_finishExporter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    exporter: jlong,
) -> jlong {
    call(&mut env, |_| Ok(unsafe { locked::<Exporter>(exporter, "exporter")? }.finish()? as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_convert_ConvertNative_freeExporter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    exporter: jlong,
) {
    free_entry::<ExporterHandle>(&mut env, exporter)
}

// ---- Arrow C Data Interface

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_isDictionary<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
) -> jboolean {
    call(&mut env, |_| {
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        Ok(ffi::is_dictionary(chunk, column_index(column)?)?)
    })
}

fn selection(env: &mut jni::Env<'_>, selection: JLongArray<'_>) -> super::JniResult<Option<Vec<u64>>> {
    if selection.is_null() {
        return Ok(None);
    }
    Ok(Some(read_i64s(env, selection.into())?.into_iter().map(|w| w as u64).collect()))
}

/// Writes the C schema (a struct) of `columns` of `file` as they are exported to `schema`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_exportSchema<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    file: jlong,
    columns: JObjectArray<'l>,
    schema: jlong,
) {
    call(&mut env, |env| {
        let columns = strings(env, &columns)?;
        let file = unsafe { borrow::<OpenFile>(file, "file")? };
        let dtypes = columns.iter().map(|c| file.column_dtype(c)).collect::<Result<Vec<_>, _>>()?;
        let exported = ffi::export_schema(&columns, &dtypes)?;
        unsafe { ffi::write_to(schema, exported)? };
        Ok(())
    })
}

/// Writes the selected rows of column `column` of `chunk` to the C array at `array`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_exportColumn<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
    rows: JLongArray<'l>,
    array: jlong,
) {
    call(&mut env, |env| {
        let rows = selection(env, rows)?;
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        let exported = ffi::export_plain(chunk, column_index(column)?, rows.as_deref())?;
        unsafe { ffi::write_to(array, exported)? };
        Ok(())
    })
}

/// Writes the codes of the selected rows to `array`; when the chunk's dictionary is not
/// `known_id`, also the dictionary to `dict_array`. Returns the dictionary's id.
#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_exportCodes<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    chunk: jlong,
    column: jint,
    rows: JLongArray<'l>,
    known_id: jlong,
    array: jlong,
    dict_array: jlong,
) -> jlong {
    call(&mut env, |env| {
        let rows = selection(env, rows)?;
        let chunk = unsafe { borrow::<Chunk>(chunk, "chunk")? };
        let exported = ffi::export_codes(chunk, column_index(column)?, known_id as u64, rows.as_deref())?;
        unsafe {
            ffi::write_to(array, exported.codes)?;
            if let Some(d) = exported.dictionary {
                ffi::write_to(dict_array, d)?;
            }
        }
        Ok(exported.dictionary_id as jlong)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_openWriter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    path: JString<'l>,
    schema: jlong,
) -> jlong {
    call(&mut env, |env| {
        let path = string(env, &path)?;
        let writer = unsafe { ffi::ArrowFileWriter::create_from_c(&path, schema)? };
        Ok(into_handle(Mutex::new(writer)))
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_writeBatch<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    writer: jlong,
    array: jlong,
    schema: jlong,
) {
    call(&mut env, |_| {
        let batch = unsafe { ffi::import_batch(array, schema)? };
        Ok(unsafe { locked::<ffi::ArrowFileWriter>(writer, "writer")? }.write(batch)?)
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_finishWriter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    writer: jlong,
) -> jlong {
    call(&mut env, |_| Ok(unsafe { locked::<ffi::ArrowFileWriter>(writer, "writer")? }.finish()? as jlong))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_arrow_ArrowNative_freeWriter<'l>(
    mut env: EnvUnowned<'l>,
    _: JClass<'l>,
    writer: jlong,
) {
    free_entry::<ArrowWriterHandle>(&mut env, writer)
}
