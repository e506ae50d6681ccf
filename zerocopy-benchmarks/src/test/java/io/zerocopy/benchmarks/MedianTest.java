package io.zerocopy.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one median of the timing programs: the middle value, or the mean of the middle two. */
class MedianTest {

    @Test
    void oddCount_isTheMiddleValue_inAnyOrder() {
        assertThat(Median.of(new double[] {9, 1, 5})).isEqualTo(5);
        assertThat(Median.of(List.of(3.0, 7.0, 1.0, 8.0, 2.0))).isEqualTo(3);
    }

    @Test
    void evenCount_isTheMeanOfTheMiddleTwo() {
        assertThat(Median.of(new double[] {4, 1, 10, 2})).isEqualTo(3);
        assertThat(Median.of(List.of(1.0, 4.0))).isEqualTo(2.5);
    }

    @Test
    void theValuesGiven_areNotReordered() {
        double[] values = {3, 1, 2};
        Median.of(values);
        assertThat(values).containsExactly(3, 1, 2);
    }

    @Test
    void noValues_isAnError() {
        assertThatThrownBy(() -> Median.of(new double[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> Median.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
