package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The planner's validators: when an If-Range date holds, and a modification time in the future. */
class ResponsePlannerTest {

    @TempDir
    Path dir;

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

    /**
     * RFC 9110 8.8.2.1: a modification time later than the Date it goes with (a file copied from a
     * host whose clock is ahead, say) is sent, and compared with If-Modified-Since, as the Date: an
     * If-Modified-Since a second before the file's time is not before its Last-Modified. The ETag
     * still says exactly which version it is.
     */
    @Test
    void modifiedInTheFuture_lastModifiedIsTheDate_etagUnchanged() throws Exception {
        Path file = Files.writeString(dir.resolve("future.txt"), "future\n");
        long future = System.currentTimeMillis() / 1000 + 3600;
        Files.setLastModifiedTime(file, FileTime.fromMillis(future * 1000));
        String etag = ResponsePlanner.etag(Files.readAttributes(file, BasicFileAttributes.class), Files.size(file));
        ResponsePlanner planner = new ResponsePlanner(new TargetResolver(dir, false));

        String fields = head(planner, get());
        long date = HttpDates.parse(field(fields, "Date"));
        long lastModified = HttpDates.parse(field(fields, "Last-Modified"));
        assertThat(lastModified).as(fields).isLessThanOrEqualTo(date);
        assertThat(field(fields, "ETag")).isEqualTo(etag);

        Request since = get();
        since.add("if-modified-since", HttpDates.format(future - 1));
        assertThat(head(planner, since)).startsWith("HTTP/1.1 304 ");
    }

    private static Request get() {
        Request request = new Request("GET", "/future.txt", 1);
        request.add("host", "h");
        return request;
    }

    private static String head(ResponsePlanner planner, Request request) {
        try (Response response = planner.plan(request, false)) {
            return StandardCharsets.ISO_8859_1.decode(response.head.duplicate()).toString();
        }
    }

    private static String field(String head, String name) {
        Matcher m = Pattern.compile("\r\n" + name + ": ([^\r]*)\r\n").matcher(head);
        assertThat(m.find()).as("%s in %s", name, head).isTrue();
        return m.group(1);
    }
}
