"""The reference writer's side of the convert benchmark: vortex-data's Python `vortex.io.write`
of the Arrow table read from a Parquet file, timed. Not run in CI.

Usage: python3 reference_write.py TABLE.parquet OUT.vortex RUNS
Prints one line per run: `read_s=<pyarrow read> write_s=<vortex.io.write> rows=<n> bytes=<file size>`.
"""

import os
import sys
import time

import pyarrow.parquet as pq
import vortex


def main() -> None:
    source, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for _ in range(runs):
        start = time.perf_counter()
        table = pq.read_table(source)
        read_s = time.perf_counter() - start
        start = time.perf_counter()
        vortex.io.write(table, out)
        write_s = time.perf_counter() - start
        print(f"read_s={read_s:.3f} write_s={write_s:.3f} rows={table.num_rows} bytes={os.path.getsize(out)}", flush=True)


if __name__ == "__main__":
    main()
