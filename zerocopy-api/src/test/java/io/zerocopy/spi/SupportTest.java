package io.zerocopy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SupportTest {

    @Test
    void yes_isSupportedWithReason() {
        Support s = Support.yes("sendfile(2) from a file to a SOCKET");

        assertThat(s.supported()).isTrue();
        assertThat(s.reason()).isEqualTo("sendfile(2) from a file to a SOCKET");
        assertThat(s).hasToString("yes: sendfile(2) from a file to a SOCKET");
    }

    @Test
    void no_isUnsupportedWithReason() {
        Support s = Support.no("target is not a FileChannel");

        assertThat(s.supported()).isFalse();
        assertThat(s.reason()).isEqualTo("target is not a FileChannel");
        assertThat(s).hasToString("no: target is not a FileChannel");
    }

    @Test
    void reason_mustNotBeNull() {
        assertThatThrownBy(() -> Support.yes(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("reason");
        assertThatThrownBy(() -> Support.no(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("reason");
    }

    @Test
    void equals_comparesAnswerAndReason() {
        assertThat(Support.yes("a")).isEqualTo(Support.yes("a")).hasSameHashCodeAs(Support.yes("a"));
        assertThat(Support.no("a")).isEqualTo(Support.no("a")).hasSameHashCodeAs(Support.no("a"));
        assertThat(Support.yes("a")).isNotEqualTo(Support.no("a"));
        assertThat(Support.yes("a")).isNotEqualTo(Support.yes("b"));
        assertThat(Support.yes("a")).isNotEqualTo(null);
        assertThat(Support.yes("a")).isNotEqualTo("yes: a");
    }
}
