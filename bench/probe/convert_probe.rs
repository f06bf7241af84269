//! The native side of `vortex4j convert` without Java: a whole conversion of one input, or only
//! the decoding of the input (every batch read and dropped), best of N runs, each with its
//! wall-clock time, the process's CPU (user, system) and its minor page faults. Splits a
//! conversion's cost into the input's decoding and the writer's work, and shows what a change to
//! either saves, without the JVM's start-up and JIT in the figures.
//!
//! `cargo run --release --example convert_probe -- IN OUT [RUNS] [convert|read|write] [BATCH_ROWS]`
//! (`read`: a Parquet input only, decoded on the calling thread; `write`: the input decoded into
//! memory first, then only the write timed, as the reference's `vortex.io.write` of a table
//! already read.)
use std::time::{Duration, Instant};

use arrow::array::RecordBatch;
use vortex4j::convert::parquet::ParquetSource;
use vortex4j::convert::sink::{self, RollingSink};
use vortex4j::convert::source::Source;
use vortex4j::convert::{ConvertOptions, Converter, DEFAULT_BATCH_ROWS, strategy_workers};
use vortex4j::runtime::memory::Retaining;
use vortex4j::write::Drive;

/// CPU time (user, system) and minor faults of the process so far.
fn usage() -> (Duration, Duration, i64) {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let d = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (d(u.ru_utime), d(u.ru_stime), u.ru_minflt)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, out) = (&args[0], &args[1]);
    let runs: usize = args.get(2).map_or(3, |s| s.parse().unwrap());
    let mode = args.get(3).map_or("convert", String::as_str);
    let mut opts = ConvertOptions::default();
    opts.batch_rows = args.get(4).map(|s| s.parse().unwrap());
    let batch_rows = opts.batch_rows.unwrap_or(DEFAULT_BATCH_ROWS);
    for run in 1..=runs {
        let _ = std::fs::remove_file(out);
        let decoded = (mode == "write").then(|| batches(input, batch_rows).collect::<Vec<_>>());
        let (u0, s0, f0) = usage();
        let start = Instant::now();
        let rows = match (mode, decoded) {
            (_, Some(decoded)) => write(decoded, out),
            ("read", _) => batches(input, batch_rows).map(|b| b.num_rows() as u64).sum(),
            _ => Converter::new(&[input], out, opts.clone()).unwrap().finish().unwrap().rows,
        };
        let wall = start.elapsed();
        let (u1, s1, f1) = usage();
        println!(
            "run {run} {}: rows={rows} wall_s={:.3} user_s={:.3} sys_s={:.3} cpu_s={:.3} minflt={}",
            mode,
            wall.as_secs_f64(),
            (u1 - u0).as_secs_f64(),
            (s1 - s0).as_secs_f64(),
            (u1 - u0 + s1 - s0).as_secs_f64(),
            f1 - f0
        );
    }
}

/// The batches of a Parquet input, decoded on the calling thread.
fn batches(input: &str, batch_rows: usize) -> impl Iterator<Item = RecordBatch> {
    let mut source = ParquetSource::open(input, batch_rows).unwrap();
    std::iter::from_fn(move || source.next_batch().unwrap())
}

/// Writes decoded batches as a conversion does (its writer thread, worker pool, allocator).
fn write(batches: Vec<RecordBatch>, out: &str) -> u64 {
    let _retaining = Retaining::start();
    let _workers = strategy_workers();
    let schema = batches[0].schema();
    let target = sink::target(std::path::Path::new(out), false).unwrap();
    let mut sink = RollingSink::new(target, schema, None, Drive::Thread).unwrap();
    let mut rows = 0;
    for b in batches {
        rows += b.num_rows() as u64;
        sink.push(&b).unwrap();
    }
    sink.finish(true).unwrap();
    rows
}
