//! The folds: SUM, MIN and MAX of a decoded column per group.

use vortex_array::dtype::PType;
use vortex_array::match_each_integer_ptype;
use vortex_error::VortexResult;
use vortex_error::vortex_bail;

use super::Func;
use super::Partial;
use super::Values;
use super::columns::Decoded;
use super::groups::Groups;

/// SUM / MIN / MAX of an integer column per group (sums exact in i128, checked into i64).
pub(super) fn ints(func: Func, column: &Decoded, rows: &[u32], g: &Groups) -> VortexResult<Partial> {
    let mut count = vec![0i64; g.count];
    let mut acc: Vec<i128> = vec![
        match func {
            Func::Min => i128::MAX,
            Func::Max => i128::MIN,
            _ => 0,
        };
        g.count
    ];
    fn fold<P: Copy + Into<i128>>(
        v: &[P],
        column: &Decoded,
        rows: &[u32],
        g: &Groups,
        count: &mut [i64],
        acc: &mut [i128],
        step: impl Fn(i128, i128) -> i128,
    ) {
        for (i, (&r, &gid)) in rows.iter().zip(&g.gids).enumerate() {
            let (at, gid) = (column.at(i, r), gid as usize);
            if !column.is_valid(at) {
                continue;
            }
            count[gid] += 1;
            acc[gid] = step(acc[gid], v[at].into());
        }
    }
    let values = &column.values;
    match_each_integer_ptype!(values.ptype(), |P| {
        let v = values.as_slice::<P>();
        match func {
            Func::Min => fold(v, column, rows, g, &mut count, &mut acc, |a, x| a.min(x)),
            Func::Max => fold(v, column, rows, g, &mut count, &mut acc, |a, x| a.max(x)),
            _ => fold(v, column, rows, g, &mut count, &mut acc, |a, x| a + x),
        }
    });
    let value = acc
        .into_iter()
        .zip(&count)
        .map(|(a, &n)| if n == 0 { Ok(0) } else { i64::try_from(a).map_err(|_| ()) })
        .collect::<Result<Vec<i64>, ()>>();
    match value {
        Ok(value) => Ok(Partial { count, value: Values::Int(value) }),
        Err(()) => vortex_bail!("SUM of column of {} overflows a 64-bit integer", values.dtype()),
    }
}

/// SUM / MIN / MAX of a float column (f32 widened exactly) per group. SUM (one group, see
/// [`super::supported`]) adds each selected non-null value to `start` in row order, as Java's `+=` does;
/// MIN/MAX keep the first of equal values in Java's `Double.compare` order.
pub(super) fn floats(func: Func, column: &Decoded, start: f64, rows: &[u32], g: &Groups) -> VortexResult<Partial> {
    let mut count = vec![0i64; g.count];
    let mut acc = vec![if func == Func::Sum { start } else { 0.0 }; g.count];
    fn fold<P: Copy + Into<f64>>(v: &[P], column: &Decoded, rows: &[u32], g: &Groups, count: &mut [i64], acc: &mut [f64], step: impl Fn(f64, f64, bool) -> f64) {
        for (i, (&r, &gid)) in rows.iter().zip(&g.gids).enumerate() {
            let (at, gid) = (column.at(i, r), gid as usize);
            if !column.is_valid(at) {
                continue;
            }
            acc[gid] = step(acc[gid], v[at].into(), count[gid] == 0);
            count[gid] += 1;
        }
    }
    macro_rules! fold_as {
        ($p:ty) => {{
            let v = column.values.as_slice::<$p>();
            match func {
                Func::Sum => fold(v, column, rows, g, &mut count, &mut acc, |a, x, _| a + x),
                Func::Min => fold(v, column, rows, g, &mut count, &mut acc, |a, x, first| if first || java_order(x, a).is_lt() { x } else { a }),
                _ => fold(v, column, rows, g, &mut count, &mut acc, |a, x, first| if first || java_order(x, a).is_gt() { x } else { a }),
            }
        }};
    }
    match column.values.ptype() {
        PType::F32 => fold_as!(f32),
        PType::F64 => fold_as!(f64),
        p => vortex_bail!("a float aggregate over a column of {p}"),
    }
    Ok(Partial { count, value: Values::Float(acc) })
}

/// Java's `Double.compare`: every NaN equal and above +inf, -0.0 below 0.0.
fn java_order(a: f64, b: f64) -> std::cmp::Ordering {
    let canonical = |x: f64| if x.is_nan() { f64::NAN } else { x };
    canonical(a).total_cmp(&canonical(b))
}
