package io.vortex4j.trino;

import io.trino.spi.block.Block;
import io.trino.spi.block.DictionaryBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.vortex4j.reader.array.DictionaryStrings;
import io.vortex4j.reader.array.VarBinArray;
import io.vortex4j.reader.array.VarBinDictArray;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Dictionary-encoded string columns as Trino {@link DictionaryBlock}s: the entries become one
 * {@link io.trino.spi.block.VariableWidthBlock} per dictionary, built the first time a chunk
 * uses it and shared by every later chunk of the scan that uses the same dictionary; each page
 * only carries the rows' codes. The entry block has one extra position, null, for rows whose
 * code is null. Trino's operators then hash and compare dictionary positions rather than strings.
 */
final class DictionaryBlocks {
    /** Per dictionary (chunks sharing a dictionary share its strings object). */
    private final Map<DictionaryStrings, Block> entries = new IdentityHashMap<>();

    Block of(VarBinDictArray array, int[] rows, int count) {
        Block dictionary = entries.computeIfAbsent(array.strings(), k -> withNull(array.dictionary()));
        int nullId = dictionary.getPositionCount() - 1;
        int[] ids = new int[count];
        boolean checkNulls = array.mayHaveNulls();
        for (int i = 0; i < count; i++) {
            int r = Blocks.row(rows, i);
            ids[i] = checkNulls && array.isCodeNull(r) ? nullId : array.getCode(r);
        }
        if (count > 0 && dictionary.getPositionCount() == 1) {
            return RunLengthEncodedBlock.create(dictionary, count);
        }
        return DictionaryBlock.create(count, dictionary, ids);
    }

    /** The entries followed by a null. */
    private static Block withNull(VarBinArray entries) {
        int n = entries.length();
        return Blocks.varWidth(entries, null, n).copyWithAppendedNull();
    }
}
