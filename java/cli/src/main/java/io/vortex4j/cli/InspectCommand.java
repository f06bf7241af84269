package io.vortex4j.cli;

import io.vortex4j.reader.Chunk;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Scan;
import io.vortex4j.reader.VortexFile;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code inspect FILE}: rows, chunks, and per column the dtype and first chunk's encodings. */
@Command(name = "inspect", description = "Show a file's rows, chunks, column types and encodings.")
final class InspectCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "the .vortex file (or its location in an object store)")
    String path;

    @Override
    public Integer call() {
        try (VortexFile file = VortexFile.open(path)) {
            System.out.printf("file     %s%n", file.location());
            System.out.printf("rows     %,d%n", file.rowCount());
            String[] trees = new String[file.schema().size()];
            long chunks = 0;
            try (Scan scan = file.scan()) {
                for (Chunk chunk : scan) {
                    try (chunk) {
                        if (chunks == 0) {
                            for (int i = 0; i < trees.length; i++) {
                                trees[i] = chunk.encodingTree(i);
                            }
                        }
                        chunks++;
                    }
                }
            }
            System.out.printf("chunks   %,d (scanning every column)%n", chunks);
            System.out.printf("columns  %d%n", trees.length);
            for (int i = 0; i < trees.length; i++) {
                Field f = file.schema().field(i);
                String tree = trees[i] == null ? "" : trees[i].trim();
                boolean dict = tree.startsWith("root: vortex.dict");
                System.out.printf("%n  %s  %s%s%s%n", f.name(), f.type(), f.nullable() ? " (nullable)" : "",
                        dict ? "  [dictionary-encoded]" : "");
                if (!tree.isEmpty()) {
                    System.out.println("    first chunk encodings:");
                    for (String line : tree.split("\n")) {
                        System.out.println("      " + line.replaceFirst("^root: ", ""));
                    }
                }
            }
        }
        return 0;
    }
}
