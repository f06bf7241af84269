package io.vortex4j.reader;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class SmokeTest {
    @Test
    public void readsTheFlatFixture() {
        Fixtures.DictFile f = Fixtures.flatDict();
        try (VortexFile file = VortexFile.open(f.path); Scan scan = file.scan()) {
            assertEquals(8000, file.rowCount());
            System.out.println(file.schema());
            int row = 0;
            for (Chunk c : scan) {
                try (c) {
                    Array s = c.column("s");
                    System.out.println(c + " " + s + " " + c.encodingTree(1).split("\n")[0]);
                    assertTrue(s instanceof VarBinDictArray);
                    for (int i = 0; i < c.length(); i++) {
                        assertEquals("row " + (row + i), f.s.get(row + i), Values.valueAt(s, i));
                    }
                    row += c.length();
                }
            }
            assertEquals(8000, row);
        }
    }
}
