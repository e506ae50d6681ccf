package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link TransferOptions}: defaults, validation in the "name: value (expected: ...)" format, copies. */
class TransferOptionsTest {

    private static final TransferListener LISTENER = new TransferListener() {
        @Override
        public String toString() {
            return "test listener";
        }
    };

    @Test
    void defaults_asDocumented() {
        TransferOptions d = TransferOptions.defaults();

        assertThat(d.strategy()).isEmpty();
        assertThat(d.excluded()).isEmpty();
        assertThat(d.bufferSize()).isEqualTo(256 * 1024).isEqualTo(TransferOptions.DEFAULT_BUFFER_SIZE);
        assertThat(d.mappedWindow()).isEqualTo(64L * 1024 * 1024).isEqualTo(TransferOptions.DEFAULT_MAPPED_WINDOW);
        assertThat(d.stallTimeout()).isEqualTo(Duration.ofSeconds(60)).isEqualTo(TransferOptions.DEFAULT_STALL_TIMEOUT);
        assertThat(d.listener()).isSameAs(TransferListener.NONE);
        assertThat(d.rateLimit()).isZero();
        assertThat(TransferOptions.defaults()).isSameAs(d);
        assertThat(TransferOptions.EXCLUDE_PROPERTY).isEqualTo("zerocopy.exclude");
        assertThat(TransferOptions.STRATEGY_PROPERTY).isEqualTo("zerocopy.strategy");
    }

    @Test
    void builder_startsFromDefaults() {
        TransferOptions built = TransferOptions.builder().build();

        assertThat(built.toString()).isEqualTo(TransferOptions.defaults().toString());
    }

    @Test
    void bufferSize_range() {
        assertThatThrownBy(() -> TransferOptions.builder().bufferSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bufferSize: 0 (expected: 1..1073741824)");
        assertThatThrownBy(() -> TransferOptions.builder().bufferSize(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bufferSize: -1 (expected: 1..1073741824)");
        assertThatThrownBy(() -> TransferOptions.builder().bufferSize((1 << 30) + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bufferSize: 1073741825 (expected: 1..1073741824)");
        assertThat(TransferOptions.builder().bufferSize(1).build().bufferSize()).isEqualTo(1);
        assertThat(TransferOptions.builder().bufferSize(1 << 30).build().bufferSize())
                .isEqualTo(1 << 30);
    }

    @Test
    void mappedWindow_range() {
        assertThatThrownBy(() -> TransferOptions.builder().mappedWindow(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mappedWindow: 0 (expected: 1..2147483647)");
        assertThatThrownBy(() -> TransferOptions.builder().mappedWindow(Integer.MAX_VALUE + 1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mappedWindow: 2147483648 (expected: 1..2147483647)");
        assertThatThrownBy(() -> TransferOptions.builder().mappedWindow(-4096))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mappedWindow: -4096 (expected: 1..2147483647)");
        assertThat(TransferOptions.builder().mappedWindow(1).build().mappedWindow())
                .isEqualTo(1);
        assertThat(TransferOptions.builder()
                        .mappedWindow(Integer.MAX_VALUE)
                        .build()
                        .mappedWindow())
                .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void stallTimeout_mustBePositive() {
        assertThatThrownBy(() -> TransferOptions.builder().stallTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stallTimeout: PT0S (expected: > 0)");
        assertThatThrownBy(() -> TransferOptions.builder().stallTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stallTimeout: PT-1S (expected: > 0)");
        assertThatThrownBy(() -> TransferOptions.builder().stallTimeout(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("stallTimeout");
        assertThat(TransferOptions.builder()
                        .stallTimeout(Duration.ofNanos(1))
                        .build()
                        .stallTimeout())
                .isEqualTo(Duration.ofNanos(1));
    }

    @Test
    void rateLimit_notNegative() {
        assertThatThrownBy(() -> TransferOptions.builder().rateLimit(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rateLimit: -1 (expected: >= 0)");
        assertThat(TransferOptions.builder().rateLimit(0).build().rateLimit()).isZero();
        assertThat(TransferOptions.builder().rateLimit(Long.MAX_VALUE).build().rateLimit())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void listener_notNull() {
        assertThatThrownBy(() -> TransferOptions.builder().listener(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("listener");
    }

    @Test
    void exclude_nulls() {
        assertThatThrownBy(() -> TransferOptions.builder().exclude((String[]) null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("names");
        assertThatThrownBy(() -> TransferOptions.builder().exclude("mmap", null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void exclude_unknownName() {
        assertThatThrownBy(() -> TransferOptions.builder().exclude("sendfile"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("exclude: sendfile (expected one of: ")
                .hasMessageContaining("transferTo, transferFrom, mmap, buffered");
    }

    @Test
    void exclude_failingCallExcludesNothing() {
        TransferOptions.Builder b = TransferOptions.builder();

        assertThatThrownBy(() -> b.exclude("mmap", "nope")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.exclude("mmap", null)).isInstanceOf(NullPointerException.class);

        assertThat(b.build().excluded()).isEmpty();
    }

    @Test
    void exclude_addsUpInOrder() {
        TransferOptions o = TransferOptions.builder()
                .exclude("mmap")
                .exclude("transferTo", "mmap")
                .exclude()
                .build();

        assertThat(o.excluded()).containsExactly("mmap", "transferTo");
    }

    @ParameterizedTest
    @ValueSource(strings = {"transferTo", "transferFrom", "mmap", "buffered"})
    void strategy_forcedAndExcludedAtOnce(String name) {
        assertThatThrownBy(() ->
                        TransferOptions.builder().strategy(name).exclude(name).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strategy: " + name + " (expected: a strategy that is not excluded)");
        assertThatThrownBy(() ->
                        TransferOptions.builder().exclude(name).strategy(name).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("strategy: " + name + " ");
    }

    @Test
    void strategy_nullMeansAutomatic() {
        TransferOptions o = TransferOptions.builder()
                .strategy("mmap")
                .strategy(null)
                .exclude("mmap")
                .build();

        assertThat(o.strategy()).isEmpty();
        assertThat(o.excluded()).containsExactly("mmap");
    }

    @Test
    void strategy_unknownName() {
        assertThatThrownBy(() -> TransferOptions.builder().strategy("vmsplice"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("strategy: vmsplice (expected one of: ");
    }

    @Test
    void toBuilder_roundTrip() {
        TransferOptions original = TransferOptions.builder()
                .strategy("mmap")
                .exclude("transferTo", "buffered")
                .bufferSize(12345)
                .mappedWindow(8 * 1024 * 1024)
                .stallTimeout(Duration.ofMillis(1500))
                .listener(LISTENER)
                .rateLimit(1_000_000)
                .build();

        TransferOptions copy = original.toBuilder().build();

        assertThat(copy).isNotSameAs(original);
        assertThat(copy.strategy()).contains("mmap");
        assertThat(copy.excluded()).containsExactly("transferTo", "buffered");
        assertThat(copy.bufferSize()).isEqualTo(12345);
        assertThat(copy.mappedWindow()).isEqualTo(8 * 1024 * 1024);
        assertThat(copy.stallTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(copy.listener()).isSameAs(LISTENER);
        assertThat(copy.rateLimit()).isEqualTo(1_000_000);
        assertThat(copy.toString()).isEqualTo(original.toString());
    }

    @Test
    void toBuilder_changesDoNotLeakBack() {
        TransferOptions original =
                TransferOptions.builder().exclude("transferTo").bufferSize(4096).build();

        TransferOptions changed = original.toBuilder()
                .exclude("mmap")
                .bufferSize(8192)
                .strategy("buffered")
                .build();

        assertThat(original.excluded()).containsExactly("transferTo");
        assertThat(original.bufferSize()).isEqualTo(4096);
        assertThat(original.strategy()).isEmpty();
        assertThat(changed.excluded()).containsExactly("transferTo", "mmap");
        assertThat(changed.bufferSize()).isEqualTo(8192);
        assertThat(changed.strategy()).contains("buffered");
    }

    @Test
    void excluded_isImmutableAndDetachedFromBuilder() {
        TransferOptions.Builder b = TransferOptions.builder().exclude("mmap");
        TransferOptions o = b.build();

        assertThatThrownBy(() -> o.excluded().add("buffered")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.excluded().clear()).isInstanceOf(UnsupportedOperationException.class);
        b.exclude("transferTo");
        assertThat(o.excluded()).containsExactly("mmap");
        assertThat(b.build().excluded()).containsExactly("mmap", "transferTo");
    }

    @Test
    void toString_showsEverySetting() {
        TransferOptions o = TransferOptions.builder()
                .strategy("mmap")
                .exclude("transferTo")
                .bufferSize(4096)
                .mappedWindow(1 << 20)
                .stallTimeout(Duration.ofSeconds(5))
                .rateLimit(777)
                .listener(LISTENER)
                .build();

        assertThat(o.toString())
                .contains("mmap", "transferTo", "4096", Integer.toString(1 << 20), "PT5S", "777", "test listener");
        assertThat(TransferOptions.defaults().toString()).contains("auto", "none");
    }
}
