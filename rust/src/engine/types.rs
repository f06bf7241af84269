//! The Arrow types the engine reads a table's columns as: Calcite's view of each column, so the
//! plan Calcite made (and isthmus typed) matches the table DataFusion scans.
//!
//! Strings and binaries stay views (vortex's canonical layout, no copy of their bytes). A
//! TIMESTAMP is Calcite's TIMESTAMP(0) for a seconds column and TIMESTAMP(3) otherwise, without a
//! zone (Calcite reads a zoned column as its UTC date-time): finer units are floored to
//! milliseconds, as Calcite floors them.

use std::sync::Arc;

use arrow::array::Array as _;
use arrow::array::ArrayRef;
use arrow::array::Int64Array;
use arrow::compute::cast;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::TimeUnit;
use vortex_array::dtype::DType;

use crate::convert::export::arrow_field;
use crate::error::Error;
use crate::error::Result;

/// The field column `name` of vortex type `dtype` is read as.
pub fn engine_field(name: &str, dtype: &DType) -> Result<Field> {
    let field = arrow_field(name, dtype)?;
    let t = match field.data_type() {
        DataType::Timestamp(stored, _) => DataType::Timestamp(read_unit(*stored), None),
        _ => return Ok(field),
    };
    Ok(field.with_data_type(t))
}

/// The unit a timestamp stored in `stored` is read in: seconds stay seconds (Calcite's
/// TIMESTAMP(0)), anything finer is floored to milliseconds (TIMESTAMP(3)).
pub fn read_unit(stored: TimeUnit) -> TimeUnit {
    if stored == TimeUnit::Second { TimeUnit::Second } else { TimeUnit::Millisecond }
}

/// Whether a column read as `field` is decoded first, then turned into its type by [`to_engine`].
pub fn converted(field: &Field) -> bool {
    matches!(field.data_type(), DataType::Timestamp(_, _))
}

/// `array`, a column as vortex-arrow decodes it, as `field`'s type ([`engine_field`]).
pub fn to_engine(array: ArrayRef, field: &Field) -> Result<ArrayRef> {
    let failed = |e: arrow::error::ArrowError| Error::column(field.name(), format!("cannot read as {}: {e}", field.data_type()));
    match (array.data_type(), field.data_type()) {
        (from, to) if from == to => Ok(array),
        (DataType::Timestamp(from, _), DataType::Timestamp(to, None)) => {
            let per = per_second(*from) / per_second(*to);
            let raw = cast(&array, &DataType::Int64).map_err(failed)?;
            let raw = if per > 1 {
                let values = raw.as_any().downcast_ref::<Int64Array>().expect("a cast to Int64 gives Int64");
                Arc::new(values.unary::<_, arrow::datatypes::Int64Type>(|v| v.div_euclid(per))) as ArrayRef
            } else {
                raw
            };
            cast(&raw, field.data_type()).map_err(failed)
        }
        (from, to) => Err(Error::column(field.name(), format!("decoded as {from}, not readable as {to}"))),
    }
}

/// Ticks of `unit` in one second.
pub fn per_second(unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Second => 1,
        TimeUnit::Millisecond => 1_000,
        TimeUnit::Microsecond => 1_000_000,
        TimeUnit::Nanosecond => 1_000_000_000,
    }
}

#[cfg(test)]
mod tests {
    use arrow::array::TimestampMicrosecondArray;
    use arrow::array::TimestampMillisecondArray;

    use super::*;

    #[test]
    fn finer_timestamps_are_floored_to_milliseconds_without_their_zone() {
        let micros = TimestampMicrosecondArray::from(vec![Some(1_500), Some(-1_500), None, Some(-1_000), Some(999)])
            .with_timezone("UTC");
        let field = Field::new("ts", DataType::Timestamp(TimeUnit::Millisecond, None), true);
        let read = to_engine(Arc::new(micros), &field).unwrap();
        let expected = TimestampMillisecondArray::from(vec![Some(1), Some(-2), None, Some(-1), Some(0)]);
        assert_eq!(read.as_ref(), &expected as &dyn arrow::array::Array);
    }
}
