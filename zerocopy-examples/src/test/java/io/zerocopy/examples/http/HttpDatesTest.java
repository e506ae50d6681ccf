package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The three date forms of RFC 9110 5.6.7, all for 1994-11-06 08:49:37 UTC. */
class HttpDatesTest {
    private static final long EXAMPLE = 784111777L;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Sun, 06 Nov 1994 08:49:37 GMT",
                "Sunday, 06-Nov-94 08:49:37 GMT",
                "Sun Nov  6 08:49:37 1994",
                " Sun, 06 Nov 1994 08:49:37 GMT "
            })
    void parse_everyForm(String text) {
        assertThat(HttpDates.parse(text)).isEqualTo(EXAMPLE);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "yesterday",
                "Sun, 6 Nov 1994 08:49:37 GMT",
                "Sun, 06 Nov 1994 08:49:37 PST",
                "Sun, 06 Nov 1994 25:49:37 GMT",
                "1994-11-06T08:49:37Z"
            })
    void parse_notADate(String text) {
        assertThat(HttpDates.parse(text)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void format_imfFixdate_roundTrips() {
        assertThat(HttpDates.format(EXAMPLE)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(HttpDates.format(0)).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
        assertThat(HttpDates.parse(HttpDates.now()))
                .isBetween(System.currentTimeMillis() / 1000 - 2, System.currentTimeMillis() / 1000 + 2);
    }
}
