//! Writing Vortex files with the reference writer's default strategy (statistics, dictionary
//! encoding of low-cardinality columns, compression), from columns Java hands over in Arrow's
//! physical layout.

use std::fs::File;
use std::io::BufWriter;
use std::io::Write;
use std::sync::Arc;
use std::sync::Mutex;
use std::thread::JoinHandle;

use arrow::array::ArrayRef as ArrowArrayRef;
use arrow::array::BinaryArray;
use arrow::array::BooleanArray;
use arrow::array::Date32Array;
use arrow::array::Decimal128Array;
use arrow::array::FixedSizeListArray as ArrowFixedSizeList;
use arrow::array::ListArray as ArrowList;
use arrow::array::NullArray;
use arrow::array::PrimitiveArray as ArrowPrimitive;
use arrow::array::StringArray;
use arrow::array::StructArray as ArrowStruct;
use arrow::array::Time32MillisecondArray;
use arrow::array::Time32SecondArray;
use arrow::array::Time64MicrosecondArray;
use arrow::array::Time64NanosecondArray;
use arrow::array::TimestampMicrosecondArray;
use arrow::array::TimestampMillisecondArray;
use arrow::array::TimestampNanosecondArray;
use arrow::array::TimestampSecondArray;
use arrow::buffer::Buffer;
use arrow::buffer::NullBuffer;
use arrow::buffer::OffsetBuffer;
use arrow::buffer::ScalarBuffer;
use arrow::datatypes::ArrowPrimitiveType;
use arrow::datatypes::Field;
use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::StructArray;
use vortex_array::dtype::DType;
use vortex_array::dtype::FieldNames;
use vortex_array::dtype::Nullability;
use vortex_array::dtype::PType;
use vortex_array::dtype::StructFields;
use vortex_array::validity::Validity;
use vortex_arrow::ArrowSessionExt;
use vortex_array::stream::ArrayStreamAdapter;
use vortex_error::VortexResult;
use vortex_error::vortex_err;
use vortex_file::BlockingWriter;
use vortex_file::WriteOptionsSessionExt;
use vortex_file::WriteSummary;
use vortex_io::IoBuf;
use vortex_io::VortexWrite;
use vortex_io::kanal_ext::KanalExt;
use vortex_io::runtime::BlockingRuntime;
use vortex_io::runtime::current::CurrentThreadRuntime;

use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::runtime::session::RUNTIME;
use crate::runtime::session::session;
use crate::types::ChildType;
use crate::types::ColumnType;
use crate::types::Unit;

/// One column of a batch, as Java sends it.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnData {
    Null,
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    /// Variable-length values: `rows + 1` offsets into `data`.
    Bytes { data: Vec<u8>, offsets: Vec<i32> },
    /// A struct's fields, or the one element column of a list or fixed-size list, each with its
    /// validity; a list's `rows + 1` offsets into its elements.
    Nested { children: Vec<(ColumnData, Option<Vec<bool>>)>, offsets: Option<Vec<i32>> },
}

/// A column of the file being written.
#[derive(Debug, Clone)]
pub struct ColumnSpec {
    pub name: String,
    pub ty: ColumnType,
    pub nullable: bool,
}

/// A `Write` the writer owns while we keep a handle to flush and sync it after the footer.
#[derive(Clone)]
struct SharedFile(Arc<Mutex<BufWriter<WrittenBack>>>);

/// Bytes handed to the kernel between two starts of their write-back to disk.
const WRITE_BACK_BYTES: u64 = 8 << 20;

/// The output file, starting the disk write of every 8 MB as soon as the kernel has them (Linux
/// `sync_file_range`, which does not wait for the disk), so the `fsync` after the footer waits
/// for the last few MB, not for the whole file the kernel would otherwise have kept dirty.
struct WrittenBack {
    file: File,
    /// Bytes written, and those whose write-back was started.
    written: u64,
    started: u64,
}

impl WrittenBack {
    fn new(file: File) -> Self {
        WrittenBack { file, written: 0, started: 0 }
    }

    fn start_write_back(&mut self) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // A hint only: a failure shows (if it matters) in the final fsync.
            // SAFETY: the descriptor is this open file's; the call reads no memory of ours.
            unsafe {
                libc::sync_file_range(
                    self.file.as_raw_fd(),
                    self.started as _,
                    (self.written - self.started) as _,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
            }
        }
        self.started = self.written;
    }
}

impl Write for WrittenBack {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.written - self.started >= WRITE_BACK_BYTES {
            self.start_write_back();
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Write for SharedFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("file lock poisoned").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().expect("file lock poisoned").flush()
    }
}

/// The file as vortex's async writer takes it: written inline, on the thread that drives the
/// writer (local disk writes of whole segments; vortex's blocking writer does the same).
impl VortexWrite for SharedFile {
    async fn write_all<B: IoBuf>(&mut self, buffer: B) -> std::io::Result<B> {
        Write::write_all(self, buffer.as_slice())?;
        Ok(buffer)
    }

    async fn flush(&mut self) -> std::io::Result<()> {
        Write::flush(self)
    }

    async fn shutdown(&mut self) -> std::io::Result<()> {
        Write::flush(self)
    }
}

/// Who drives a [`VortexFileSink`]'s writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drive {
    /// The thread that pushes: each push runs the writer until the chunk is taken (no thread of
    /// our own; Java's `VortexWriter`).
    Caller,
    /// A thread of the sink's own, which runs the writer from the first chunk to the footer and
    /// writes each segment as soon as it is ready, whatever the pushing thread is doing; pushes
    /// only hand chunks over (a conversion: its thread decodes the next batch meanwhile).
    Thread,
}

enum Driver {
    Caller(BlockingWriter<'static, 'static, CurrentThreadRuntime>),
    Thread {
        /// One chunk in flight, as vortex's own push-based writer has.
        chunks: kanal::Sender<VortexResult<ArrayRef>>,
        writer: JoinHandle<VortexResult<WriteSummary>>,
    },
}

/// A Vortex file being written from struct arrays of one dtype, with the reference writer's
/// default strategy. Dropped unfinished, it deletes the partial file.
pub struct VortexFileSink {
    path: String,
    file: SharedFile,
    writer: Option<Driver>,
    rows: u64,
    finished: bool,
}

impl VortexFileSink {
    /// Creates (or truncates) `path` for rows of the struct `dtype`, its writer driven by `drive`.
    pub fn create(path: &str, dtype: DType, drive: Drive) -> Result<Self> {
        let file = File::create(path).map_err(|e| Error::file(path, format!("cannot create: {e}")))?;
        let file = SharedFile(Arc::new(Mutex::new(BufWriter::with_capacity(1 << 20, WrittenBack::new(file)))));
        let writer = match drive {
            Drive::Caller => Driver::Caller(session().write_options().blocking(&*RUNTIME).writer(file.clone(), dtype)),
            Drive::Thread => {
                let (chunks, received) = kanal::bounded_async(1);
                let stream = ArrayStreamAdapter::new(dtype, received.into_stream());
                let out = file.clone();
                let writer = std::thread::Builder::new()
                    .name("vortex4j-write".into())
                    .spawn(move || RUNTIME.block_on(session().write_options().write(out, stream)))
                    .map_err(|e| Error::file(path, format!("cannot start a writer thread: {e}")))?;
                Driver::Thread { chunks: chunks.to_sync(), writer }
            }
        };
        Ok(VortexFileSink {
            path: path.to_string(),
            file,
            writer: Some(writer),
            rows: 0,
            finished: false,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Rows pushed so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Appends a struct array of the sink's dtype.
    pub fn push(&mut self, chunk: ArrayRef) -> Result<()> {
        let rows = chunk.len() as u64;
        match self.writer.as_mut() {
            None => return Err(Error::file(&self.path, "the writer is finished")),
            Some(Driver::Caller(writer)) => writer.push(chunk).context(|| format!("{}: write failed", self.path))?,
            Some(Driver::Thread { chunks, .. }) => {
                if chunks.send(Ok(chunk)).is_err() {
                    // The writer stopped taking chunks: it failed; its error says why.
                    let Some(Driver::Thread { writer, .. }) = self.writer.take() else {
                        unreachable!("matched above");
                    };
                    joined(writer).context(|| format!("{}: write failed", self.path))?;
                    return Err(Error::file(&self.path, "the writer stopped before the end of the input"));
                }
            }
        }
        self.rows += rows;
        Ok(())
    }

    /// Writes the footer and flushes the file to disk; returns the file size.
    pub fn finish(&mut self) -> Result<u64> {
        let writer = self.writer.take().ok_or_else(|| Error::file(&self.path, "the writer is finished"))?;
        let summary = match writer {
            Driver::Caller(writer) => writer.finish(),
            Driver::Thread { chunks, writer } => {
                // The closed channel ends the stream: the writer writes the footer and returns.
                drop(chunks);
                joined(writer)
            }
        }
        .context(|| format!("{}: cannot finish the file", self.path))?;
        let mut file = self.file.0.lock().expect("file lock poisoned");
        file.flush()
            .and_then(|_| file.get_ref().file.sync_all())
            .map_err(|e| Error::file(&self.path, format!("cannot flush: {e}")))?;
        self.finished = true;
        Ok(summary.size())
    }
}

/// The writer thread's result (a panic in it as an error, never across JNI).
fn joined(writer: JoinHandle<VortexResult<WriteSummary>>) -> VortexResult<WriteSummary> {
    writer.join().unwrap_or_else(|_| Err(vortex_err!("the writer thread panicked")))
}

impl Drop for VortexFileSink {
    fn drop(&mut self) {
        if !self.finished {
            if let Some(Driver::Thread { chunks, writer }) = self.writer.take() {
                // An error ends the writer's stream without a footer.
                let _ = chunks.try_send(Err(vortex_err!("the conversion was abandoned")));
                drop(chunks);
                let _ = writer.join();
            }
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// A file being written from the columns Java sends. Dropped unfinished, it deletes the partial
/// file.
pub struct FileWriter {
    path: String,
    columns: Vec<ColumnSpec>,
    fields: Vec<Field>,
    sink: VortexFileSink,
}

impl FileWriter {
    /// Creates (or truncates) `path` for a table of `columns`.
    pub fn create(path: &str, columns: Vec<ColumnSpec>) -> Result<Self> {
        if columns.is_empty() {
            return Err(Error::file(path, "a file needs at least one column"));
        }
        let arrow = session().arrow();
        let mut fields = Vec::new();
        let mut dtypes = Vec::new();
        for c in &columns {
            let t = c.ty.arrow_type().ok_or_else(|| {
                Error::column(&c.name, "has a type vortex4j cannot write")
            })?;
            let field = Field::new(&c.name, t, c.nullable);
            dtypes.push(
                arrow
                    .from_arrow_field(&field)
                    .context(|| format!("column '{}': no vortex dtype", c.name))?,
            );
            fields.push(field);
        }
        let names: FieldNames = columns.iter().map(|c| c.name.as_str()).collect();
        let dtype = DType::Struct(StructFields::new(names, dtypes), Nullability::NonNullable);
        Ok(FileWriter {
            path: path.to_string(),
            columns,
            fields,
            sink: VortexFileSink::create(path, dtype, Drive::Caller)?,
        })
    }

    /// The columns being written.
    pub fn columns(&self) -> &[ColumnSpec] {
        &self.columns
    }

    /// Appends `rows` rows; `validity[i]` marks the valid rows of column `i` (None: all valid).
    pub fn push(&mut self, rows: usize, data: Vec<ColumnData>, validity: Vec<Option<Vec<bool>>>) -> Result<()> {
        if data.len() != self.columns.len() || validity.len() != self.columns.len() {
            return Err(Error::Invalid(format!(
                "{}: a batch of {} columns for a file of {}",
                self.path,
                data.len(),
                self.columns.len()
            )));
        }
        let arrow = session().arrow();
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(data.len());
        for ((spec, field), (d, v)) in self.columns.iter().zip(&self.fields).zip(data.into_iter().zip(validity)) {
            let a = to_arrow(spec, rows, d, v)?;
            arrays.push(
                arrow
                    .from_arrow_array(a, field)
                    .context(|| format!("{}: column '{}'", self.path, spec.name))?,
            );
        }
        let names: FieldNames = self.columns.iter().map(|c| c.name.as_str()).collect();
        let chunk = StructArray::try_new(names, arrays, rows, Validity::NonNullable)
            .context(|| format!("{}: cannot assemble a batch", self.path))?;
        self.sink.push(chunk.into_array())
    }

    /// Writes the footer and flushes the file to disk; returns the file size.
    pub fn finish(&mut self) -> Result<u64> {
        self.sink.finish()
    }
}

fn nulls(validity: Option<Vec<bool>>) -> Option<NullBuffer> {
    validity.map(NullBuffer::from).filter(|n| n.null_count() > 0)
}

fn primitive<T: ArrowPrimitiveType>(values: Vec<T::Native>, nulls: Option<NullBuffer>) -> ArrowArrayRef {
    Arc::new(ArrowPrimitive::<T>::new(ScalarBuffer::from(values), nulls))
}

/// Reinterprets signed Java values as the unsigned values with the same bits.
fn bits_of<S: Copy, U>(v: Vec<S>, f: impl Fn(S) -> U) -> Vec<U> {
    v.into_iter().map(f).collect()
}

fn to_arrow(spec: &ColumnSpec, rows: usize, data: ColumnData, validity: Option<Vec<bool>>) -> Result<ArrowArrayRef> {
    use arrow::datatypes::*;
    let wrong = || Error::column(&spec.name, format!("data of the wrong kind for a {:?} column", spec.ty));
    let len_ok = |n: usize| {
        (n == rows)
            .then_some(())
            .ok_or_else(|| Error::column(&spec.name, format!("{n} values for {rows} rows")))
    };
    if let Some(v) = &validity {
        len_ok(v.len())?;
    }
    let n = nulls(validity);
    if n.is_some() && !spec.nullable {
        return Err(Error::column(&spec.name, "is not nullable but the batch has nulls"));
    }
    Ok(match (&spec.ty, data) {
        (ColumnType::Null, _) => Arc::new(NullArray::new(rows)),
        (ColumnType::Bool, ColumnData::Bool(v)) => {
            len_ok(v.len())?;
            Arc::new(BooleanArray::new(v.into(), n))
        }
        (ColumnType::Int(p), d) => {
            let count = match &d {
                ColumnData::I8(v) => v.len(),
                ColumnData::I16(v) => v.len(),
                ColumnData::I32(v) => v.len(),
                ColumnData::I64(v) => v.len(),
                ColumnData::F32(v) => v.len(),
                ColumnData::F64(v) => v.len(),
                _ => return Err(wrong()),
            };
            len_ok(count)?;
            match (p, d) {
                (PType::I8, ColumnData::I8(v)) => primitive::<Int8Type>(v, n),
                (PType::U8, ColumnData::I8(v)) => primitive::<UInt8Type>(bits_of(v, |x| x as u8), n),
                (PType::I16, ColumnData::I16(v)) => primitive::<Int16Type>(v, n),
                (PType::U16, ColumnData::I16(v)) => primitive::<UInt16Type>(bits_of(v, |x| x as u16), n),
                (PType::I32, ColumnData::I32(v)) => primitive::<Int32Type>(v, n),
                (PType::U32, ColumnData::I32(v)) => primitive::<UInt32Type>(bits_of(v, |x| x as u32), n),
                (PType::I64, ColumnData::I64(v)) => primitive::<Int64Type>(v, n),
                (PType::U64, ColumnData::I64(v)) => primitive::<UInt64Type>(bits_of(v, |x| x as u64), n),
                (PType::F16, ColumnData::F32(v)) => {
                    primitive::<Float16Type>(bits_of(v, <Float16Type as ArrowPrimitiveType>::Native::from_f32), n)
                }
                (PType::F32, ColumnData::F32(v)) => primitive::<Float32Type>(v, n),
                (PType::F64, ColumnData::F64(v)) => primitive::<Float64Type>(v, n),
                _ => return Err(wrong()),
            }
        }
        (ColumnType::Utf8 | ColumnType::Binary, ColumnData::Bytes { data, offsets }) => {
            len_ok(offsets.len().saturating_sub(1))?;
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            let data = Buffer::from_vec(data);
            if spec.ty == ColumnType::Utf8 {
                Arc::new(StringArray::try_new(offsets, data, n).map_err(|e| Error::column(&spec.name, e.to_string()))?)
            } else {
                Arc::new(BinaryArray::try_new(offsets, data, n).map_err(|e| Error::column(&spec.name, e.to_string()))?)
            }
        }
        (ColumnType::Decimal { precision, scale }, ColumnData::I8(bytes)) => {
            len_ok(bytes.len() / 16)?;
            let values: Vec<i128> = bytes
                .chunks_exact(16)
                .map(|c| i128::from_le_bytes(std::array::from_fn(|i| c[i] as u8)))
                .collect();
            let a = Decimal128Array::new(ScalarBuffer::from(values), n)
                .with_precision_and_scale(*precision, *scale)
                .map_err(|e| Error::column(&spec.name, e.to_string()))?;
            Arc::new(a)
        }
        (ColumnType::Date, ColumnData::I32(v)) => {
            len_ok(v.len())?;
            Arc::new(Date32Array::new(ScalarBuffer::from(v), n))
        }
        (ColumnType::Time(u), ColumnData::I64(v)) => {
            len_ok(v.len())?;
            let narrow = || -> Result<Vec<i32>> {
                v.iter()
                    .map(|&x| i32::try_from(x).map_err(|_| Error::column(&spec.name, format!("time {x} out of range"))))
                    .collect()
            };
            match u {
                Unit::Seconds => Arc::new(Time32SecondArray::new(ScalarBuffer::from(narrow()?), n)),
                Unit::Millis => Arc::new(Time32MillisecondArray::new(ScalarBuffer::from(narrow()?), n)),
                Unit::Micros => Arc::new(Time64MicrosecondArray::new(ScalarBuffer::from(v), n)),
                Unit::Nanos => Arc::new(Time64NanosecondArray::new(ScalarBuffer::from(v), n)),
            }
        }
        (ColumnType::Timestamp(u, tz), ColumnData::I64(v)) => {
            len_ok(v.len())?;
            let tz = tz.clone();
            match u {
                Unit::Seconds => Arc::new(TimestampSecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
                Unit::Millis => Arc::new(TimestampMillisecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
                Unit::Micros => Arc::new(TimestampMicrosecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
                Unit::Nanos => Arc::new(TimestampNanosecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
            }
        }
        (ColumnType::Struct(fields), ColumnData::Nested { children, offsets: None }) if children.len() == fields.len() => {
            let mut arrays = Vec::with_capacity(children.len());
            for (f, (d, v)) in fields.iter().zip(children) {
                arrays.push(to_arrow(&child_spec(spec, f), rows, d, v)?);
            }
            let fields = fields.iter().map(|f| arrow_field(spec, f)).collect::<Result<Vec<_>>>()?;
            Arc::new(ArrowStruct::try_new(fields.into(), arrays, n).map_err(|e| Error::column(&spec.name, e.to_string()))?)
        }
        (ColumnType::List(e), ColumnData::Nested { mut children, offsets: Some(offsets) }) if children.len() == 1 => {
            len_ok(offsets.len().saturating_sub(1))?;
            if offsets.first() != Some(&0) || offsets.windows(2).any(|w| w[0] > w[1]) {
                return Err(Error::column(&spec.name, "list offsets must start at 0 and never decrease"));
            }
            let (d, v) = children.pop().expect("one child");
            let elements = to_arrow(&child_spec(spec, e), offsets[offsets.len() - 1] as usize, d, v)?;
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            Arc::new(
                ArrowList::try_new(Arc::new(arrow_field(spec, e)?), offsets, elements, n)
                    .map_err(|e| Error::column(&spec.name, e.to_string()))?,
            )
        }
        (ColumnType::FixedSizeList(e, size), ColumnData::Nested { mut children, offsets: None }) if children.len() == 1 => {
            let (d, v) = children.pop().expect("one child");
            let elements = to_arrow(&child_spec(spec, e), rows * *size as usize, d, v)?;
            Arc::new(
                ArrowFixedSizeList::try_new(Arc::new(arrow_field(spec, e)?), *size as i32, elements, n)
                    .map_err(|e| Error::column(&spec.name, e.to_string()))?,
            )
        }
        _ => return Err(wrong()),
    })
}

/// A struct field or list element of `parent` as a column of its own. Nulls are let through
/// here: Arrow's nested constructors reject those of a non-nullable child that its parent's
/// nulls do not cover.
fn child_spec(parent: &ColumnSpec, child: &ChildType) -> ColumnSpec {
    ColumnSpec { name: format!("{}.{}", parent.name, child.name), ty: child.ty.clone(), nullable: true }
}

fn arrow_field(parent: &ColumnSpec, child: &ChildType) -> Result<Field> {
    child
        .arrow_field()
        .ok_or_else(|| Error::column(&format!("{}.{}", parent.name, child.name), "has a type vortex4j cannot write"))
}
