package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Range header values against a file of 1000 bytes: a slice, the whole file, or unsatisfiable. */
class ByteRangeTest {

    @ParameterizedTest(name = "{0} -> {1}..{2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "bytes=0-99        | 0   | 99",
                "bytes=100-        | 100 | 999",
                "bytes=-100        | 900 | 999",
                "bytes=-5000       | 0   | 999",
                "bytes=990-5000    | 990 | 999",
                "bytes=999-999     | 999 | 999",
                // a number too big for a long is past any end: to the end, or the whole file as a suffix
                "bytes=990-99999999999999999999  | 990 | 999",
                "bytes=-99999999999999999999     | 0   | 999",
                "bytes=0000000000000000000001-0000000000000000000002 | 1 | 2",
                "BYTES=1-2         | 1   | 2",
                "bytes=1-2,        | 1   | 2",
                "'bytes=, 1-2'     | 1   | 2",
                // whole file: -1..-1
                "bytes=0-1,3-4     | -1  | -1",
                "bytes=5-4         | -1  | -1",
                "bytes=a-b         | -1  | -1",
                "bytes=-           | -1  | -1",
                "bytes=1-2-3       | -1  | -1",
                "bytes=+1-2        | -1  | -1",
                "bytes=            | -1  | -1",
                "items=0-1         | -1  | -1",
                "bytes 0-1         | -1  | -1",
                // unsatisfiable: -2..-2
                "bytes=1000-       | -2  | -2",
                "bytes=1000-2000   | -2  | -2",
                "bytes=-0          | -2  | -2",
                "bytes=99999999999999999999-  | -2 | -2",
                "bytes=99999999999999999999-99999999999999999999 | -2 | -2",
            })
    void parse(String header, long first, long last) {
        assertThat(ByteRange.parse(header, 1000)).isEqualTo(new ByteRange(first, last));
    }

    @ParameterizedTest
    @CsvSource({"bytes=0-", "bytes=0-0", "bytes=-0"})
    void parse_emptyFile_unsatisfiable(String header) {
        assertThat(ByteRange.parse(header, 0)).isSameAs(ByteRange.UNSATISFIABLE);
    }

    /**
     * RFC 9110 14.1.2: a suffix of non-zero length is satisfiable whatever the size, and a file
     * shorter than it is sent whole: for an empty file, a 200 with no body.
     */
    @ParameterizedTest
    @CsvSource({"bytes=-1", "bytes=-5", "bytes=-999999999999999999"})
    void parse_emptyFile_suffix_wholeFile(String header) {
        assertThat(ByteRange.parse(header, 0)).isSameAs(ByteRange.WHOLE);
    }
}
