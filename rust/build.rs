//! Records the CPU features the native library is compiled for, beside the library as
//! `<library>.cpu`. The default build targets the architecture's baseline; one built with, say,
//! `RUSTFLAGS="-C target-cpu=x86-64-v3"` needs AVX2 and more, and the jar carrying it may be
//! copied to another machine: the Java loader reads this record before loading, so a CPU without
//! the features gets an error naming them instead of an illegal-instruction crash of the JVM.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=rust/build.rs");
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let library = match os.as_str() {
        "windows" => "vortex4j.dll",
        "macos" | "ios" => "libvortex4j.dylib",
        _ => "libvortex4j.so",
    };
    // OUT_DIR is <target>/<profile>/build/vortex4j-<hash>/out; the library goes to <target>/<profile>.
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let Some(profile_dir) = out.ancestors().nth(3) else { return };
    let mut sorted: Vec<&str> = features.split(',').filter(|f| !f.is_empty()).collect();
    sorted.sort_unstable();
    let text = format!("{} {}\n", env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default(), sorted.join(","));
    let path = profile_dir.join(format!("{library}.cpu"));
    // Rewritten only when it changes, so the Gradle build's up-to-date check is not disturbed.
    if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}
