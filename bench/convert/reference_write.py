"""The reference writer's side of the convert benchmark: vortex-data's Python `vortex.io.write`
of the Arrow table read from a Parquet file, timed. Not run in CI.

Usage: python3 reference_write.py TABLE.parquet OUT.vortex RUNS
Prints one line per run: `read_s=<pyarrow read> write_s=<vortex.io.write> read_cpu_s=... write_cpu_s=...
rows=<n> bytes=<file size>` (wall-clock seconds, and CPU seconds of the whole process, all threads).
"""

import os
import sys
import time

import pyarrow.parquet as pq
import vortex


def main() -> None:
    source, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        table = pq.read_table(source)
        read_s, read_cpu = time.perf_counter() - start, time.process_time() - cpu
        start, cpu = time.perf_counter(), time.process_time()
        vortex.io.write(table, out)
        write_s, write_cpu = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"read_s={read_s:.3f} write_s={write_s:.3f} read_cpu_s={read_cpu:.3f} write_cpu_s={write_cpu:.3f} "
            f"rows={table.num_rows} bytes={os.path.getsize(out)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
