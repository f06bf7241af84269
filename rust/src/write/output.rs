//! The output file: buffered, its disk write started every few MB, shared between the writer
//! that fills it and the sink that syncs it after the footer.

use std::fs::File;
use std::io::BufWriter;
use std::io::Write;
use std::sync::Arc;
use std::sync::Mutex;

use vortex_io::IoBuf;
use vortex_io::VortexWrite;

/// A `Write` the writer owns while we keep a handle to flush and sync it after the footer.
#[derive(Clone)]
pub(super) struct SharedFile(Arc<Mutex<BufWriter<WrittenBack>>>);

/// Bytes handed to the kernel between two starts of their write-back to disk.
const WRITE_BACK_BYTES: u64 = 8 << 20;

/// The output file, starting the disk write of every 8 MB as soon as the kernel has them (Linux
/// `sync_file_range`, which does not wait for the disk), so the `fsync` after the footer waits
/// for the last few MB, not for the whole file the kernel would otherwise have kept dirty.
struct WrittenBack {
    file: File,
    /// Bytes written, and those whose write-back was started.
    written: u64,
    started: u64,
}

impl WrittenBack {
    fn new(file: File) -> Self {
        WrittenBack { file, written: 0, started: 0 }
    }

    fn start_write_back(&mut self) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // A hint only: a failure shows (if it matters) in the final fsync.
            // SAFETY: the descriptor is this open file's; the call reads no memory of ours.
            unsafe {
                libc::sync_file_range(
                    self.file.as_raw_fd(),
                    self.started as _,
                    (self.written - self.started) as _,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
            }
        }
        self.started = self.written;
    }
}

impl Write for WrittenBack {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.written - self.started >= WRITE_BACK_BYTES {
            self.start_write_back();
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl SharedFile {
    /// `file`, buffered, its write-back started as it grows.
    pub(super) fn new(file: File) -> Self {
        SharedFile(Arc::new(Mutex::new(BufWriter::with_capacity(1 << 20, WrittenBack::new(file)))))
    }

    /// Flushes what is buffered and waits for the whole file to reach the disk.
    pub(super) fn sync(&self) -> std::io::Result<()> {
        let mut file = self.0.lock().expect("file lock poisoned");
        file.flush().and_then(|_| file.get_ref().file.sync_all())
    }
}

impl Write for SharedFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("file lock poisoned").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().expect("file lock poisoned").flush()
    }
}

/// The file as vortex's async writer takes it: written inline, on the thread that drives the
/// writer (local disk writes of whole segments; vortex's blocking writer does the same).
impl VortexWrite for SharedFile {
    async fn write_all<B: IoBuf>(&mut self, buffer: B) -> std::io::Result<B> {
        Write::write_all(self, buffer.as_slice())?;
        Ok(buffer)
    }

    async fn flush(&mut self) -> std::io::Result<()> {
        Write::flush(self)
    }

    async fn shutdown(&mut self) -> std::io::Result<()> {
        Write::flush(self)
    }
}
