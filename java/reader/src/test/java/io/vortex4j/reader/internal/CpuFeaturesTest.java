package io.vortex4j.reader.internal;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.vortex4j.VortexException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import org.junit.Test;

/** The CPU features a library is compiled for, against those of a CPU. */
public class CpuFeaturesTest {
    @Test
    public void rustNamesAreMatchedToLinuxFlags() {
        Set<String> flags = Set.of("avx", "avx2", "abm", "pni", "sse4_1", "cx16", "movbe");
        assertEquals(List.of(), CpuFeatures.missing("avx,avx2,lzcnt,sse3,sse4.1,cmpxchg16b,movbe,fxsr,sse,sse2", flags));
        assertEquals(List.of("bmi2", "sse4.2", "fma"), CpuFeatures.missing("avx2,bmi2,sse4.2,fma", flags));
    }

    @Test
    public void aMissingFeatureIsNamedInTheError() {
        assumeLinuxX86();
        try {
            CpuFeatures.require("x86_64 avx,vortex4j-absent-feature\n", "libtest.so");
            fail("a CPU lacking a feature must be refused");
        } catch (VortexException e) {
            assertTrue(e.getMessage(), e.getMessage().startsWith(
                    "libtest.so is compiled for CPU features this CPU lacks: vortex4j-absent-feature"));
            assertTrue(e.getMessage(), e.getMessage().contains("RUSTFLAGS"));
        }
        // Another architecture's library, or none recorded: nothing to check here.
        CpuFeatures.require("aarch64 neon,vortex4j-absent-feature", "libtest.so");
        CpuFeatures.require(null, "libtest.so");
    }

    /** The library the tests load and the copy bundled in the jar record the same features, all of this CPU's. */
    @Test
    public void theBuiltLibraryRunsOnThisCpu() throws Exception {
        assumeLinuxX86();
        String library = System.getProperty(NativeLoader.LIBRARY_PROPERTY);
        String beside = Files.readString(Paths.get(library + ".cpu"), StandardCharsets.US_ASCII);
        assertTrue(beside, beside.startsWith("x86_64 "));
        String bundled;
        try (InputStream in = NativeLoader.class.getResourceAsStream(NativeLoader.resourcePath() + ".cpu")) {
            assertNotNull("the jar bundles the library's .cpu", in);
            bundled = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        assertEquals(beside, bundled);
        assertEquals(List.of(), CpuFeatures.missing(beside.trim().split(" ")[1], CpuFeatures.linuxFlags()));
        CpuFeatures.require(beside, library);
    }

    private static void assumeLinuxX86() {
        org.junit.Assume.assumeTrue(CpuFeatures.linuxFlags() != null && System.getProperty("os.arch").equals("amd64"));
    }
}
