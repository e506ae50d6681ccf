package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A head's bytes are the ASCII of what was appended, numbers in decimal, past its first array too. */
class HeadTest {

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 9, 10, 99, 100, 4096, 999_999_999, 1_000_000_000, 4_294_967_296L, Long.MAX_VALUE})
    void number_isItsDecimal(long n) {
        assertThat(text(new Head().append(n))).isEqualTo(Long.toString(n));
    }

    @Test
    void numbers_matchLongToString_seeded() {
        Random random = new Random(35);
        for (int i = 0; i < 10_000; i++) {
            long n = (random.nextLong() >>> 1) >>> random.nextInt(63);
            assertThat(text(new Head().append("x").append(n).append('.'))).isEqualTo("x" + n + ".");
        }
    }

    @Test
    void grows_pastItsFirstArray_keepingEveryByte() {
        Head head = new Head();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            head.append("Field-").append(i).append(':').append(" value\r\n".getBytes(StandardCharsets.US_ASCII));
            expected.append("Field-").append(i).append(": value\r\n");
        }
        assertThat(text(head)).isEqualTo(expected.toString());
    }

    @Test
    void buffer_isReadyToRead_withExactlyTheBytesAppended() {
        ByteBuffer buffer = new Head().append("HTTP/1.1 200 OK\r\n\r\n").toBuffer();
        assertThat(buffer.position()).isZero();
        assertThat(buffer.remaining()).isEqualTo(19);
    }

    private static String text(Head head) {
        ByteBuffer buffer = head.toBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
