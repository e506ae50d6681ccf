package io.zerocopy.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** compare's sizes: what the command line may write, and how the table labels them. */
class ByteSizesTest {

    @Test
    void parse_binaryUnitsInAnyCase() {
        assertThat(ByteSizes.parse("7M")).isEqualTo(7L << 20);
        assertThat(ByteSizes.parse("1g")).isEqualTo(1L << 30);
        assertThat(ByteSizes.parse("64KiB")).isEqualTo(64L << 10);
        assertThat(ByteSizes.parse(" 12 MB ")).isEqualTo(12L << 20);
        assertThat(ByteSizes.parse("4096")).isEqualTo(4096);
    }

    @Test
    void parse_notAPositiveSize_namesTheText() {
        for (String text : new String[] {"0", "-1M", "7X", "", "99999999999G"}) {
            assertThatThrownBy(() -> ByteSizes.parse(text))
                    .as(text)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(text + " (expected: a positive number of bytes");
        }
    }

    @Test
    void label_wholeUnitsElseBytesOrTenthsOfAMiB() {
        assertThat(ByteSizes.label(7L << 20)).isEqualTo("7 MiB");
        assertThat(ByteSizes.label(1L << 30)).isEqualTo("1 GiB");
        assertThat(ByteSizes.label(64L << 10)).isEqualTo("64 KiB");
        assertThat(ByteSizes.label(1000)).isEqualTo("1000 B");
        assertThat(ByteSizes.label((1L << 20) + 1)).isEqualTo("1.0 MiB");
    }
}
