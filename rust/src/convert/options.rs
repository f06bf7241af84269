//! What `convert` is asked to do: the input formats, the CSV dialect, the output layout. Parsed
//! from `key=value` strings (what the JNI entry and the CLI pass) so every option has one name.

use std::path::Path;

use arrow::datatypes::DataType;
use arrow::datatypes::TimeUnit;

use crate::error::Error;
use crate::error::Result;

/// An input file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Parquet,
    Csv,
    /// Arrow IPC, file (`.arrow`, `.feather`) or stream (`.arrows`) format.
    Arrow,
}

impl Format {
    /// The format of `path` by its extension, if it is one `convert` reads.
    pub fn of(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "parquet" | "pq" => Some(Format::Parquet),
            "csv" | "tsv" | "txt" => Some(Format::Csv),
            "arrow" | "arrows" | "ipc" | "feather" => Some(Format::Arrow),
            _ => None,
        }
    }

    fn parse(s: &str) -> Result<Format> {
        match s {
            "parquet" => Ok(Format::Parquet),
            "csv" => Ok(Format::Csv),
            "arrow" | "ipc" => Ok(Format::Arrow),
            _ => Err(Error::Invalid(format!("unknown input format '{s}' (parquet, csv or arrow)"))),
        }
    }
}

/// The CSV dialect and how values are typed.
#[derive(Debug, Clone)]
pub struct CsvOptions {
    /// The first record names the columns (else they are `column_1`, `column_2`, ...).
    pub header: bool,
    pub delimiter: u8,
    pub quote: u8,
    /// An escape character inside quoted fields (by default a quote is escaped by doubling it).
    pub escape: Option<u8>,
    /// The text of a NULL field; `None`: an empty field is NULL.
    pub null: Option<String>,
    /// Records read to infer the column types.
    pub infer_rows: usize,
    /// Explicit types of some (or all) columns, overriding inference.
    pub schema: Vec<(String, DataType)>,
    /// Skip (and count) malformed records instead of failing.
    pub skip_bad_rows: bool,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            header: true,
            delimiter: b',',
            quote: b'"',
            escape: None,
            null: None,
            infer_rows: 10_000,
            schema: Vec::new(),
            skip_bad_rows: false,
        }
    }
}

/// Everything `convert` takes besides the input and output paths.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    /// Forces the input format (else by extension).
    pub format: Option<Format>,
    pub csv: CsvOptions,
    /// Start a new file after this many rows (output is a folder of files).
    pub max_rows_per_file: Option<u64>,
    /// Hive-style partition columns, outermost first (output is a folder of `key=value/` folders).
    pub partition_by: Vec<String>,
    /// Rows per batch read from the inputs.
    pub batch_rows: Option<usize>,
}

impl ConvertOptions {
    /// Parses `key=value` options: `format`, `header`, `delimiter`, `quote`, `escape`, `null`,
    /// `infer-rows`, `schema`, `skip-bad-rows`, `max-rows-per-file`, `partition-by`, `batch-rows`.
    pub fn parse<S: AsRef<str>>(options: &[S]) -> Result<Self> {
        let mut o = ConvertOptions::default();
        for option in options {
            let option = option.as_ref();
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| Error::Invalid(format!("option '{option}' is not key=value")))?;
            match key {
                "format" => o.format = Some(Format::parse(value)?),
                "header" => o.csv.header = boolean(key, value)?,
                "delimiter" => o.csv.delimiter = byte(key, value)?,
                "quote" => o.csv.quote = byte(key, value)?,
                "escape" => o.csv.escape = if value.is_empty() { None } else { Some(byte(key, value)?) },
                "null" => o.csv.null = Some(value.to_string()),
                "infer-rows" => o.csv.infer_rows = number(key, value)?,
                "schema" => o.csv.schema = parse_schema(value)?,
                "skip-bad-rows" => o.csv.skip_bad_rows = boolean(key, value)?,
                "max-rows-per-file" => {
                    let n: u64 = number(key, value)?;
                    if n == 0 {
                        return Err(Error::Invalid("max-rows-per-file must be at least 1".into()));
                    }
                    o.max_rows_per_file = Some(n);
                }
                "partition-by" => {
                    o.partition_by = value.split(',').map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect()
                }
                "batch-rows" => o.batch_rows = Some(number::<usize>(key, value)?.max(1)),
                _ => return Err(Error::Invalid(format!("unknown option '{key}'"))),
            }
        }
        Ok(o)
    }
}

fn boolean(key: &str, value: &str) -> Result<bool> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Error::Invalid(format!("{key} must be true or false, not '{value}'"))),
    }
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T> {
    value
        .parse()
        .map_err(|_| Error::Invalid(format!("{key} must be a non-negative integer, not '{value}'")))
}

/// One ASCII character; `\t` and `tab` name the tab.
fn byte(key: &str, value: &str) -> Result<u8> {
    match value {
        "\\t" | "tab" => return Ok(b'\t'),
        _ => {}
    }
    match value.as_bytes() {
        [b] if b.is_ascii() => Ok(*b),
        _ => Err(Error::Invalid(format!("{key} must be one ASCII character, not '{value}'"))),
    }
}

/// `name:type,name:type`; types as [`parse_type`] reads them. Names may not contain `:` or `,`.
pub fn parse_schema(text: &str) -> Result<Vec<(String, DataType)>> {
    let mut out = Vec::new();
    for part in split_top_level(text) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (name, ty) = part
            .split_once(':')
            .ok_or_else(|| Error::Invalid(format!("schema entry '{part}' is not name:type")))?;
        out.push((name.trim().to_string(), parse_type(ty.trim())?));
    }
    Ok(out)
}

/// Splits at commas outside parentheses (`decimal(10,2)` stays whole).
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A type name: `bool`, `int8`..`int64`, `uint8`..`uint64`, `float32`, `float64`, `utf8`
/// (`string`), `date`, `time(s|ms|us|ns)`, `timestamp(s|ms|us|ns[, zone])`, `decimal(p, s)`.
pub fn parse_type(name: &str) -> Result<DataType> {
    let lower = name.to_ascii_lowercase();
    let (base, args) = match lower.split_once('(') {
        Some((b, rest)) => (
            b.trim().to_string(),
            rest.strip_suffix(')')
                .ok_or_else(|| Error::Invalid(format!("type '{name}': missing ')'")))?
                .split(',')
                .map(|a| a.trim().to_string())
                .collect::<Vec<_>>(),
        ),
        None => (lower.trim().to_string(), Vec::new()),
    };
    let unit = |a: Option<&String>| -> Result<TimeUnit> {
        match a.map(String::as_str) {
            Some("s") => Ok(TimeUnit::Second),
            Some("ms") => Ok(TimeUnit::Millisecond),
            Some("us") | None => Ok(TimeUnit::Microsecond),
            Some("ns") => Ok(TimeUnit::Nanosecond),
            Some(u) => Err(Error::Invalid(format!("type '{name}': unknown unit '{u}' (s, ms, us, ns)"))),
        }
    };
    Ok(match base.as_str() {
        "bool" | "boolean" => DataType::Boolean,
        "int8" | "tinyint" => DataType::Int8,
        "int16" | "smallint" => DataType::Int16,
        "int32" | "int" | "integer" => DataType::Int32,
        "int64" | "bigint" => DataType::Int64,
        "uint8" => DataType::UInt8,
        "uint16" => DataType::UInt16,
        "uint32" => DataType::UInt32,
        "uint64" => DataType::UInt64,
        "float32" | "float" | "real" => DataType::Float32,
        "float64" | "double" => DataType::Float64,
        "utf8" | "string" | "varchar" | "text" => DataType::Utf8,
        "date" => DataType::Date32,
        "time" => match unit(args.first())? {
            u @ (TimeUnit::Second | TimeUnit::Millisecond) => DataType::Time32(u),
            u => DataType::Time64(u),
        },
        "timestamp" => {
            let tz = args.get(1).filter(|z| !z.is_empty()).map(|z| {
                // Zone names keep their case (Europe/Paris); take them from the original text.
                let start = name.to_ascii_lowercase().find(z.as_str()).unwrap_or(0);
                name[start..start + z.len()].into()
            });
            DataType::Timestamp(unit(args.first())?, tz)
        }
        "decimal" => {
            let p: u8 = args
                .first()
                .and_then(|a| a.parse().ok())
                .filter(|p| (1..=38).contains(p))
                .ok_or_else(|| Error::Invalid(format!("type '{name}': decimal(precision 1..38, scale)")))?;
            let s: i8 = args.get(1).map_or(Ok(0), |a| {
                a.parse().map_err(|_| Error::Invalid(format!("type '{name}': bad scale '{a}'")))
            })?;
            DataType::Decimal128(p, s)
        }
        _ => {
            return Err(Error::Invalid(format!(
                "unknown type '{name}' (bool, int8..int64, uint8..uint64, float32, float64, utf8, date, \
                 time(unit), timestamp(unit[, zone]), decimal(p, s))"
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_text_with_parameters() {
        let s = parse_schema("id:int64, price:decimal(10,2),ts:timestamp(ms, Europe/Paris),d:date").unwrap();
        assert_eq!(s[0], ("id".into(), DataType::Int64));
        assert_eq!(s[1], ("price".into(), DataType::Decimal128(10, 2)));
        assert_eq!(s[2], ("ts".into(), DataType::Timestamp(TimeUnit::Millisecond, Some("Europe/Paris".into()))));
        assert_eq!(s[3], ("d".into(), DataType::Date32));
        assert!(parse_schema("x:int65").is_err());
        assert!(parse_schema("x").is_err());
    }

    #[test]
    fn options_by_name() {
        let o = ConvertOptions::parse(&["delimiter=;", "null=NULL", "skip-bad-rows=true", "partition-by=a, b"]).unwrap();
        assert_eq!(o.csv.delimiter, b';');
        assert_eq!(o.csv.null.as_deref(), Some("NULL"));
        assert!(o.csv.skip_bad_rows);
        assert_eq!(o.partition_by, vec!["a", "b"]);
        assert!(ConvertOptions::parse(&["delimiter=ab"]).is_err());
        assert!(ConvertOptions::parse(&["colour=red"]).is_err());
        assert!(ConvertOptions::parse(&["max-rows-per-file=0"]).is_err());
    }
}
