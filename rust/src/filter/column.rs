//! Column selection: a resolved leaf evaluated on a whole column (or a dictionary's entries)
//! with vortex's compute, as a selection bitmap.

use std::sync::Arc;

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::IntoArray;
use vortex_array::arrays::BoolArray;
use vortex_array::arrays::ConstantArray;
use vortex_array::arrays::bool::BoolArrayExt;
use vortex_array::builtins::ArrayBuiltins;
use vortex_array::dtype::Nullability;
use vortex_array::optimizer::ArrayOptimizer;
use vortex_array::scalar::Scalar;
use vortex_array::scalar_fn::fns::between::BetweenOptions;
use vortex_array::scalar_fn::fns::between::StrictComparison;
use vortex_array::scalar_fn::fns::like::Like;
use vortex_array::scalar_fn::fns::like::LikeOptions;
use vortex_array::scalar_fn::fns::list_contains::ListContains;
use vortex_array::scalar_fn::fns::list_contains::ListContainsOptions;
use vortex_array::scalar_fn::fns::list_contains::PreparedSet;
use vortex_array::scalar_fn::fns::operators::Operator;
use vortex_error::VortexResult;
use vortex_mask::Mask;

use crate::filter::bits::bit_words;
use crate::filter::bits::clear_tail;
use crate::filter::bits::mask_words;
use crate::filter::bits::ones;
use crate::predicate::CmpOp;
use crate::predicate::resolve::Resolved;

/// Evaluates a resolved leaf on a whole column (or a dictionary's entries) with vortex's compute
/// (compare kernels work on the encoded data: FoR, bit-packing, ALP, FSST, run-end...): the
/// selection as LSB-first words.
pub fn column_selection(column: &ArrayRef, leaf: &Resolved, ctx: &mut ExecutionCtx) -> VortexResult<Vec<u64>> {
    let len = column.len();
    Ok(match leaf {
        Resolved::False => vec![0; len.div_ceil(64)],
        Resolved::Every => ones(len),
        Resolved::NotNull | Resolved::IsNull => {
            let valid = match column.validity()?.execute_mask(len, ctx)? {
                Mask::AllTrue(_) => ones(len),
                Mask::AllFalse(_) => vec![0; len.div_ceil(64)],
                Mask::Values(v) => bit_words(v.bit_buffer(), len),
            };
            if matches!(leaf, Resolved::NotNull) {
                valid
            } else {
                let mut w: Vec<u64> = valid.into_iter().map(|v| !v).collect();
                clear_tail(&mut w, len);
                w
            }
        }
        Resolved::Cmp(op, scalar) => {
            let rhs = ConstantArray::new(scalar.clone(), len).into_array();
            let result = column.binary(rhs, operator(*op))?.execute::<BoolArray>(ctx)?;
            // Null rows compare to null, which selects nothing.
            mask_words(result.to_mask_fill_null_false(ctx), len)
        }
        Resolved::InSet { values, negated } => {
            // vortex's prepared set: integers and floats (by bit pattern, as its compare) and
            // decimals in an integer set, strings in a hash table; null rows stay null.
            let element = Arc::new(column.dtype().as_nonnullable());
            let list = Scalar::list(element, values.clone(), Nullability::NonNullable);
            let set = PreparedSet::try_new_array(list, len)?;
            let contains = ListContains::try_new_opts(set, column.clone(), ListContainsOptions::default())?.into_array();
            let result = if *negated { contains.not()? } else { contains };
            mask_words(result.execute::<BoolArray>(ctx)?.to_mask_fill_null_false(ctx), len)
        }
        Resolved::Like { pattern, case_insensitive, negated } => {
            // vortex's like: on FSST values its DFA runs on the compressed codes (prefix and
            // contains patterns), otherwise a compiled matcher per value.
            let pattern = ConstantArray::new(Scalar::utf8(pattern.as_str(), Nullability::NonNullable), len).into_array();
            let options = LikeOptions { negated: *negated, case_insensitive: *case_insensitive };
            // Reduce rules first (as vortex's scan applies them: e.g. a sparse or dictionary
            // column's like on its values), then the execute kernels (FSST's DFA).
            let like = Like::try_new(column.clone(), pattern, options)?.into_array().optimize()?;
            let result = like.execute::<BoolArray>(ctx)?;
            mask_words(result.to_mask_fill_null_false(ctx), len)
        }
        Resolved::And(children) => {
            if let [Resolved::Cmp(lo_op @ (CmpOp::Ge | CmpOp::Gt), lo), Resolved::Cmp(hi_op @ (CmpOp::Le | CmpOp::Lt), hi)] =
                children.as_slice()
            {
                // A range: vortex's between kernel in one pass instead of two compares.
                let strict = |op: &CmpOp| {
                    if matches!(op, CmpOp::Gt | CmpOp::Lt) { StrictComparison::Strict } else { StrictComparison::NonStrict }
                };
                let options = BetweenOptions { lower_strict: strict(lo_op), upper_strict: strict(hi_op) };
                let lower = ConstantArray::new(lo.clone(), len).into_array();
                let upper = ConstantArray::new(hi.clone(), len).into_array();
                let result = column.clone().between(lower, upper, options)?.execute::<BoolArray>(ctx)?;
                return Ok(mask_words(result.to_mask_fill_null_false(ctx), len));
            }
            let mut acc = ones(len);
            for c in children {
                let w = column_selection(column, c, ctx)?;
                acc.iter_mut().zip(w).for_each(|(a, b)| *a &= b);
            }
            acc
        }
        Resolved::Or(children) => {
            let mut acc = vec![0; len.div_ceil(64)];
            for c in children {
                let w = column_selection(column, c, ctx)?;
                acc.iter_mut().zip(w).for_each(|(a, b)| *a |= b);
            }
            acc
        }
    })
}

fn operator(op: CmpOp) -> Operator {
    match op {
        CmpOp::Eq => Operator::Eq,
        CmpOp::Ne => Operator::NotEq,
        CmpOp::Lt => Operator::Lt,
        CmpOp::Le => Operator::Lte,
        CmpOp::Gt => Operator::Gt,
        CmpOp::Ge => Operator::Gte,
    }
}
