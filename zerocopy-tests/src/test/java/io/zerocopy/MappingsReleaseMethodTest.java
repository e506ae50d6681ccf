package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which way the packaged jar unmaps a window on this JDK. In package {@code io.zerocopy} of this
 * module because only the packaged multi-release jar shows a JDK 22+ its Java 22 part.
 */
class MappingsReleaseMethodTest {

    @Test
    void releaseMethod_isPromptOnThisJdk() {
        // JDK 22+ closes a shared Arena; 17 to 21 use Unsafe.invokeCleaner. Never the GC here.
        String expected = Runtime.version().feature() >= 22 ? "Arena.close" : "Unsafe.invokeCleaner";
        assertThat(Mappings.releaseMethod()).isEqualTo(expected).isNotEqualTo("garbage collector");
    }
}
