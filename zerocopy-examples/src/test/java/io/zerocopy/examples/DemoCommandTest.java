package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code demo}'s option errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DemoCommandTest {

    /** Sizes whose bytes do not fit a long: they used to wrap to 0 or less, send nothing and say ok. */
    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "8796093022208", "17592186044416", "9007199254740991"})
    void demo_sizeOutOfRange_isAUsageErrorNamingTheOption(String mib) {
        Cli.Run run = Cli.exec("demo", "--size-mib", mib);
        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("--size-mib: " + mib + " (expected: ");
    }
}
