package io.vortex4j.reader.compute;

import static org.junit.Assert.assertEquals;

import io.vortex4j.reader.DataType;
import io.vortex4j.reader.internal.Native;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/**
 * The code tables shared with the native library (docs/jni.md) agree: each Java enum's members
 * and codes equal the table the library writes from its own definitions.
 */
public class CodeTablesTest {
    @Test
    public void javaEnumsEqualTheNativeTables() {
        Map<String, Map<String, Integer>> tables = new TreeMap<>();
        for (String line : Native.codeTables().split("\n")) {
            String[] parts = line.split(" ");
            assertEquals(line, 3, parts.length);
            tables.computeIfAbsent(parts[0], t -> new TreeMap<>()).put(parts[1], Integer.parseInt(parts[2]));
        }
        Map<String, Integer> kinds = new TreeMap<>();
        for (DataType.Kind k : DataType.Kind.values()) {
            kinds.put(k.name(), k.code());
        }
        assertEquals("type codes", kinds, tables.get("type"));
        assertEquals("time units", ordinals(DataType.TimeUnit.values()), tables.get("unit"));
        assertEquals("aggregate functions", ordinals(GroupAggregate.Function.values()), tables.get("aggregate"));
        assertEquals("filter tree tags", Map.of("AND", PreparedFilter.AND, "OR", PreparedFilter.OR,
                "LEAF", PreparedFilter.LEAF), tables.get("tree"));
        assertEquals("leaf paths", ordinals(LeafPath.values()), tables.get("path"));
        assertEquals("tables", java.util.Set.of("type", "unit", "aggregate", "tree", "path"), tables.keySet());
    }

    private static Map<String, Integer> ordinals(Enum<?>[] members) {
        Map<String, Integer> out = new TreeMap<>();
        for (Enum<?> e : members) {
            out.put(e.name(), e.ordinal());
        }
        return out;
    }
}
