//! CSV files as Arrow record batches, with arrow-csv: the dialect of [`CsvOptions`], types
//! inferred over a sample (then overridden by an explicit schema), malformed records reported by
//! file, line and column or skipped and counted.
//!
//! Batches are decoded by arrow-csv's [`Decoder`] straight from a window over the file. The
//! window keeps the raw bytes of the batch being decoded, so when arrow-csv rejects a batch (a
//! ragged record, a value that does not parse as its column's type, invalid UTF-8) the batch is
//! tokenized again record by record with csv-core (arrow-csv's own tokenizer, so records split
//! identically) to name the physical line and the column, and to skip bad records when asked.
//! Memory stays bounded by a batch's raw bytes, whatever the file size.

use std::fs::File;
use std::io::Read;
use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::compute::concat_batches;
use arrow::csv::reader::Decoder;
use arrow::csv::reader::Format as CsvFormat;
use arrow::csv::ReaderBuilder;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use regex::Regex;

use super::options::CsvOptions;
use super::source::Source;
use crate::error::Error;
use crate::error::Result;

const BOM: &[u8] = b"\xef\xbb\xbf";
/// Bytes read from the file at a time.
const READ_SIZE: usize = 1 << 20;
/// Raw bytes a batch should stay under: wide records get smaller batches, bounding memory.
const BATCH_BYTES: usize = 64 << 20;

/// The CSV dialect shared by inference, the fast decoder and the record tokenizer.
#[derive(Clone)]
struct Dialect {
    opts: CsvOptions,
    null: Option<Regex>,
}

impl Dialect {
    fn new(opts: &CsvOptions) -> Result<Self> {
        let null = match &opts.null {
            Some(token) => Some(
                Regex::new(&format!("^{}$", regex::escape(token)))
                    .map_err(|e| Error::Invalid(format!("null token '{token}': {e}")))?,
            ),
            None => None,
        };
        Ok(Dialect { opts: opts.clone(), null })
    }

    fn tokenizer(&self) -> csv_core::Reader {
        csv_core::ReaderBuilder::new()
            .delimiter(self.opts.delimiter)
            .quote(self.opts.quote)
            .escape(self.opts.escape)
            .build()
    }

    fn decoder(&self, schema: &SchemaRef, batch_rows: usize, projection: Option<Vec<usize>>) -> Decoder {
        let mut b = ReaderBuilder::new(Arc::clone(schema))
            .with_header(false)
            .with_delimiter(self.opts.delimiter)
            .with_quote(self.opts.quote)
            .with_batch_size(batch_rows);
        if let Some(e) = self.opts.escape {
            b = b.with_escape(e);
        }
        if let Some(n) = &self.null {
            b = b.with_null_regex(n.clone());
        }
        if let Some(p) = projection {
            b = b.with_projection(p);
        }
        b.build_decoder()
    }

    fn format(&self) -> CsvFormat {
        let mut f = CsvFormat::default()
            .with_header(false)
            .with_delimiter(self.opts.delimiter)
            .with_quote(self.opts.quote);
        if let Some(e) = self.opts.escape {
            f = f.with_escape(e);
        }
        if let Some(n) = &self.null {
            f = f.with_null_regex(n.clone());
        }
        f
    }
}

/// One record as csv-core splits it: its bytes in the window, its fields, its first line.
struct Record {
    /// Byte range in the window (from the source's `start`).
    end: usize,
    line: u64,
    fields: Vec<Vec<u8>>,
}

/// Reads the next record from `input` (whose end is the end of the file when `at_eof`).
/// `None` when `input` holds no complete record (more input is needed, or the file ended).
fn next_record(tok: &mut csv_core::Reader, input: &[u8], at_eof: bool) -> Option<Record> {
    let line = tok.line();
    let mut out = vec![0u8; 1024];
    let mut ends = vec![0usize; 64];
    let (mut nin, mut nout, mut nend) = (0, 0, 0);
    loop {
        let slice = if nin == input.len() && at_eof { &input[..0] } else { &input[nin..] };
        if slice.is_empty() && !at_eof {
            return None;
        }
        let (res, i, o, e) = tok.read_record(slice, &mut out[nout..], &mut ends[nend..]);
        nin += i;
        nout += o;
        nend += e;
        use csv_core::ReadRecordResult as R;
        match res {
            R::InputEmpty if at_eof => continue,
            R::InputEmpty => return None,
            R::OutputFull => out.resize(out.len() * 2, 0),
            R::OutputEndsFull => ends.resize(ends.len() * 2, 0),
            // At the end of the input csv-core may report a record of no bytes: there is none.
            R::Record if nin == 0 => return None,
            R::Record => {
                let mut fields = Vec::with_capacity(nend);
                let mut start = 0;
                for &end in &ends[..nend] {
                    fields.push(out[start..end].to_vec());
                    start = end;
                }
                return Some(Record { end: nin, line, fields });
            }
            R::End => return None,
        }
    }
}

/// A CSV file being read.
pub struct CsvSource {
    path: String,
    file: File,
    dialect: Dialect,
    schema: SchemaRef,
    /// Whether each column's type was inferred (for the hint in parse errors).
    inferred: Vec<bool>,
    batch_rows: usize,
    decoder: Decoder,
    /// File bytes; `buf[start..end]` is not yet decoded.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    /// Physical line (1-based) where the next record starts.
    line: u64,
    bytes_done: u64,
    bad_rows: u64,
}

impl CsvSource {
    /// Opens `path`. With `schema` (the first file's, for the other files of one conversion) the
    /// header must name the same columns; without, the schema is inferred from this file.
    pub fn open(path: &str, opts: &CsvOptions, schema: Option<SchemaRef>, batch_rows: usize) -> Result<Self> {
        let dialect = Dialect::new(opts)?;
        let file = File::open(path).map_err(|e| Error::file(path, format!("cannot open: {e}")))?;
        let mut s = CsvSource {
            path: path.to_string(),
            file,
            dialect: dialect.clone(),
            schema: Arc::new(Schema::empty()),
            inferred: Vec::new(),
            batch_rows,
            decoder: dialect.decoder(&Arc::new(Schema::empty()), 1, None),
            buf: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
            line: 1,
            bytes_done: 0,
            bad_rows: 0,
        };
        s.fill()?;
        if s.buf[s.start..s.end].starts_with(BOM) {
            s.start += BOM.len();
            s.bytes_done += BOM.len() as u64;
        }
        let header = s.read_header()?;
        let (schema, inferred) = match schema {
            Some(schema) => {
                s.check_header(&header, &schema)?;
                let n = schema.fields().len();
                (schema, vec![false; n])
            }
            None => s.infer(header)?,
        };
        s.decoder = dialect.decoder(&schema, batch_rows, None);
        s.schema = schema;
        s.inferred = inferred;
        Ok(s)
    }

    /// Reads more of the file into the window, keeping `buf[start..end]`. False at the end.
    fn fill(&mut self) -> Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() - self.end < READ_SIZE {
            self.buf.resize(self.end + READ_SIZE, 0);
        }
        let n = self
            .file
            .read(&mut self.buf[self.end..])
            .map_err(|e| Error::file(&self.path, format!("cannot read: {e}")))?;
        self.end += n;
        self.eof = n == 0;
        Ok(n > 0)
    }

    /// The next complete record from `start + offset` with a tokenizer, reading more as needed.
    fn record_at(&mut self, tok: &mut csv_core::Reader, offset: usize) -> Result<Option<Record>> {
        loop {
            // A record cut by the end of the window is read again whole after the next fill.
            let before = tok.clone();
            let window = &self.buf[self.start + offset..self.end];
            if let Some(r) = next_record(tok, window, self.eof) {
                return Ok(Some(r));
            }
            if self.eof {
                return Ok(None);
            }
            *tok = before;
            self.fill()?;
        }
    }

    /// The header record (or, without a header, the first record's width as column names).
    fn read_header(&mut self) -> Result<Vec<String>> {
        let mut tok = self.dialect.tokenizer();
        let Some(first) = self.record_at(&mut tok, 0)? else {
            if self.dialect.opts.header {
                return Err(Error::file(&self.path, "is empty: no header line"));
            }
            return Ok(Vec::new());
        };
        if !self.dialect.opts.header {
            return Ok((1..=first.fields.len()).map(|i| format!("column_{i}")).collect());
        }
        let names = first
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                String::from_utf8(f.clone())
                    .map_err(|_| Error::file(&self.path, format!("line 1, column {}: the header is not UTF-8", i + 1)))
            })
            .collect::<Result<Vec<_>>>()?;
        self.consume(first.end, tok.line());
        Ok(names)
    }

    fn consume(&mut self, bytes: usize, next_line: u64) {
        self.start += bytes;
        self.bytes_done += bytes as u64;
        self.line = next_line;
    }

    fn check_header(&self, header: &[String], schema: &Schema) -> Result<()> {
        let expected: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        if header.iter().map(String::as_str).ne(expected.iter().copied()) {
            return Err(Error::file(
                &self.path,
                format!("columns {:?} differ from the first file's {:?}", header, expected),
            ));
        }
        Ok(())
    }

    /// Types from arrow-csv's inference over the first `infer_rows` records, overridden by the
    /// explicit schema; a column with no value in the sample is text.
    fn infer(&mut self, header: Vec<String>) -> Result<(SchemaRef, Vec<bool>)> {
        let opts = self.dialect.opts.clone();
        for (name, _) in &opts.schema {
            if !header.contains(name) {
                return Err(Error::file(
                    &self.path,
                    format!("--schema names column '{name}', which the file does not have (columns: {})", header.join(", ")),
                ));
            }
        }
        let sample = self.sample(opts.infer_rows, header.len())?;
        let (inferred, _) = self
            .dialect
            .format()
            .infer_schema(&sample[..], Some(opts.infer_rows))
            .map_err(|e| Error::file(&self.path, format!("cannot infer the column types: {e}")))?;
        let mut was_inferred = Vec::new();
        let fields: Vec<Field> = header
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let given = opts.schema.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone());
                was_inferred.push(given.is_none());
                let ty = given.unwrap_or_else(|| match inferred.fields().get(i).map(|f| f.data_type()) {
                    Some(DataType::Null) | None => DataType::Utf8,
                    Some(t) => t.clone(),
                });
                Field::new(name, ty, true)
            })
            .collect();
        Ok((Arc::new(Schema::new(fields)), was_inferred))
    }

    /// The raw bytes of up to `rows` well-formed records (`width` fields of UTF-8) after the
    /// header, read ahead, not consumed. Malformed ones are left to the decoding to report.
    fn sample(&mut self, rows: usize, width: usize) -> Result<Vec<u8>> {
        let mut tok = self.dialect.tokenizer();
        let mut offset = 0;
        let mut sample = Vec::new();
        let mut taken = 0;
        while taken < rows {
            let Some(r) = self.record_at(&mut tok, offset)? else {
                break;
            };
            let raw = &self.buf[self.start + offset..self.start + offset + r.end];
            offset += r.end;
            if r.fields.len() == width && r.fields.iter().all(|f| std::str::from_utf8(f).is_ok()) {
                sample.extend_from_slice(raw);
                if !raw.ends_with(b"\n") {
                    sample.push(b'\n');
                }
                taken += 1;
            }
        }
        Ok(sample)
    }

    /// One batch through arrow-csv's decoder; `None` when it rejects something in it (the
    /// decoder is then unusable and the batch is decoded again, carefully).
    fn fast_batch(&mut self) -> Result<std::result::Result<Option<RecordBatch>, ()>> {
        let mut offset = 0;
        loop {
            if self.start + offset == self.end && !self.eof {
                // `fill` keeps the batch's bytes from `start`.
                self.fill()?;
                continue;
            }
            let input = &self.buf[self.start + offset..self.end];
            let at_end = input.is_empty();
            match self.decoder.decode(input) {
                Ok(n) => offset += n,
                Err(_) => return Ok(Err(())),
            }
            if self.decoder.capacity() == 0 || at_end {
                break;
            }
        }
        match self.decoder.flush() {
            Ok(batch) => {
                let raw = &self.buf[self.start..self.start + offset];
                let lines = raw.iter().filter(|&&b| b == b'\n').count() as u64;
                let next_line = self.line + lines;
                self.consume(offset, next_line);
                if let Some(b) = &batch {
                    let per_row = offset / b.num_rows().max(1);
                    if per_row * self.batch_rows > BATCH_BYTES && self.batch_rows > 1 {
                        self.batch_rows = (BATCH_BYTES / per_row.max(1)).max(1);
                        self.decoder = self.dialect.decoder(&self.schema, self.batch_rows, None);
                    }
                }
                Ok(Ok(batch))
            }
            Err(_) => Ok(Err(())),
        }
    }

    /// The batch from `start` again, record by record: ragged records and records with values
    /// arrow-csv rejects fail with their line and column, or are skipped and counted.
    fn careful_batch(&mut self) -> Result<Option<RecordBatch>> {
        let width = self.schema.fields().len();
        let mut tok = self.dialect.tokenizer();
        tok.set_line(self.line);
        let mut offset = 0;
        let mut good: Vec<RecordBatch> = Vec::new();
        let mut taken = 0;
        while taken < self.batch_rows {
            let Some(record) = self.record_at(&mut tok, offset)? else {
                break;
            };
            let raw_start = offset;
            offset += record.end;
            taken += 1;
            let problem = if record.fields.len() != width {
                Some(format!("has {} fields, the header has {width}", record.fields.len()))
            } else {
                let raw = self.buf[self.start + raw_start..self.start + offset].to_vec();
                match self.decode_one(&raw) {
                    Ok(batch) => {
                        good.push(batch);
                        None
                    }
                    Err(()) => Some(self.explain(&record, &raw)),
                }
            };
            if let Some(problem) = problem {
                if !self.dialect.opts.skip_bad_rows {
                    return Err(Error::file(&self.path, format!("line {}: {problem}", record.line)));
                }
                self.bad_rows += 1;
            }
        }
        let next_line = tok.line();
        self.consume(offset, next_line);
        self.decoder = self.dialect.decoder(&self.schema, self.batch_rows, None);
        if taken == 0 {
            return Ok(None);
        }
        concat_batches(&self.schema, &good)
            .map(Some)
            .map_err(|e| Error::file(&self.path, format!("cannot assemble a batch: {e}")))
    }

    /// One record's bytes through a fresh decoder.
    fn decode_one(&self, raw: &[u8]) -> std::result::Result<RecordBatch, ()> {
        decode_all(self.dialect.decoder(&self.schema, 1, None), raw)?.ok_or(())
    }

    /// Why arrow-csv rejects a record of the right width: the first column whose value it
    /// cannot take.
    fn explain(&self, record: &Record, raw: &[u8]) -> String {
        for (i, field) in self.schema.fields().iter().enumerate() {
            if decode_all(self.dialect.decoder(&self.schema, 1, Some(vec![i])), raw).is_ok() {
                continue;
            }
            let value = &record.fields[i];
            let Ok(text) = std::str::from_utf8(value) else {
                return format!("column '{}': the value is not valid UTF-8", field.name());
            };
            let hint = if self.inferred[i] {
                format!(
                    " (the type inferred from the first {} rows; set it with --schema {}:TYPE)",
                    self.dialect.opts.infer_rows,
                    field.name()
                )
            } else {
                String::new()
            };
            return format!("column '{}': '{}' is not a valid {}{hint}", field.name(), shorten(text), type_name(field.data_type()));
        }
        "arrow-csv rejects the record".to_string()
    }
}

/// `raw` (whole records) through `decoder`, the end of input included.
fn decode_all(mut decoder: Decoder, raw: &[u8]) -> std::result::Result<Option<RecordBatch>, ()> {
    let mut offset = 0;
    loop {
        let n = decoder.decode(&raw[offset..]).map_err(|_| ())?;
        if n == 0 {
            break;
        }
        offset += n;
    }
    decoder.flush().map_err(|_| ())
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(40).collect::<String>())
    }
}

/// The name `--schema` takes for a type.
pub fn type_name(t: &DataType) -> String {
    use arrow::datatypes::TimeUnit::*;
    let unit = |u: &arrow::datatypes::TimeUnit| match u {
        Second => "s",
        Millisecond => "ms",
        Microsecond => "us",
        Nanosecond => "ns",
    };
    match t {
        DataType::Boolean => "bool".into(),
        DataType::Int8 => "int8".into(),
        DataType::Int16 => "int16".into(),
        DataType::Int32 => "int32".into(),
        DataType::Int64 => "int64".into(),
        DataType::UInt8 => "uint8".into(),
        DataType::UInt16 => "uint16".into(),
        DataType::UInt32 => "uint32".into(),
        DataType::UInt64 => "uint64".into(),
        DataType::Float32 => "float32".into(),
        DataType::Float64 => "float64".into(),
        DataType::Utf8 => "utf8".into(),
        DataType::Date32 => "date".into(),
        DataType::Time32(u) | DataType::Time64(u) => format!("time({})", unit(u)),
        DataType::Timestamp(u, None) => format!("timestamp({})", unit(u)),
        DataType::Timestamp(u, Some(z)) => format!("timestamp({}, {z})", unit(u)),
        DataType::Decimal128(p, s) => format!("decimal({p}, {s})"),
        t => t.to_string(),
    }
}

impl Source for CsvSource {
    fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        loop {
            let batch = match self.fast_batch()? {
                Ok(b) => b,
                Err(()) => self.careful_batch()?,
            };
            match batch {
                // A batch of skipped records only: go on.
                Some(b) if b.num_rows() == 0 => continue,
                b => return Ok(b),
            }
        }
    }

    fn bytes_done(&self) -> u64 {
        self.bytes_done
    }

    fn bad_rows(&self) -> u64 {
        self.bad_rows
    }
}
