//! A file's per-column statistics, as the writer stored them in the footer: null count, min, max
//! and sum of each top-level column over the whole file. Only exact values are given (the writer
//! truncates long strings' min/max, which makes them bounds, not values); anything else is
//! unknown. Values are text so that one shape crosses JNI for every type (see [`text`]).

use vortex_array::dtype::DType;
use vortex_array::expr::stats::Precision;
use vortex_array::expr::stats::Stat;
use vortex_array::scalar::DecimalValue;
use vortex_array::scalar::PValue;
use vortex_array::scalar::ScalarValue;
use vortex_array::stats::StatsSet;

use crate::io::file::OpenFile;

/// What the footer holds exactly about one column; `None` where it holds nothing exact.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ColumnStatistics {
    pub null_count: Option<u64>,
    pub min: Option<String>,
    pub max: Option<String>,
    /// The sum of the non-null values (integers and decimals exactly; floats as the writer added
    /// them: each zone's values in row order, then the zones' sums in order).
    pub sum: Option<String>,
}

/// The statistics of each top-level column, in schema order (all unknown when the file was
/// written without file statistics).
pub fn column_statistics(file: &OpenFile) -> Vec<ColumnStatistics> {
    let DType::Struct(fields, _) = file.file.dtype() else {
        unreachable!("checked at open");
    };
    match file.file.file_stats() {
        Some(stats) if stats.stats_sets().len() == fields.nfields() => {
            stats.into_iter().map(|(set, dtype)| of(set, dtype)).collect()
        }
        _ => vec![ColumnStatistics::default(); fields.nfields()],
    }
}

fn of(set: &StatsSet, dtype: &DType) -> ColumnStatistics {
    let exact = |stat| match set.get(stat) {
        Precision::Exact(v) => Some(v),
        _ => None,
    };
    // vortex's min/max and sum skip NaN: they are the column's only when it holds none.
    let floating = dtype.is_float();
    let ordered = !floating || exact(Stat::NaNCount).and_then(|v| count(&v)) == Some(0);
    let value = |stat| if ordered { exact(stat).and_then(|v| text(&v, dtype)) } else { None };
    // The sum's type is wider than the column's (i64 / u64 / f64, a wider decimal); a boolean's
    // is its count of true values, not a SQL SUM.
    let sum = match dtype {
        DType::Primitive(..) | DType::Decimal(..) if ordered => exact(Stat::Sum).and_then(|v| sum_text(&v)),
        _ => None,
    };
    ColumnStatistics {
        null_count: exact(Stat::NullCount).and_then(|v| count(&v)),
        min: value(Stat::Min),
        max: value(Stat::Max),
        sum,
    }
}

/// A sum as text, whatever width vortex summed into (see [`text`]).
fn sum_text(v: &ScalarValue) -> Option<String> {
    match v {
        ScalarValue::Primitive(p) => Some(primitive(p)),
        ScalarValue::Decimal(d) => unscaled(d),
        _ => None,
    }
}

fn count(v: &ScalarValue) -> Option<u64> {
    match v {
        ScalarValue::Primitive(p) => p.cast::<u64>().ok(),
        _ => None,
    }
}

/// A value as text: integers in decimal (dates, times and timestamps as their stored integer),
/// floats as Java's `Double.parseDouble` reads them, booleans `true`/`false`, strings as they
/// are, binary in lower-case hex, decimals as their unscaled integer. `None` for other types.
fn text(v: &ScalarValue, dtype: &DType) -> Option<String> {
    Some(match (v, dtype) {
        (ScalarValue::Bool(b), DType::Bool(_)) => b.to_string(),
        (ScalarValue::Primitive(p), DType::Primitive(..) | DType::Extension(_)) => primitive(p),
        (ScalarValue::Decimal(d), DType::Decimal(..)) => unscaled(d)?,
        (ScalarValue::Utf8(s), DType::Utf8(_)) => s.as_str().to_string(),
        (ScalarValue::Binary(b), DType::Binary(_)) => b.as_slice().iter().map(|x| format!("{x:02x}")).collect(),
        _ => return None,
    })
}

/// A decimal's unscaled integer (the scale is the column's).
fn unscaled(d: &DecimalValue) -> Option<String> {
    Some(match d {
        DecimalValue::I8(x) => x.to_string(),
        DecimalValue::I16(x) => x.to_string(),
        DecimalValue::I32(x) => x.to_string(),
        DecimalValue::I64(x) => x.to_string(),
        DecimalValue::I128(x) => x.to_string(),
        _ => return None,
    })
}

fn primitive(p: &PValue) -> String {
    let float = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 { "Infinity".to_string() } else { "-Infinity".to_string() }
        } else {
            format!("{x:?}") // shortest text that reads back as the same value
        }
    };
    match *p {
        PValue::U8(x) => x.to_string(),
        PValue::U16(x) => x.to_string(),
        PValue::U32(x) => x.to_string(),
        PValue::U64(x) => x.to_string(),
        PValue::I8(x) => x.to_string(),
        PValue::I16(x) => x.to_string(),
        PValue::I32(x) => x.to_string(),
        PValue::I64(x) => x.to_string(),
        PValue::F16(x) => float(x.to_f64()),
        PValue::F32(x) => {
            if x.is_infinite() { float(x as f64) } else { format!("{x:?}") }
        }
        PValue::F64(x) => float(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::file::open;
    use crate::types::ColumnType;
    use crate::write::ColumnData;
    use crate::write::ColumnSpec;
    use crate::write::FileWriter;
    use vortex_array::dtype::PType;

    fn bytes(values: &[&str]) -> ColumnData {
        let mut data = Vec::new();
        let mut offsets = vec![0];
        for v in values {
            data.extend_from_slice(v.as_bytes());
            offsets.push(data.len() as i32);
        }
        ColumnData::Bytes { data, offsets }
    }

    /// The writer's footer statistics, against values computed here from the rows written.
    #[test]
    fn statistics_of_each_column() {
        let path = std::env::temp_dir().join(format!("vortex4j-stats-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let specs = vec![
            ColumnSpec { name: "i".into(), ty: ColumnType::Int(PType::I64), nullable: true },
            ColumnSpec { name: "f".into(), ty: ColumnType::Int(PType::F64), nullable: false },
            ColumnSpec { name: "s".into(), ty: ColumnType::Utf8, nullable: true },
            ColumnSpec { name: "nan".into(), ty: ColumnType::Int(PType::F64), nullable: false },
        ];
        let long = "x".repeat(200);
        let mut w = FileWriter::create(&path, specs).unwrap();
        w.push(
            4,
            vec![
                ColumnData::I64(vec![7, -3, 0, 12]),
                ColumnData::F64(vec![0.5, -2.25, 1e300, 3.0]),
                bytes(&["b", "", "ä", "a"]),
                ColumnData::F64(vec![1.0, f64::NAN, 2.0, 3.0]),
            ],
            vec![Some(vec![true, true, false, true]), None, Some(vec![true, false, true, true]), None],
        )
        .unwrap();
        w.push(
            2,
            vec![ColumnData::I64(vec![5, 4]), ColumnData::F64(vec![0.0, 1.0]), bytes(&["c", &long]), ColumnData::F64(vec![4.0, 5.0])],
            vec![Some(vec![false, false]), None, None, None],
        )
        .unwrap();
        w.finish().unwrap();
        let stats = column_statistics(&open(&path).unwrap());
        let _ = std::fs::remove_file(&path);
        let some = |s: &str| Some(s.to_string());
        assert_eq!(stats[0], ColumnStatistics { null_count: Some(3), min: some("-3"), max: some("12"), sum: some("16") });
        let f_sum = [0.5, -2.25, 1e300, 3.0, 0.0, 1.0].iter().sum::<f64>();
        assert_eq!(stats[1], ColumnStatistics { null_count: Some(0), min: some("-2.25"), max: some("1e300"), sum: Some(format!("{f_sum:?}")) });
        assert_eq!(stats[2].null_count, Some(1));
        assert_eq!(stats[2].min, some("a"));
        // The 200-byte string is the max: the footer keeps a truncated bound, not the value.
        assert_ne!(stats[2].max, some("c"));
        assert!(stats[2].max.is_none() || stats[2].max == Some(long.clone()));
        // A NaN: min and max over the others would not be the column's.
        assert_eq!(stats[3].min, None);
        assert_eq!(stats[3].max, None);
        assert_eq!(stats[3].sum, None); // vortex's sum skips it; SQL's is NaN
        assert_eq!(stats[2].sum, None); // strings have none
    }
}
