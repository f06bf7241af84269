//! Conversions checked against an independent reader: files go Parquet/CSV → Vortex (convert)
//! → Parquet/CSV (export), and arrow-rs's own Parquet and CSV readers compare the source with
//! the exported file value for value.

use std::fs::File;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use arrow::array::*;
use arrow::compute::concat_batches;
use arrow::datatypes::*;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use vortex4j::convert::ConvertOptions;
use vortex4j::convert::convert;
use vortex4j::convert::export::ExportFormat;
use vortex4j::convert::export::Exporter;
use vortex4j::convert::sink::RollingSink;
use vortex4j::convert::sink::Target;
use vortex4j::io::file::open;
use vortex4j::scan::Scan;
use vortex4j::write::Drive;
use vortex_array::dtype::DType as VxDType;
use vortex_array::dtype::Nullability;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vortex4j-convert-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

/// `n` pseudo-random numbers (xorshift) from `seed`, the same on every run.
fn random(n: usize, seed: u64) -> Vec<u64> {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

/// Every column type convert and export take, with nulls, non-ASCII and empty strings.
fn every_type(rows: usize, seed: u64) -> RecordBatch {
    let r = random(rows, seed);
    let null = |i: usize| r[i] % 7 == 0;
    let words = ["", "AAPL", "Zürich", "東京", "a,b", "line\nbreak", "quote\"d", "emoji 🎉"];
    let syms = ["AAPL", "MSFT", "IBM", "NVDA"];
    let schema = Arc::new(Schema::new(vec![
        Field::new("b", DataType::Boolean, true),
        Field::new("i8", DataType::Int8, true),
        Field::new("i16", DataType::Int16, true),
        Field::new("i32", DataType::Int32, false),
        Field::new("i64", DataType::Int64, true),
        Field::new("u8", DataType::UInt8, true),
        Field::new("u16", DataType::UInt16, true),
        Field::new("u32", DataType::UInt32, true),
        Field::new("u64", DataType::UInt64, true),
        Field::new("f32", DataType::Float32, true),
        Field::new("f64", DataType::Float64, true),
        Field::new("s", DataType::Utf8, true),
        Field::new("sym", DataType::Utf8, true),
        Field::new("bin", DataType::Binary, true),
        Field::new("dec", DataType::Decimal128(20, 4), true),
        Field::new("d", DataType::Date32, true),
        Field::new("t", DataType::Time64(TimeUnit::Microsecond), true),
        Field::new("ts", DataType::Timestamp(TimeUnit::Microsecond, None), true),
        Field::new("tz", DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())), true),
        Field::new("f16", DataType::Float16, true),
        Field::new("t_s", DataType::Time32(TimeUnit::Second), true),
        Field::new("t_ms", DataType::Time32(TimeUnit::Millisecond), true),
        Field::new("t_ns", DataType::Time64(TimeUnit::Nanosecond), true),
        Field::new("ts_s", DataType::Timestamp(TimeUnit::Second, None), true),
        Field::new("ts_ns", DataType::Timestamp(TimeUnit::Nanosecond, Some("+02:00".into())), true),
        Field::new("nothing", DataType::Null, true),
    ]));
    fn o<T>(null: bool, v: T) -> Option<T> {
        (!null).then_some(v)
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new((0..rows).map(|i| o(null(i), r[i] % 2 == 0)).collect::<BooleanArray>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i] as i8)).collect::<Int8Array>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i] as i16)).collect::<Int16Array>()),
        Arc::new((0..rows).map(|i| Some(r[i] as i32)).collect::<Int32Array>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i] as i64)).collect::<Int64Array>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i] as u8)).collect::<UInt8Array>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i] as u16)).collect::<UInt16Array>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i] as u32)).collect::<UInt32Array>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i])).collect::<UInt64Array>()),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] % 100_000) as f32 / 8.0)).collect::<Float32Array>()),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] % 10_000_000) as f64 / 1024.0 - 3000.0)).collect::<Float64Array>()),
        Arc::new((0..rows).map(|i| o(null(i), words[(r[i] >> 8) as usize % words.len()])).collect::<StringArray>()),
        Arc::new((0..rows).map(|i| o(null(i), syms[(r[i] >> 16) as usize % syms.len()])).collect::<StringArray>()),
        Arc::new((0..rows).map(|i| o(null(i), r[i].to_le_bytes()[..(r[i] % 9) as usize].to_vec())).collect::<BinaryArray>()),
        Arc::new(
            (0..rows)
                .map(|i| o(null(i), (r[i] as i64 as i128) % 10_i128.pow(19)))
                .collect::<Decimal128Array>()
                .with_precision_and_scale(20, 4)
                .unwrap(),
        ),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] % 40_000) as i32 - 10_000)).collect::<Date32Array>()),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] % 86_400_000_000) as i64)).collect::<Time64MicrosecondArray>()),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] >> 12) as i64 - (1 << 50))).collect::<TimestampMicrosecondArray>()),
        Arc::new(
            (0..rows)
                .map(|i| o(null(i), (r[i] >> 20) as i64))
                .collect::<TimestampMillisecondArray>()
                .with_timezone("UTC"),
        ),
        arrow::compute::cast(
            &(0..rows).map(|i| o(null(i), (r[i] % 4096) as f32 / 16.0)).collect::<Float32Array>(),
            &DataType::Float16,
        )
        .unwrap(),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] % 86_400) as i32)).collect::<Time32SecondArray>()),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] % 86_400_000) as i32)).collect::<Time32MillisecondArray>()),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] % 86_400_000_000_000) as i64)).collect::<Time64NanosecondArray>()),
        Arc::new((0..rows).map(|i| o(null(i), (r[i] >> 30) as i64 - (1 << 32))).collect::<TimestampSecondArray>()),
        Arc::new(
            (0..rows)
                .map(|i| o(null(i), (r[i] >> 2) as i64))
                .collect::<TimestampNanosecondArray>()
                .with_timezone("+02:00"),
        ),
        Arc::new(NullArray::new(rows)),
    ];
    RecordBatch::try_new(schema, columns).unwrap()
}

fn write_parquet(path: &Path, batches: &[RecordBatch], schema: SchemaRef) {
    let mut w = ArrowWriter::try_new(File::create(path).unwrap(), schema, None).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
}

fn read_parquet(path: &Path) -> RecordBatch {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(|b| b.unwrap()).collect();
    concat_batches(&schema, &batches).unwrap()
}

/// Exports every row (or the rows of `keep`) of a Vortex file with the exporter.
fn export(vortex: &Path, out: &Path, format: ExportFormat, keep: Option<&dyn Fn(u64) -> bool>) -> u64 {
    let file = open(&s(vortex)).unwrap();
    let columns: Vec<String> = file.columns().unwrap().into_iter().map(|c| c.name).collect();
    let dtypes: Vec<_> = columns.iter().map(|c| file.column_dtype(c).unwrap()).collect();
    let mut e = Exporter::create(&s(out), &format, &columns, &dtypes).unwrap();
    let mut scan = Scan::open(&file, &columns, None).unwrap();
    while let Some(chunk) = scan.next_chunk().unwrap() {
        let words = keep.map(|k| {
            let mut w = vec![0u64; chunk.len.div_ceil(64)];
            for i in 0..chunk.len {
                if k(chunk.first_row + i as u64) {
                    w[i / 64] |= 1 << (i % 64);
                }
            }
            w
        });
        e.write(&chunk.columns, chunk.len, words.as_deref()).unwrap();
    }
    e.finish().unwrap()
}

fn assert_same(expected: &RecordBatch, actual: &RecordBatch) {
    assert_eq!(expected.num_rows(), actual.num_rows(), "row counts");
    assert_eq!(expected.num_columns(), actual.num_columns(), "column counts");
    for (i, f) in expected.schema().fields().iter().enumerate() {
        assert_eq!(actual.schema().field(i).name(), f.name());
        assert_eq!(actual.column(i).data_type(), f.data_type(), "type of column {}", f.name());
        assert_eq!(actual.column(i).to_data(), expected.column(i).to_data(), "values of column {}", f.name());
    }
}

fn encoding_tree(vortex: &Path, column: &str) -> String {
    let file = open(&s(vortex)).unwrap();
    let mut scan = Scan::open(&file, &[column.to_string()], None).unwrap();
    let chunk = scan.next_chunk().unwrap().unwrap();
    chunk.columns[0].display_tree_encodings_only().to_string()
}

#[test]
fn parquet_round_trip_keeps_every_value_and_type() {
    let dir = temp_dir("pq");
    let batches = [every_type(5000, 1), every_type(3000, 2)];
    let source = dir.join("in.parquet");
    write_parquet(&source, &batches, batches[0].schema());
    let vortex = dir.join("out.vortex");
    let summary = convert(&[s(&source)], &s(&vortex), ConvertOptions::default()).unwrap();
    assert_eq!(summary.rows, 8000);
    assert_eq!(summary.files.len(), 1);
    assert_eq!(open(&s(&vortex)).unwrap().row_count(), 8000);
    // The default strategy dictionary-encodes the low-cardinality strings.
    assert!(encoding_tree(&vortex, "sym").contains("vortex.dict"), "{}", encoding_tree(&vortex, "sym"));

    let back = dir.join("back.parquet");
    assert_eq!(export(&vortex, &back, ExportFormat::Parquet, None), 8000);
    assert_same(&read_parquet(&source), &read_parquet(&back));

    // Selected rows only: every third row.
    let third = dir.join("third.parquet");
    let keep = |row: u64| row % 3 == 0;
    assert_eq!(export(&vortex, &third, ExportFormat::Parquet, Some(&keep)), 2667);
    let all = read_parquet(&source);
    let indices = UInt32Array::from((0..8000u32).filter(|r| r % 3 == 0).collect::<Vec<_>>());
    assert_same(&arrow::compute::take_record_batch(&all, &indices).unwrap(), &read_parquet(&third));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Parquet strings and binary are read as Arrow views (vortex's own layout): strings of up to 12
/// bytes sit in the view, longer ones are referenced in the page's or the dictionary page's buffer.
/// Every layout comes back value for value with its vortex dtype: long and short values, PLAIN and
/// dictionary pages, 64-bit offsets, an Arrow dictionary column, nulls and a required column, in
/// batches that cross pages and row groups.
#[test]
fn parquet_strings_and_binary_of_every_layout_keep_every_value() {
    let dir = temp_dir("pq-strings");
    let rows = 30_000;
    let r = random(rows, 11);
    let null = |i: usize| r[i] % 11 == 0;
    let o = |i: usize, v: String| (!null(i)).then_some(v);
    // 0 to 80 bytes, non-ASCII included: most longer than a view holds.
    let long = |i: usize| format!("{}-{}-Zürich-東京", r[i] % 1000, "x".repeat((r[i] >> 20) as usize % 60));
    let few: Vec<String> = (0..20).map(|k| format!("dictionary value number {k} {}", "é".repeat(k))).collect();
    let bytes = |i: usize| r[i].to_le_bytes().repeat(5)[..(r[i] % 40) as usize].to_vec();
    let schema = Arc::new(Schema::new(vec![
        Field::new("short", DataType::Utf8, true),
        Field::new("long", DataType::Utf8, true),
        Field::new("long_dict", DataType::Utf8, true),
        Field::new("large", DataType::LargeUtf8, true),
        Field::new("bin", DataType::Binary, true),
        Field::new("large_bin", DataType::LargeBinary, false),
        Field::new("dict", DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)), true),
        Field::new("required", DataType::Utf8, false),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new((0..rows).map(|i| o(i, format!("s{}", r[i] % 100_000_000))).collect::<StringArray>()),
        Arc::new((0..rows).map(|i| o(i, long(i))).collect::<StringArray>()),
        Arc::new((0..rows).map(|i| o(i, few[(r[i] >> 8) as usize % few.len()].clone())).collect::<StringArray>()),
        Arc::new((0..rows).map(|i| o(i, long(i).to_uppercase())).collect::<LargeStringArray>()),
        Arc::new((0..rows).map(|i| (!null(i)).then(|| bytes(i))).collect::<BinaryArray>()),
        Arc::new((0..rows).map(|i| Some(bytes(i))).collect::<LargeBinaryArray>()),
        Arc::new((0..rows).map(|i| (!null(i)).then(|| few[(r[i] >> 16) as usize % 5].as_str())).collect::<DictionaryArray<Int32Type>>()),
        Arc::new((0..rows).map(|i| Some(long(i))).collect::<StringArray>()),
    ];
    let batch = RecordBatch::try_new(Arc::clone(&schema), columns).unwrap();
    // Several row groups of many small pages; "long" in PLAIN pages, the others dictionary-encoded.
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(7_000))
        .set_write_batch_size(100)
        .set_data_page_row_count_limit(1_000)
        .set_column_dictionary_enabled(parquet::schema::types::ColumnPath::from("long"), false)
        .build();
    let source = dir.join("strings.parquet");
    let mut w = ArrowWriter::try_new(File::create(&source).unwrap(), Arc::clone(&schema), Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();

    let vortex = dir.join("strings.vortex");
    let opts = ConvertOptions { batch_rows: Some(4_099), ..ConvertOptions::default() };
    assert_eq!(convert(&[s(&source)], &s(&vortex), opts).unwrap().rows, rows as u64);
    let file = open(&s(&vortex)).unwrap();
    for f in schema.fields() {
        let nullability = if f.is_nullable() { Nullability::Nullable } else { Nullability::NonNullable };
        let expected = match f.name().as_str() {
            "bin" | "large_bin" => VxDType::Binary(nullability),
            _ => VxDType::Utf8(nullability),
        };
        assert_eq!(file.column_dtype(f.name()).unwrap(), expected, "dtype of column {}", f.name());
    }

    // Exported as Utf8 and Binary: the source cast to those, value for value.
    let back = dir.join("back.parquet");
    assert_eq!(export(&vortex, &back, ExportFormat::Parquet, None), rows as u64);
    let got = read_parquet(&back);
    for (i, f) in schema.fields().iter().enumerate() {
        let to = if f.name().contains("bin") { DataType::Binary } else { DataType::Utf8 };
        let expected = arrow::compute::cast(batch.column(i), &to).unwrap();
        assert_eq!(got.schema().field(i).name(), f.name());
        assert_eq!(got.column(i).data_type(), &to, "type of column {}", f.name());
        assert_eq!(got.column(i).to_data(), expected.to_data(), "values of column {}", f.name());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn empty_and_one_row_parquet_files() {
    let dir = temp_dir("pq-small");
    for rows in [0, 1] {
        let batch = every_type(rows, 7);
        let source = dir.join(format!("in{rows}.parquet"));
        write_parquet(&source, &[batch.clone()], batch.schema());
        let vortex = dir.join(format!("out{rows}.vortex"));
        assert_eq!(convert(&[s(&source)], &s(&vortex), ConvertOptions::default()).unwrap().rows, rows as u64);
        let back = dir.join(format!("back{rows}.parquet"));
        assert_eq!(export(&vortex, &back, ExportFormat::Parquet, None), rows as u64);
        assert_same(&read_parquet(&source), &read_parquet(&back));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arrow_ipc_file_and_stream_round_trip() {
    let dir = temp_dir("ipc");
    let batch = every_type(2000, 3);
    let file = dir.join("in.arrow");
    let mut w = arrow::ipc::writer::FileWriter::try_new(File::create(&file).unwrap(), &batch.schema()).unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    let stream = dir.join("in.arrows");
    let mut w = arrow::ipc::writer::StreamWriter::try_new(File::create(&stream).unwrap(), &batch.schema()).unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    for input in [file, stream] {
        let vortex = dir.join("out.vortex");
        convert(&[s(&input)], &s(&vortex), ConvertOptions::default()).unwrap();
        let back = dir.join("back.arrow");
        export(&vortex, &back, ExportFormat::Arrow, None);
        let reader = arrow::ipc::reader::FileReader::try_new(File::open(&back).unwrap(), None).unwrap();
        let schema = reader.schema();
        let batches: Vec<_> = reader.map(|b| b.unwrap()).collect();
        assert_same(&batch, &concat_batches(&schema, &batches).unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

const CSV_TYPES: &str = "b:bool,n:int64,x:float64,s:utf8,d:date,ts:timestamp(us)";

fn read_csv(path: &Path, schema: &str, null: &str) -> RecordBatch {
    let fields: Vec<Field> = vortex4j::convert::options::parse_schema(schema)
        .unwrap()
        .into_iter()
        .map(|(n, t)| Field::new(n, t, true))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let reader = arrow::csv::ReaderBuilder::new(Arc::clone(&schema))
        .with_header(true)
        .with_null_regex(regex::Regex::new(&format!("^{}$", regex::escape(null))).unwrap())
        .build(File::open(path).unwrap())
        .unwrap();
    let batches: Vec<_> = reader.map(|b| b.unwrap()).collect();
    concat_batches(&schema, &batches).unwrap()
}

#[test]
fn csv_round_trip_with_a_null_token_keeps_empty_strings_apart_from_nulls() {
    let dir = temp_dir("csv");
    let source = dir.join("in.csv");
    let mut text = String::from("b,n,x,s,d,ts\n");
    let strings = ["", "plain", "Zürich 東京", "a,b", "two\nlines", "say \"hi\"", "\\N"];
    for i in 0..3000 {
        let s = strings[i % strings.len()];
        let field = if s == "\\N" { s.to_string() } else { format!("\"{}\"", s.replace('"', "\"\"")) };
        let n = if i % 11 == 0 { "\\N".to_string() } else { format!("{}", (i as i64 - 1500) * 1_000_003) };
        text.push_str(&format!(
            "{},{},{},{},2024-{:02}-{:02},2024-01-01T{:02}:{:02}:{:02}.{:06}\n",
            i % 2 == 0,
            n,
            i as f64 / 7.0,
            field,
            i % 12 + 1,
            i % 28 + 1,
            i % 24,
            i % 60,
            (i * 7) % 60,
            i * 13 % 1_000_000
        ));
    }
    std::fs::write(&source, &text).unwrap();
    let vortex = dir.join("out.vortex");
    let opts = ConvertOptions::parse(&["null=\\N"]).unwrap();
    let summary = convert(&[s(&source)], &s(&vortex), opts).unwrap();
    assert_eq!(summary.rows, 3000);
    let back = dir.join("back.csv");
    let format = ExportFormat::parse("csv", &["null=\\N"]).unwrap();
    assert_eq!(export(&vortex, &back, format, None), 3000);
    let expected = read_csv(&source, CSV_TYPES, "\\N");
    assert_same(&expected, &read_csv(&back, CSV_TYPES, "\\N"));
    // Inference found the same types the explicit schema names.
    let file = open(&s(&vortex)).unwrap();
    let dtypes: Vec<String> = file.columns().unwrap().iter().map(|c| c.dtype.clone()).collect();
    assert_eq!(dtypes[0], "bool");
    assert_eq!(dtypes[1], "i64");
    assert_eq!(dtypes[2], "f64");
    assert_eq!(dtypes[3], "utf8");
    // Empty strings are values, \N are nulls.
    let s_col = expected.column(3).as_string::<i32>();
    assert!(s_col.iter().any(|v| v == Some("")));
    assert!(s_col.null_count() > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every type `--schema` names but those of `CSV_TYPES`, and one line of values for row `i`
/// (empty fields are nulls).
const CSV_MORE_TYPES: &str = "a:int8,h:int16,c:int32,b:uint8,w:uint16,v:uint32,u:uint64,f:float32,dec:decimal(12,3),\
ts_s:time(s),t:time(ms),t_us:time(us),t_ns:time(ns),s_ts:timestamp(s),ns_ts:timestamp(ns),tz:timestamp(ms, +00:00),s:utf8";

fn column_names(types: &str) -> Vec<String> {
    vortex4j::convert::options::parse_schema(types).unwrap().into_iter().map(|(n, _)| n).collect()
}

fn csv_more_types_line(i: i64) -> String {
    let null = |v: String| if i % 9 == 4 { String::new() } else { v };
    let values = [
        format!("{}", (i % 256) - 128),
        format!("{}", i * 97 - 30_000),
        format!("{}", i * 4_000_000 - 1_000_000_000),
        format!("{}", i % 256),
        format!("{}", i * 131 % 65536),
        format!("{}", u32::MAX as i64 - i * 7),
        format!("{}", u64::MAX - i as u64),
        format!("{}", i as f32 / 4.0),
        format!("{}.{:03}", i - 250, i % 1000),
        format!("{:02}:{:02}:{:02}", i % 24, i % 60, (i * 7) % 60),
        format!("{:02}:{:02}:{:02}.{:03}", i % 24, i % 60, (i * 7) % 60, i % 1000),
        format!("{:02}:{:02}:{:02}.{:06}", i % 24, i % 60, (i * 7) % 60, i * 999 % 1_000_000),
        format!("{:02}:{:02}:{:02}.{:09}", i % 24, i % 60, (i * 7) % 60, i * 999_999 % 1_000_000_000),
        format!("2024-02-{:02}T{:02}:00:{:02}", i % 28 + 1, i % 24, i % 60),
        format!("1999-12-31T23:59:{:02}.{:09}", i % 60, i * 7_777_777 % 1_000_000_000),
        format!("2024-03-{:02}T{:02}:00:00.{:03}Z", i % 28 + 1, i % 24, i % 1000),
        format!("text {i} Zürich"),
    ];
    values.into_iter().map(null).collect::<Vec<_>>().join(",")
}

#[test]
fn csv_round_trip_of_explicitly_typed_columns() {
    let dir = temp_dir("csv-typed");
    let names = column_names(CSV_MORE_TYPES);
    let mut text = format!("{}\n", names.join(","));
    for i in 0..500i64 {
        text.push_str(&csv_more_types_line(i));
        text.push('\n');
    }
    let source = dir.join("in.csv");
    std::fs::write(&source, &text).unwrap();
    let vortex = dir.join("out.vortex");
    let opts = ConvertOptions::parse(&[format!("schema={CSV_MORE_TYPES}")]).unwrap();
    assert_eq!(convert(&[s(&source)], &s(&vortex), opts).unwrap().rows, 500);
    let back = dir.join("back.csv");
    export(&vortex, &back, ExportFormat::Csv { header: true, delimiter: b',', null: String::new() }, None);
    let expected = read_csv(&source, CSV_MORE_TYPES, "");
    assert_eq!(expected.num_columns(), names.len());
    assert!(expected.columns().iter().all(|c| c.null_count() > 0 && c.null_count() < 500));
    assert_same(&expected, &read_csv(&back, CSV_MORE_TYPES, ""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn empty_and_one_row_csv_files() {
    let dir = temp_dir("csv-small");
    for (types, line) in [(CSV_TYPES, "true,-7,2.5,\"Zürich, 東京\",2024-02-29,2024-02-29T23:59:59.123456".to_string()), (CSV_MORE_TYPES, csv_more_types_line(3))] {
        let names = column_names(types);
        let header = format!("{}\n", names.join(","));
        for (rows, text) in [(0u64, header.clone()), (1, format!("{header}{line}\n"))] {
            let source = dir.join("in.csv");
            std::fs::write(&source, &text).unwrap();
            let vortex = dir.join("out.vortex");
            let _ = std::fs::remove_file(&vortex);
            let opts = ConvertOptions::parse(&[format!("schema={types}")]).unwrap();
            assert_eq!(convert(&[s(&source)], &s(&vortex), opts).unwrap().rows, rows);
            let back = dir.join("back.csv");
            assert_eq!(export(&vortex, &back, ExportFormat::parse("csv", &[] as &[&str]).unwrap(), None), rows);
            let expected = read_csv(&source, types, "");
            assert_eq!(expected.num_rows() as u64, rows);
            assert_same(&expected, &read_csv(&back, types, ""));
            // The exported header is the source's, also without rows.
            assert_eq!(std::fs::read_to_string(&back).unwrap().lines().next(), Some(header.trim_end()));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn convert_csv(dir: &Path, name: &str, text: &[u8], opts: &[&str]) -> vortex4j::error::Result<(PathBuf, u64, u64)> {
    let source = dir.join(format!("{name}.csv"));
    std::fs::write(&source, text).unwrap();
    let vortex = dir.join(format!("{name}.vortex"));
    let summary = convert(&[s(&source)], &s(&vortex), ConvertOptions::parse(opts)?)?;
    Ok((vortex, summary.rows, summary.bad_rows))
}

/// The values of one column of a converted file, through an exported CSV without header.
fn column_values(dir: &Path, vortex: &Path, column: usize) -> Vec<String> {
    let out = dir.join("values.csv");
    let _ = std::fs::remove_file(&out);
    export(vortex, &out, ExportFormat::parse("csv", &["header=false", "null=<null>"]).unwrap(), None);
    let width = open(&s(vortex)).unwrap().columns().unwrap().len();
    let fields: Vec<Field> = (0..width).map(|i| Field::new(format!("c{i}"), DataType::Utf8, true)).collect();
    let reader = arrow::csv::ReaderBuilder::new(Arc::new(Schema::new(fields)))
        .with_header(false)
        .with_null_regex(regex::Regex::new("^<null>$").unwrap())
        .build(File::open(&out).unwrap())
        .unwrap();
    let mut values = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        values.extend(batch.column(column).as_string::<i32>().iter().map(|v| v.unwrap_or("<null>").to_string()));
    }
    values
}

#[test]
fn csv_edge_cases() {
    let dir = temp_dir("csv-edge");
    // A UTF-8 BOM before the header; quoted delimiters and newlines.
    let (v, rows, _) = convert_csv(&dir, "bom", b"\xef\xbb\xbfid,text\n1,\"a,b\"\n2,\"x\ny\"\n3,plain\n", &[]).unwrap();
    assert_eq!(rows, 3);
    let file = open(&s(&v)).unwrap();
    assert_eq!(file.columns().unwrap()[0].name, "id", "the BOM is not part of the first column's name");
    assert_eq!(column_values(&dir, &v, 1), vec!["a,b", "x\ny", "plain"]);

    // A ragged record is an error naming the physical line (after a two-line field).
    let ragged = b"a,b\n1,\"x\ny\"\n2,z\n3\n4,w\n";
    let e = convert_csv(&dir, "ragged", ragged, &[]).unwrap_err().to_string();
    assert!(e.contains("ragged.csv") && e.contains("line 5") && e.contains("1 fields"), "{e}");
    // ... or skipped and counted.
    let (v, rows, bad) = convert_csv(&dir, "ragged-skip", ragged, &["skip-bad-rows=true"]).unwrap();
    assert_eq!((rows, bad), (3, 1));
    assert_eq!(column_values(&dir, &v, 0), vec!["1", "2", "4"]);

    // A number past the inferred type's range: an error naming line and column, with the fix.
    let mut big = String::from("id,v\n");
    for i in 0..50 {
        big.push_str(&format!("{i},{}\n", i * 1000));
    }
    big.push_str("50,99999999999999999999\n");
    let e = convert_csv(&dir, "overflow", big.as_bytes(), &["infer-rows=10"]).unwrap_err().to_string();
    assert!(e.contains("line 52") && e.contains("column 'v'") && e.contains("int64") && e.contains("--schema v:"), "{e}");
    // The explicit schema takes it.
    let (v, rows, _) = convert_csv(&dir, "overflow-ok", big.as_bytes(), &["infer-rows=10", "schema=v:decimal(20,0)"]).unwrap();
    assert_eq!(rows, 51);
    assert_eq!(column_values(&dir, &v, 1).last().unwrap(), "99999999999999999999");
    // Skipping counts it.
    let (_, rows, bad) = convert_csv(&dir, "overflow-skip", big.as_bytes(), &["infer-rows=10", "skip-bad-rows=true"]).unwrap();
    assert_eq!((rows, bad), (50, 1));

    // A 1 MB field.
    let field = "x".repeat(1 << 20);
    let (v, rows, _) = convert_csv(&dir, "wide", format!("k,big\n1,{field}\n2,\"{field}\"\n").as_bytes(), &[]).unwrap();
    assert_eq!(rows, 2);
    assert_eq!(column_values(&dir, &v, 1), vec![field.clone(), field]);

    // A header only: an empty file with the columns (as text).
    let (v, rows, _) = convert_csv(&dir, "empty", b"a,b\n", &[]).unwrap();
    assert_eq!(rows, 0);
    let cols = open(&s(&v)).unwrap().columns().unwrap();
    assert_eq!(cols.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), vec!["a", "b"]);
    // Nothing at all is an error.
    assert!(convert_csv(&dir, "nothing", b"", &[]).unwrap_err().to_string().contains("empty"));

    // Another dialect: semicolons, single quotes, backslash escapes, no header.
    let (v, rows, _) = convert_csv(&dir, "dialect", b"1;'it\\'s'\n2;'b;c'\n", &["delimiter=;", "quote='", "escape=\\", "header=false"]).unwrap();
    assert_eq!(rows, 2);
    assert_eq!(column_values(&dir, &v, 1), vec!["it's", "b;c"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn folders_of_files_and_hive_partitions() {
    let dir = temp_dir("layout");
    let mut text = String::from("day,sym,qty\n");
    let syms = ["AAPL", "a/b", ""];
    for i in 0..100 {
        let sym = if i % 10 == 9 { "\\N".to_string() } else { syms[i % 3].to_string() };
        text.push_str(&format!("2024-01-{:02},{},{}\n", i % 3 + 1, sym, i));
    }
    let source = dir.join("in.csv");
    std::fs::write(&source, &text).unwrap();

    // At most 30 rows per file.
    let out = dir.join("files");
    let summary = convert(&[s(&source)], &s(&out), ConvertOptions::parse(&["max-rows-per-file=30"]).unwrap()).unwrap();
    let rows: Vec<u64> = summary.files.iter().map(|f| f.rows).collect();
    assert_eq!(rows, vec![30, 30, 30, 10]);
    assert!(out.join("part-00003.vortex").is_file());
    // Converting into a folder that is not empty would mix two tables: refused.
    let e = convert(&[s(&source)], &s(&out), ConvertOptions::parse(&["max-rows-per-file=30"]).unwrap()).unwrap_err();
    assert!(e.to_string().contains("not empty"), "{e}");

    // Partitioned by a date and a string: Hive folders, the columns left out of the files.
    let out = dir.join("parts");
    let opts = ConvertOptions::parse(&["partition-by=day,sym", "null=\\N"]).unwrap();
    let summary = convert(&[s(&source)], &s(&out), opts).unwrap();
    assert_eq!(summary.rows, 100);
    let mut total = 0;
    for f in &summary.files {
        let rel = f.path.strip_prefix(&out).unwrap().to_string_lossy().into_owned();
        let parts: Vec<&str> = rel.split('/').collect();
        assert!(parts[0].starts_with("day=2024-01-0"), "{rel}");
        assert!(["sym=AAPL", "sym=a%2Fb", "sym=", "sym=__HIVE_DEFAULT_PARTITION__"].contains(&parts[1]), "{rel}");
        let file = open(&s(&f.path)).unwrap();
        assert_eq!(file.columns().unwrap().iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), vec!["qty"]);
        // Every row of the file belongs in its folder.
        let day: usize = parts[0][13..].parse().unwrap();
        for q in column_values(&dir, &f.path, 0) {
            let i: usize = q.parse().unwrap();
            assert_eq!(i % 3 + 1, day, "{rel} holds row {i}");
            let sym = if i % 10 == 9 { "sym=__HIVE_DEFAULT_PARTITION__" } else { ["sym=AAPL", "sym=a%2Fb", "sym="][i % 3] };
            assert_eq!(parts[1], sym, "{rel} holds row {i}");
            total += 1;
        }
    }
    assert_eq!(total, 100);
    // A conversion that fails removes the files it had finished.
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "a,b\n1,x\n2,y\n3,z\nnot a number,w\n").unwrap();
    // (One-row batches and files: three files are complete when the fourth record fails.)
    let flat = vec!["batch-rows=1", "max-rows-per-file=1", "schema=a:int64"];
    let parted = vec!["batch-rows=1", "max-rows-per-file=1", "schema=a:int64", "partition-by=b"];
    for (n, opts) in [flat, parted].into_iter().enumerate() {
        let out = dir.join(format!("failed-{n}"));
        let e = convert(&[s(&bad)], &s(&out), ConvertOptions::parse(&opts).unwrap()).unwrap_err();
        assert!(e.to_string().contains("line 5"), "{e}");
        let mut left = Vec::new();
        let mut stack = vec![out.clone()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                if entry.path().is_dir() {
                    stack.push(entry.path());
                } else {
                    left.push(entry.path());
                }
            }
        }
        assert!(left.is_empty(), "{left:?}");
    }
    // A float column is not a partition key.
    let e = convert(&[s(&source)], &s(&dir.join("bad")), ConvertOptions::parse(&["partition-by=qty", "schema=qty:float64"]).unwrap());
    assert!(e.unwrap_err().to_string().contains("cannot be a partition column"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn several_inputs_share_one_schema() {
    let dir = temp_dir("many");
    let a = every_type(100, 11);
    let b = every_type(50, 12);
    // The second file allows nulls in i32, the first does not: the output column is nullable.
    let nullable: Vec<Field> = b.schema().fields().iter().map(|f| f.as_ref().clone().with_nullable(true)).collect();
    let b = RecordBatch::try_new(Arc::new(Schema::new(nullable)), b.columns().to_vec()).unwrap();
    std::fs::create_dir_all(dir.join("in/sub")).unwrap();
    write_parquet(&dir.join("in/1.parquet"), &[a.clone()], a.schema());
    write_parquet(&dir.join("in/sub/2.parquet"), &[b.clone()], b.schema());
    std::fs::write(dir.join("in/_SUCCESS"), b"").unwrap();
    let vortex = dir.join("all.vortex");
    let summary = convert(&[s(&dir.join("in"))], &s(&vortex), ConvertOptions::default()).unwrap();
    assert_eq!(summary.rows, 150);
    let file = open(&s(&vortex)).unwrap();
    assert!(file.columns().unwrap()[3].nullable);
    let back = dir.join("back.parquet");
    export(&vortex, &back, ExportFormat::Parquet, None);
    let got = read_parquet(&back);
    let want = concat_batches(&b.schema(), &[RecordBatch::try_new(b.schema(), a.columns().to_vec()).unwrap(), b]).unwrap();
    assert_same(&want, &got);

    // A file with other columns is refused, naming it.
    let other = RecordBatch::try_new(
        Arc::new(Schema::new(vec![Field::new("z", DataType::Int32, false)])),
        vec![Arc::new(Int32Array::from(vec![1]))],
    )
    .unwrap();
    write_parquet(&dir.join("in/3.parquet"), &[other.clone()], other.schema());
    let e = convert(&[s(&dir.join("in"))], &s(&dir.join("x.vortex")), ConvertOptions::default()).unwrap_err();
    assert!(e.to_string().contains("3.parquet"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exported_partition_columns_carry_each_files_values() {
    let dir = temp_dir("export-parts");
    let batch = RecordBatch::try_new(
        Arc::new(Schema::new(vec![Field::new("q", DataType::Int32, false)])),
        vec![Arc::new(Int32Array::from((0..10).collect::<Vec<i32>>()))],
    )
    .unwrap();
    let source = dir.join("in.parquet");
    write_parquet(&source, &[batch.clone()], batch.schema());
    let vortex = dir.join("q.vortex");
    convert(&[s(&source)], &s(&vortex), ConvertOptions::default()).unwrap();

    // Columns: day (partition), q (stored), n (partition), region (partition).
    use vortex4j::convert::export::ExportColumn;
    use vortex4j::convert::export::PartitionType;
    let file = open(&s(&vortex)).unwrap();
    let names: Vec<String> = ["day", "q", "n", "region"].iter().map(|n| n.to_string()).collect();
    let columns = [
        ExportColumn::Partition(PartitionType::Date),
        ExportColumn::Stored(file.column_dtype("q").unwrap()),
        ExportColumn::Partition(PartitionType::Int64),
        ExportColumn::Partition(PartitionType::Utf8),
    ];
    let out = dir.join("out.parquet");
    let mut e = Exporter::create_columns(&s(&out), &ExportFormat::Parquet, &names, &columns).unwrap();
    // A value that is not of its column's type is refused, naming the column.
    let bad = e.set_partition_values(vec![Some("2024-01-01".into()), Some("x".into()), None]).unwrap_err();
    assert!(bad.to_string().contains("'n'") && bad.to_string().contains("int64"), "{bad}");
    let values = [
        vec![Some("2024-02-29".to_string()), Some("-3".to_string()), Some("Zürich".to_string())],
        vec![None, Some("9223372036854775807".to_string()), Some(String::new())],
    ];
    for v in &values {
        e.set_partition_values(v.clone()).unwrap();
        let mut scan = Scan::open(&file, &["q".to_string()], None).unwrap();
        while let Some(chunk) = scan.next_chunk().unwrap() {
            // Every other row.
            let words = vec![0x5555_5555_5555_5555u64 & ((1u64 << chunk.len) - 1)];
            e.write(&chunk.columns, chunk.len, Some(&words)).unwrap();
        }
    }
    assert_eq!(e.finish().unwrap(), 10);
    let got = read_parquet(&out);
    let expected = RecordBatch::try_new(
        Arc::new(Schema::new(vec![
            Field::new("day", DataType::Date32, true),
            Field::new("q", DataType::Int32, false),
            Field::new("n", DataType::Int64, true),
            Field::new("region", DataType::Utf8, true),
        ])),
        vec![
            Arc::new(Date32Array::from(vec![Some(19782); 5].into_iter().chain(vec![None; 5]).collect::<Vec<_>>())),
            Arc::new(Int32Array::from(vec![0, 2, 4, 6, 8, 0, 2, 4, 6, 8])),
            Arc::new(Int64Array::from([vec![-3; 5], vec![i64::MAX; 5]].concat())),
            Arc::new(StringArray::from([vec!["Zürich"; 5], vec![""; 5]].concat())),
        ],
    )
    .unwrap();
    assert_same(&expected, &got);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn csv_and_parquet_inputs_of_one_conversion() {
    // Parquet strings are read as views, CSV strings with offsets: the same column either way.
    let dir = temp_dir("mixed");
    let schema = Arc::new(Schema::new(vec![
        Field::new("k", DataType::Int64, true),
        Field::new("s", DataType::Utf8, true),
    ]));
    let pq = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![Arc::new(Int64Array::from(vec![1, 2, 3])), Arc::new(StringArray::from(vec![Some("Zürich"), None, Some("")]))],
    )
    .unwrap();
    write_parquet(&dir.join("a.parquet"), &[pq], Arc::clone(&schema));
    std::fs::write(dir.join("b.csv"), "k,s\n4,東京\n5,\"x,y\"\n").unwrap();
    for (order, partition) in [(["a.parquet", "b.csv"], None), (["b.csv", "a.parquet"], Some("partition-by=s"))] {
        let inputs: Vec<String> = order.iter().map(|f| s(&dir.join(f))).collect();
        let out = dir.join(if partition.is_some() { "parts" } else { "all.vortex" });
        let opts = ConvertOptions::parse(&partition.into_iter().collect::<Vec<_>>()).unwrap();
        let summary = convert(&inputs, &s(&out), opts).unwrap();
        assert_eq!(summary.rows, 5);
        if partition.is_none() {
            let back = dir.join("back.parquet");
            export(&out, &back, ExportFormat::Parquet, None);
            let got = read_parquet(&back);
            assert_eq!(got.column(0).as_primitive::<Int64Type>().values().to_vec(), vec![1, 2, 3, 4, 5]);
            let strings: Vec<Option<&str>> = got.column(1).as_string::<i32>().iter().collect();
            assert_eq!(strings, vec![Some("Zürich"), None, Some(""), Some("東京"), Some("x,y")]);
        } else {
            let mut folders: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
            folders.sort();
            assert_eq!(folders, vec!["s=", "s=Zürich", "s=__HIVE_DEFAULT_PARTITION__", "s=x,y", "s=東京"]);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The conversion's writer thread ([`Drive::Thread`]) writes what the pushing thread writes when
/// it drives the writer itself ([`Drive::Caller`], Java's `VortexWriter`): the same values, and
/// the same file byte for byte (vortex's default strategy is deterministic). A sink dropped
/// before its footer stops its thread and removes the file.
#[test]
fn the_writer_thread_writes_the_callers_file() {
    let dir = temp_dir("drive");
    let batches = [every_type(70_000, 3), every_type(9000, 4), every_type(1, 5)];
    let schema = batches[0].schema();
    let write = |name: &str, drive: Drive| {
        let path = dir.join(name);
        let mut sink = RollingSink::new(Target::File(path.clone()), Arc::clone(&schema), None, drive).unwrap();
        for b in &batches {
            sink.push(b).unwrap();
        }
        let files = sink.finish(true).unwrap();
        assert_eq!(files[0].rows, 79_001);
        path
    };
    let caller = write("caller.vortex", Drive::Caller);
    let thread = write("thread.vortex", Drive::Thread);
    assert!(std::fs::read(&caller).unwrap() == std::fs::read(&thread).unwrap(), "the two files differ");
    let source = dir.join("in.parquet");
    write_parquet(&source, &batches, Arc::clone(&schema));
    let back = dir.join("back.parquet");
    assert_eq!(export(&thread, &back, ExportFormat::Parquet, None), 79_001);
    assert_same(&read_parquet(&source), &read_parquet(&back));

    let abandoned = dir.join("abandoned.vortex");
    let mut sink = RollingSink::new(Target::File(abandoned.clone()), Arc::clone(&schema), None, Drive::Thread).unwrap();
    sink.push(&batches[0]).unwrap();
    drop(sink);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().starts_with("abandoned")), "{left:?}");
}

/// A file of several times the 8 MB after which the writer starts the kernel's write-back of what
/// it wrote (`write.rs`, `WrittenBack`) keeps every value: the started ranges end where the next
/// ones begin, whatever sizes the writer hands over.
#[test]
fn a_file_written_back_while_writing_keeps_every_value() {
    let dir = temp_dir("write_back");
    let rows = 1_200_000;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let schema = Arc::new(Schema::new(vec![Field::new("i", DataType::Int64, false), Field::new("f", DataType::Float64, true)]));
    let batches: Vec<RecordBatch> = (0..4)
        .map(|_| {
            let i: Int64Array = (0..rows / 4).map(|_| random() as i64).collect();
            let f: Float64Array = (0..rows / 4).map(|n| (n % 1000 != 0).then(|| random() as f64 / 3.0)).collect();
            RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(i), Arc::new(f)]).unwrap()
        })
        .collect();
    let source = dir.join("in.parquet");
    write_parquet(&source, &batches, Arc::clone(&schema));
    let out = dir.join("out.vortex");
    let summary = convert(&[s(&source)], &s(&out), ConvertOptions::default()).unwrap();
    assert!(summary.files[0].bytes > 16 << 20, "{} bytes: too small to be written back in several ranges", summary.files[0].bytes);
    assert_eq!(std::fs::metadata(&out).unwrap().len(), summary.files[0].bytes);
    let back = dir.join("back.parquet");
    assert_eq!(export(&out, &back, ExportFormat::Parquet, None), rows as u64);
    assert_same(&read_parquet(&source), &read_parquet(&back));
}
