package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerocopy.Platform.OperatingSystem;
import io.zerocopy.spi.ChannelKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The capability table of {@link Platform}. Every expected value below is written down from the
 * rules in {@code Platform}'s Javadoc, not taken from running the code.
 */
class PlatformTest {

    private static final int[] JDKS = {17, 21, 25};
    private static final String[] KERNELS = {"6.18.44-fc", "5.15.0-1-generic", "4.4.0", "2.6.32", "garbage"};

    /**
     * What {@code FileChannel.transferTo} does from a file to each kind of target. "-" means no
     * kernel path (the JDK copies through user space). A "*" in the JDK or kernel column stands for
     * every value of {@link #JDKS} or {@link #KERNELS}.
     *
     * <p>Linux rules: a socket always gets sendfile(2). A file gets copy_file_range(2) from JDK 20 on
     * kernels 4.5 and later, else sendfile(2) from kernel 2.6.33 (sendfile to a non-socket), else
     * nothing. A pipe gets sendfile(2) before JDK 25 from kernel 2.6.33. An unparseable version is a
     * very old kernel. macOS: sendfile(2) to sockets only. Windows: TransmitFile only with fast file
     * transfer on, which {@code Platform.of} leaves off, so nothing here. Any other OS: no known path.
     * STREAM and OTHER targets never have a kernel path.
     */
    private static final String TABLE = String.join(
            "\n",
            // os       jdk  kernel             FILE                SOCKET       PIPE         STREAM OTHER
            "LINUX      17   6.18.44-fc         sendfile(2)         sendfile(2)  sendfile(2)  -      -",
            "LINUX      21   6.18.44-fc         copy_file_range(2)  sendfile(2)  sendfile(2)  -      -",
            "LINUX      25   6.18.44-fc         copy_file_range(2)  sendfile(2)  -            -      -",
            "LINUX      17   5.15.0-1-generic   sendfile(2)         sendfile(2)  sendfile(2)  -      -",
            "LINUX      21   5.15.0-1-generic   copy_file_range(2)  sendfile(2)  sendfile(2)  -      -",
            "LINUX      25   5.15.0-1-generic   copy_file_range(2)  sendfile(2)  -            -      -",
            "LINUX      17   4.4.0              sendfile(2)         sendfile(2)  sendfile(2)  -      -",
            "LINUX      21   4.4.0              sendfile(2)         sendfile(2)  sendfile(2)  -      -",
            "LINUX      25   4.4.0              sendfile(2)         sendfile(2)  -            -      -",
            "LINUX      17   2.6.32             -                   sendfile(2)  -            -      -",
            "LINUX      21   2.6.32             -                   sendfile(2)  -            -      -",
            "LINUX      25   2.6.32             -                   sendfile(2)  -            -      -",
            "LINUX      17   garbage            -                   sendfile(2)  -            -      -",
            "LINUX      21   garbage            -                   sendfile(2)  -            -      -",
            "LINUX      25   garbage            -                   sendfile(2)  -            -      -",
            "MACOS      *    *                  -                   sendfile(2)  -            -      -",
            "WINDOWS    *    *                  -                   -            -            -      -",
            "OTHER      *    *                  -                   -            -            -      -");

    private static final ChannelKind[] COLUMNS = {
        ChannelKind.FILE, ChannelKind.SOCKET, ChannelKind.PIPE, ChannelKind.OTHER
    };

    static Stream<Arguments> directTransferTable() {
        List<Arguments> cases = new ArrayList<>();
        for (String line : TABLE.split("\n")) {
            String[] cells = line.trim().split("\\s+");
            OperatingSystem os = OperatingSystem.valueOf(cells[0]);
            for (int jdk : JDKS) {
                if (!cells[1].equals("*") && Integer.parseInt(cells[1]) != jdk) {
                    continue;
                }
                for (String kernel : KERNELS) {
                    if (!cells[2].equals("*") && !cells[2].equals(kernel)) {
                        continue;
                    }
                    for (int c = 0; c < COLUMNS.length; c++) {
                        String expected = cells[3 + c];
                        for (boolean nonBlocking : new boolean[] {false, true}) {
                            cases.add(Arguments.of(os, jdk, kernel, COLUMNS[c], nonBlocking, expected));
                        }
                    }
                }
            }
        }
        return cases.stream();
    }

    @Test
    void directTransferTable_coversEveryCombination() {
        long combinations =
                (long) OperatingSystem.values().length * JDKS.length * KERNELS.length * ChannelKind.values().length * 2;
        assertThat(directTransferTable()).hasSize((int) combinations);
        assertThat(directTransferTable()
                        .map(a -> List.of(a.get()).subList(0, 5))
                        .distinct())
                .hasSize((int) combinations);
    }

    @ParameterizedTest(name = "{0} Java {1} kernel {2} -> {3} nonBlocking={4}: {5}")
    @MethodSource("directTransferTable")
    void directTransferPath_followsDocumentedTable(
            OperatingSystem os, int jdk, String kernel, ChannelKind target, boolean nonBlocking, String expected) {
        Platform platform = Platform.of(os, jdk, kernel);

        Optional<String> path = platform.directTransferPath(target, nonBlocking);

        assertThat(path).isEqualTo(expected.equals("-") ? Optional.empty() : Optional.of(expected));
    }

    @ParameterizedTest(name = "kernel \"{0}\" on Linux, Java 21, file to file: {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '\'',
            value = {
                // numeric comparison, not lexicographic
                "4.10.0            | copy_file_range(2)",
                "10.0              | copy_file_range(2)",
                // missing parts count as 0
                "4.5               | copy_file_range(2)",
                "5                 | copy_file_range(2)",
                "3                 | sendfile(2)",
                "2.6               | -",
                // the exact thresholds: 4.5.0 for copy_file_range, 2.6.33 for sendfile to a file
                "4.5.0             | copy_file_range(2)",
                "4.4.302           | sendfile(2)",
                "2.6.33            | sendfile(2)",
                "2.6.32.71         | -",
                "2.10.0            | sendfile(2)",
                // suffixes after the numbers are ignored
                "6.1-rc3           | copy_file_range(2)",
                "4.5.0-rc1         | copy_file_range(2)",
                "2.6.33-rc1        | sendfile(2)",
                "6.8.0-45-generic  | copy_file_range(2)",
                // unparseable: a very old kernel
                "''                | -",
                "garbage           | -",
                "v6.1              | -",
                "' 6.1'            | -",
                "99999999999.1.1   | -",
            })
    void directTransferPath_parsesKernelVersion(String kernel, String expected) {
        Platform platform = Platform.of(OperatingSystem.LINUX, 21, kernel);

        assertThat(platform.directTransferPath(ChannelKind.FILE, false))
                .isEqualTo(expected.equals("-") ? Optional.empty() : Optional.of(expected));
        // sockets do not depend on the kernel version at all
        assertThat(platform.directTransferPath(ChannelKind.SOCKET, false)).contains("sendfile(2)");
    }

    @Test
    void directTransferPath_jdk20IsFirstWithCopyFileRange() {
        assertThat(Platform.of(OperatingSystem.LINUX, 19, "6.1.0").directTransferPath(ChannelKind.FILE, false))
                .contains("sendfile(2)");
        assertThat(Platform.of(OperatingSystem.LINUX, 20, "6.1.0").directTransferPath(ChannelKind.FILE, false))
                .contains("copy_file_range(2)");
    }

    @Test
    void directTransferPath_jdk24IsLastWithPipeSendfile() {
        assertThat(Platform.of(OperatingSystem.LINUX, 24, "6.1.0").directTransferPath(ChannelKind.PIPE, false))
                .contains("sendfile(2)");
        assertThat(Platform.of(OperatingSystem.LINUX, 25, "6.1.0").directTransferPath(ChannelKind.PIPE, false))
                .isEmpty();
        assertThat(Platform.of(OperatingSystem.LINUX, 26, "6.1.0").directTransferPath(ChannelKind.PIPE, false))
                .isEmpty();
    }

    @Test
    void directTransferPath_nullTarget() {
        assertThatThrownBy(() -> Platform.of(OperatingSystem.LINUX, 17, "6.1").directTransferPath(null, false))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("target");
    }

    @Test
    void withFastFileTransfer_windowsTransmitFileOnlyForBlockingSockets() {
        Platform off = Platform.of(OperatingSystem.WINDOWS, 21, "10.0");
        Platform on = Platforms.withFastFileTransfer(off, true);

        assertThat(on.directTransferPath(ChannelKind.SOCKET, false)).contains("TransmitFile");
        assertThat(on.directTransferPath(ChannelKind.SOCKET, true)).isEmpty();
        for (ChannelKind kind : new ChannelKind[] {ChannelKind.FILE, ChannelKind.PIPE, ChannelKind.OTHER}) {
            assertThat(on.directTransferPath(kind, false)).as("%s", kind).isEmpty();
            assertThat(on.directTransferPath(kind, true)).as("%s", kind).isEmpty();
        }
        assertThat(off.directTransferPath(ChannelKind.SOCKET, false)).isEmpty();
        assertThat(Platforms.withFastFileTransfer(on, false).directTransferPath(ChannelKind.SOCKET, false))
                .isEmpty();
    }

    @Test
    void withFastFileTransfer_changesOnlyTheFlag() {
        Platform off = Platform.of(OperatingSystem.WINDOWS, 21, "10.0.19045");
        Platform on = Platforms.withFastFileTransfer(off, true);

        assertThat(off.fastFileTransfer()).isFalse();
        assertThat(on.fastFileTransfer()).isTrue();
        assertThat(on.os()).isEqualTo(OperatingSystem.WINDOWS);
        assertThat(on.javaFeature()).isEqualTo(21);
        assertThat(on.osVersion()).isEqualTo("10.0.19045");
        assertThat(on).isNotEqualTo(off);
        assertThat(Platforms.withFastFileTransfer(on, false)).isEqualTo(off);
    }

    @ParameterizedTest
    @EnumSource(
            value = OperatingSystem.class,
            names = {"LINUX", "MACOS", "OTHER"})
    void withFastFileTransfer_mattersOnlyOnWindows(OperatingSystem os) {
        Platform off = Platform.of(os, 17, "6.1.0");
        Platform on = Platforms.withFastFileTransfer(off, true);

        for (ChannelKind kind : ChannelKind.values()) {
            for (boolean nonBlocking : new boolean[] {false, true}) {
                assertThat(on.directTransferPath(kind, nonBlocking))
                        .as("%s %s", kind, nonBlocking)
                        .isEqualTo(off.directTransferPath(kind, nonBlocking));
            }
        }
        assertThat(on.maxBytesPerCall()).isEqualTo(off.maxBytesPerCall());
    }

    @Test
    void maxBytesPerCall_perOperatingSystem() {
        assertThat(Platform.LINUX_MAX_BYTES_PER_CALL).isEqualTo(2_147_479_552L);
        assertThat(Platform.of(OperatingSystem.LINUX, 17, "6.1.0").maxBytesPerCall())
                .isEqualTo(0x7ffff000L);
        assertThat(Platform.of(OperatingSystem.LINUX, 25, "garbage").maxBytesPerCall())
                .isEqualTo(0x7ffff000L);
        assertThat(Platform.of(OperatingSystem.WINDOWS, 21, "10.0").maxBytesPerCall())
                .isEqualTo(Integer.MAX_VALUE - 1L);
        assertThat(Platforms.withFastFileTransfer(Platform.of(OperatingSystem.WINDOWS, 21, "10.0"), true)
                        .maxBytesPerCall())
                .isEqualTo(Integer.MAX_VALUE - 1L);
        assertThat(Platform.of(OperatingSystem.MACOS, 21, "14.5").maxBytesPerCall())
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(Platform.of(OperatingSystem.OTHER, 21, "14.0-RELEASE").maxBytesPerCall())
                .isEqualTo(Integer.MAX_VALUE);
    }

    @ParameterizedTest(name = "\"{0}\" is {1}")
    @CsvSource(
            quoteCharacter = '\'',
            value = {
                "Linux, LINUX",
                "linux, LINUX",
                "Mac OS X, MACOS",
                "macOS, MACOS",
                "Darwin, MACOS",
                "Windows 11, WINDOWS",
                "Windows Server 2022, WINDOWS",
                "FreeBSD, OTHER",
                "SunOS, OTHER",
                "'', OTHER",
            })
    void operatingSystem_fromName(String name, OperatingSystem expected) {
        assertThat(OperatingSystem.fromName(name)).isEqualTo(expected);
    }

    @Test
    void current_describesThisJvm() {
        Platform current = Platform.current();

        assertThat(current).isSameAs(Platform.current());
        assertThat(current.javaFeature()).isEqualTo(Runtime.version().feature());
        assertThat(current.osVersion()).isEqualTo(System.getProperty("os.version"));
        assertThat(current.os()).isEqualTo(OperatingSystem.fromName(System.getProperty("os.name")));
    }

    @Test
    void of_rejectsBadArguments() {
        assertThatThrownBy(() -> Platform.of(null, 17, "6.1"))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("os");
        assertThatThrownBy(() -> Platform.of(OperatingSystem.LINUX, 17, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("osVersion");
        assertThatThrownBy(() -> Platform.of(OperatingSystem.LINUX, 16, "6.1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("javaFeature: 16 (expected: >= 17)");
        assertThatThrownBy(() -> Platform.of(OperatingSystem.LINUX, -1, "6.1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("javaFeature: -1 ");
        assertThat(Platform.of(OperatingSystem.LINUX, 17, "6.1").javaFeature()).isEqualTo(17);
    }

    @Test
    void equals_comparesEveryField() {
        Platform a = Platform.of(OperatingSystem.LINUX, 21, "6.1.0");

        assertThat(a).isEqualTo(Platform.of(OperatingSystem.LINUX, 21, "6.1.0"));
        assertThat(a).hasSameHashCodeAs(Platform.of(OperatingSystem.LINUX, 21, "6.1.0"));
        assertThat(a).isEqualTo(a);
        assertThat(a).isNotEqualTo(Platform.of(OperatingSystem.MACOS, 21, "6.1.0"));
        assertThat(a).isNotEqualTo(Platform.of(OperatingSystem.LINUX, 17, "6.1.0"));
        // same parsed kernel, different string: still different platforms
        assertThat(a).isNotEqualTo(Platform.of(OperatingSystem.LINUX, 21, "6.1"));
        assertThat(a).isNotEqualTo(Platforms.withFastFileTransfer(a, true));
        assertThat(a).isNotEqualTo(null);
        assertThat(a).isNotEqualTo("LINUX 6.1.0, Java 21");
    }

    @Test
    void toString_namesOsVersionJavaAndFastFileTransfer() {
        Platform linux = Platform.of(OperatingSystem.LINUX, 21, "6.18.44-fc");
        Platform windows = Platforms.withFastFileTransfer(Platform.of(OperatingSystem.WINDOWS, 25, "10.0"), true);

        assertThat(linux.toString()).contains("LINUX", "6.18.44-fc", "21").doesNotContain("fast file transfer");
        assertThat(windows.toString()).contains("WINDOWS", "10.0", "25", "fast file transfer on");
    }

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(
            value = {"NULL, false", "'', true", "true, true", "TRUE, true", "false, false", "yes, false", "1, false"},
            nullValues = "NULL")
    void fastFileTransferProperty_readAsTheJdkReadsIt(String value, boolean expected) {
        // sun.nio.ch.FileChannelImpl: enabled when the property is empty or parses as true
        assertThat(Platform.fastFileTransferProperty(value)).isEqualTo(expected);
    }
}
