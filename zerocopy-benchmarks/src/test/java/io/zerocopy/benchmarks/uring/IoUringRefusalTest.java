package io.zerocopy.benchmarks.uring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Why the io_uring prototype cannot run, on any JDK: each missing piece is named. */
class IoUringRefusalTest {

    @Test
    void refusal_namesWhatIsMissing() {
        assertThat(IoUring.refusal("Linux", 25, true, "0", true)).isNull();
        assertThat(IoUring.refusal("Linux", 25, true, null, true)).isNull();
        assertThat(IoUring.refusal("Mac OS X", 25, true, null, true)).contains("Linux only");
        assertThat(IoUring.refusal("Linux", 17, false, "0", true))
                .contains("Java 22+")
                .contains("Java 17");
        assertThat(IoUring.refusal("Linux", 25, false, "0", true)).contains("-Puring");
        assertThat(IoUring.refusal("Linux", 25, true, "2", true)).contains("io_uring_disabled is 2");
        assertThat(IoUring.refusal("Linux", 25, true, "1", true)).contains("io_uring_disabled is 1");
        assertThat(IoUring.refusal("Linux", 25, true, "0", false)).contains("--add-exports java.base/sun.nio.ch");
    }
}
