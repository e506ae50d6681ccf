package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The planner's validators: when an If-Range date holds. */
class ResponsePlannerTest {

    private static final String ETAG = "\"1-2-3\"";

    /** A file modified at 1 700 000 000.250 s; its Last-Modified date is the whole second. */
    private static final long MODIFIED = 1_700_000_000_250L;

    private static final String LAST_MODIFIED = HttpDates.format(1_700_000_000L);

    @Test
    void ifRange_lastModifiedDate_holdsOnceTheFileIsASecondOld() {
        assertThat(ResponsePlanner.ifRangeHolds(LAST_MODIFIED, ETAG, MODIFIED, MODIFIED + 1000))
                .isTrue();
        assertThat(ResponsePlanner.ifRangeHolds(LAST_MODIFIED, ETAG, MODIFIED, MODIFIED + 86_400_000))
                .isTrue();
    }

    /**
     * RFC 9110 13.1.5 and 8.8.2.2: a date is a strong validator only if the file changed at least a
     * second before; a change later in the same second keeps the date, so a client's date from
     * before it would get a range of the new content.
     */
    @Test
    void ifRange_lastModifiedDate_ofAFileChangedWithinTheLastSecond_wholeFile() {
        assertThat(ResponsePlanner.ifRangeHolds(LAST_MODIFIED, ETAG, MODIFIED, MODIFIED + 999))
                .isFalse();
        assertThat(ResponsePlanner.ifRangeHolds(LAST_MODIFIED, ETAG, MODIFIED, MODIFIED))
                .isFalse();
    }

    @Test
    void ifRange_otherDateOrWeakOrOtherTag_wholeFile_strongTag_range() {
        long now = MODIFIED + 5000;
        assertThat(ResponsePlanner.ifRangeHolds(HttpDates.format(1_699_999_999L), ETAG, MODIFIED, now))
                .isFalse();
        assertThat(ResponsePlanner.ifRangeHolds("W/" + ETAG, ETAG, MODIFIED, now))
                .isFalse();
        assertThat(ResponsePlanner.ifRangeHolds("\"other\"", ETAG, MODIFIED, now))
                .isFalse();
        assertThat(ResponsePlanner.ifRangeHolds(ETAG, ETAG, MODIFIED, MODIFIED))
                .as("a strong ETag holds at once")
                .isTrue();
        assertThat(ResponsePlanner.ifRangeHolds(null, ETAG, MODIFIED, MODIFIED)).isTrue();
    }
}
