//! vortex's `like` on our translation of SQL patterns ([`vortex4j::predicate::like`]) against an
//! independent matcher written here from SQL's definition: random patterns over an alphabet full
//! of wildcards, escape characters and regex metacharacters, on plain strings, FSST-compressed
//! strings and dictionaries of both (vortex's Dict and FSST kernels), with null values, empty
//! strings and multi-byte characters. Checks by test what vortex does with `\`, with `%`/`_`
//! after an escape and with regex metacharacters, rather than trusting a reading of its source.

mod common;

#[allow(dead_code)]
#[path = "../rust/fixtures/dict_fixture.rs"]
mod fixture;

use common::oracle;
use vortex4j::filter::dict::code_table;
use vortex4j::filter::column_selection;
use vortex4j::filter::dict::select_rows;
use fixture::Rng;
use vortex4j::predicate::like::ascii_only;
use vortex4j::predicate::Predicate;
use vortex4j::predicate::resolve::resolve;
use vortex4j::runtime::session::execution_ctx;
use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::DictArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::VarBinArray;
use vortex_array::arrays::VarBinViewArray;
use vortex_array::dtype::DType;
use vortex_array::dtype::Nullability;
use vortex_array::validity::Validity;
use vortex_buffer::Buffer;
use vortex_fsst::fsst_compress;
use vortex_fsst::fsst_train_compressor;

const ALPHABET: &[char] = &[
    'a', 'b', 'A', '%', '_', '\\', '!', '.', '*', '+', '?', '[', ']', '(', ')', '{', '}', '|', '^', '$', 'é',
    '😀', '\n', 'x',
];

fn random_string(rng: &mut Rng, max: usize, alphabet: &[char]) -> String {
    let n = rng.below(max + 1);
    (0..n).map(|_| alphabet[rng.below(alphabet.len())]).collect()
}

/// The values every encoding holds: random strings, the empty string, a null, and long ones.
fn values(rng: &mut Rng, n: usize, alphabet: &[char]) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = (0..n).map(|_| Some(random_string(rng, 8, alphabet))).collect();
    out.push(Some(String::new()));
    out.push(None);
    out.push(Some("a".repeat(40) + "%_\\b"));
    out
}

/// The same values as plain strings, FSST, a dictionary over plain strings and one over FSST.
fn encodings(values: &[Option<String>]) -> Vec<(&'static str, ArrayRef, Vec<Option<String>>)> {
    let mut ctx = execution_ctx();
    let plain = VarBinViewArray::from_iter_nullable_str(values.iter().map(|v| v.as_deref())).into_array();
    let varbin = VarBinArray::from_iter(values.iter().map(|v| v.as_deref()), DType::Utf8(Nullability::Nullable)).into_array();
    let compressor = fsst_train_compressor(&varbin, &mut ctx).unwrap();
    let fsst = fsst_compress(&varbin, &compressor, &mut ctx).unwrap().into_array();
    // Rows: every entry twice in a scrambled order, plus null codes.
    let n = values.len();
    let codes: Vec<u32> = (0..2 * n).map(|i| ((i * 7919) % n) as u32).collect();
    let valid: Vec<bool> = (0..2 * n).map(|i| i % 9 != 4).collect();
    let rows: Vec<Option<String>> =
        codes.iter().zip(&valid).map(|(&c, &ok)| if ok { values[c as usize].clone() } else { None }).collect();
    let codes = PrimitiveArray::new(codes.into_iter().collect::<Buffer<u32>>(), Validity::from_iter(valid)).into_array();
    let dict_plain = DictArray::try_new(codes.clone(), plain.clone()).unwrap().into_array();
    let dict_fsst = DictArray::try_new(codes, fsst.clone()).unwrap().into_array();
    vec![
        ("plain", plain, values.to_vec()),
        ("fsst", fsst, values.to_vec()),
        ("dict(plain)", dict_plain, rows.clone()),
        ("dict(fsst)", dict_fsst, rows),
    ]
}

fn like(pattern: &str, escape: Option<char>, case_insensitive: bool, negated: bool) -> Predicate {
    Predicate::Like { column: "s".into(), pattern: pattern.into(), escape, case_insensitive, negated }
}

/// Evaluates `leaf` on `array` with vortex's `like` (the whole column) and, for dictionaries,
/// with the per-code table and the fused selection; checks every row against the oracle.
fn check(name: &str, array: &ArrayRef, rows: &[Option<String>], pattern: &str, escape: Option<char>, ci: bool) {
    let mut ctx = execution_ctx();
    let dtype = DType::Utf8(Nullability::Nullable);
    for negated in [false, true] {
        let leaf = like(pattern, escape, ci, negated);
        let resolved = resolve(&leaf, &dtype).unwrap();
        let words = column_selection(array, &resolved, &mut ctx).unwrap();
        let by_table = vortex4j::filter::dict::string_dictionary(array).map(|(codes, values)| {
            let table = code_table(&values, &resolved, &mut ctx).unwrap();
            select_rows(&codes, &table, &mut ctx).unwrap()
        });
        for (i, v) in rows.iter().enumerate() {
            let want = v.as_deref().is_some_and(|v| oracle(pattern, escape, ci, v).unwrap() != negated);
            let got = words[i / 64] >> (i % 64) & 1 == 1;
            assert_eq!(got, want, "{name}: {leaf:?} on {v:?}");
            if let Some(t) = &by_table {
                assert_eq!(t[i / 64] >> (i % 64) & 1 == 1, want, "{name} by table: {leaf:?} on {v:?}");
            }
        }
    }
}

#[test]
fn random_patterns_agree_with_sql_on_every_encoding() {
    let mut rng = Rng::new(8);
    let values = values(&mut rng, 150, ALPHABET);
    let encodings = encodings(&values);
    let mut checked = 0;
    for k in 0..600 {
        let pattern = random_string(&mut rng, 6, ALPHABET);
        let escape = [None, Some('\\'), Some('!'), Some('%')][k % 4];
        let parsed = vortex4j::predicate::like::parse(&pattern, escape);
        // The translation rejects exactly the patterns SQL rejects.
        assert_eq!(parsed.is_ok(), oracle(&pattern, escape, false, "").is_some(), "{pattern:?} escape {escape:?}");
        if parsed.is_err() {
            continue;
        }
        for (name, array, rows) in &encodings {
            check(name, array, rows, &pattern, escape, false);
        }
        checked += 1;
    }
    assert!(checked > 300, "{checked} valid patterns");
}

/// Every shape named by the issue, each against the oracle on every encoding.
#[test]
fn named_shapes() {
    let words: Vec<Option<String>> = [
        Some("AAPL"), Some("AAP"), Some("MSFT"), Some(""), Some("Zürich"), Some("東京"), Some("🎉party"), None,
        Some("a.b"), Some("a*b"), Some("a+b?"), Some("[x]"), Some("(y)"), Some("{z}"), Some("p|q"), Some("^s$"),
        Some(r"back\slash"), Some("100%"), Some("snake_case"), Some("line\nbreak"), Some("%"), Some("_"), Some("\\"),
    ]
    .into_iter()
    .map(|s| s.map(String::from))
    .collect();
    let patterns: &[(&str, Option<char>)] = &[
        ("AA%", None),
        ("%PL", None),
        ("%AP%", None),
        ("A_P_", None),
        ("%", None),
        ("%%", None),
        ("", None),
        ("_", None),
        ("__", None),
        ("Z_rich", None),
        ("東%", None),
        ("%party", None),
        ("a.b", None),
        ("a*b", None),
        ("a+b?", None),
        ("[x]", None),
        ("(y)", None),
        ("{z}", None),
        ("p|q", None),
        ("^s$", None),
        ("%.%", None),
        (r"back\slash", None),
        (r"%\%", None),
        (r"back\\slash", Some('\\')),
        (r"100\%", Some('\\')),
        ("100!%", Some('!')),
        ("snake!_case", Some('!')),
        ("snake_case", Some('!')),
        ("%!%", Some('!')),
        ("!_", Some('!')),
        (r"\\", Some('\\')),
        (r"\", None),
        ("%%", Some('%')),
        ("AAPL and then a pattern much longer than any value%", None),
        ("%AAPL and then a pattern much longer than any value", None),
        ("line%break", None),
        ("line_break", None),
    ];
    for (name, array, rows) in &encodings(&words) {
        for &(p, e) in patterns {
            check(name, array, rows, p, e, false);
        }
    }
}

/// ILIKE on ASCII values with ASCII patterns: vortex's folding and the reader's agree there, and
/// that is the only place the native side evaluates it.
#[test]
fn ilike_on_ascii() {
    let mut rng = Rng::new(3);
    let ascii: Vec<char> = ALPHABET.iter().copied().filter(char::is_ascii).chain(['B', 'Z', 'z']).collect();
    let values = values(&mut rng, 120, &ascii);
    let encodings = encodings(&values);
    let mut ctx = execution_ctx();
    for (name, array, rows) in &encodings {
        let strings = match vortex4j::filter::dict::string_dictionary(array) {
            Some((_, values)) => values,
            None => array.clone(),
        };
        assert!(ascii_only(&strings, &mut ctx).unwrap(), "{name}");
        for k in 0..150 {
            let pattern = random_string(&mut rng, 5, &ascii);
            let escape = [None, Some('\\')][k % 2];
            if vortex4j::predicate::like::parse(&pattern, escape).is_ok() {
                check(name, array, rows, &pattern, escape, true);
            }
        }
        for p in ["aap%", "%PL", "%a%B%", "A_b"] {
            check(name, array, rows, p, None, true);
        }
    }
    let non_ascii = VarBinViewArray::from_iter_str(["abc", "é"]).into_array();
    assert!(!ascii_only(&non_ascii, &mut ctx).unwrap());
}
