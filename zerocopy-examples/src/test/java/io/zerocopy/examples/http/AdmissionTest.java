package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdmissionTest {

    @Test
    void admit_servesUpToTheLimit_thenRefuses_thenDrops() {
        Admission admission = new Admission(2);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        for (int i = 0; i < Admission.MAX_REFUSING; i++) {
            assertThat(admission.admit()).as("refusal %d", i).isEqualTo(Admission.Verdict.REFUSE);
        }
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.DROP);
        assertThat(admission.admit()).as("a drop is not counted").isEqualTo(Admission.Verdict.DROP);
    }

    @Test
    void release_freesTheKindOfPlaceItWasGiven() {
        Admission admission = new Admission(1);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        for (int i = 0; i < Admission.MAX_REFUSING; i++) {
            admission.admit();
        }
        admission.release(true);
        assertThat(admission.admit()).as("a refusal's place is free again").isEqualTo(Admission.Verdict.REFUSE);
        admission.release(false);
        assertThat(admission.admit()).as("a served place is free again").isEqualTo(Admission.Verdict.SERVE);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.DROP);
    }

    @Test
    void allowedBy_leavesTheReserveAndTheRefusals_thenFourPerConnection() {
        // 256 - 20 open at start - 32 margin - 64 refusals = 140 spare: 35 connections of 4
        assertThat(Admission.allowedBy(256, 20)).isEqualTo(35);
        assertThat(Admission.allowedBy(256, 23))
                .as("a partial connection's worth is not one")
                .isEqualTo(34);
        assertThat(Admission.allowedBy(1024, 20)).isEqualTo((1024 - 20 - 32 - 64) / 4);
        assertThat(Admission.allowedBy(64, 40))
                .as("at least one, however small the limit")
                .isEqualTo(1);
        assertThat(Admission.allowedBy(Long.MAX_VALUE, 20)).as("unlimited").isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void openFileCache_aQuarterOfTheSpareAtMost_andReservedBeforeConnections() {
        Admission.DescriptorLimit small = new Admission.DescriptorLimit(256, 20);
        // 140 spare: the cache keeps at most 35, the connections get (140 - 35) / 4 = 26
        assertThat(Admission.cacheWithin(1000, small)).isEqualTo(35);
        assertThat(Admission.cacheWithin(10, small)).isEqualTo(10);
        assertThat(Admission.cacheWithin(0, small)).as("off stays off").isZero();
        assertThat(Admission.cacheWithin(1000, null)).as("no limit known").isEqualTo(1000);
        assertThat(Admission.cacheWithin(1000, new Admission.DescriptorLimit(64, 40)))
                .as("no room: no cache")
                .isZero();
        assertThat(Admission.allowedBy(256, 20, 35)).isEqualTo(26);
        Admission admission = new Admission(1024, small, 35, () -> {});
        assertThat(admission.maxConnections()).isEqualTo(26);
        assertThat(admission.cachedFiles()).isEqualTo(35);
        assertThat(admission.warning()).contains("35 kept by the open file cache");
    }

    @Test
    void maxConnections_isTheSmallerOfTheRequestAndTheLimit() {
        Admission.DescriptorLimit small = new Admission.DescriptorLimit(256, 20);
        assertThat(new Admission(1024, small, () -> {}).maxConnections()).isEqualTo(35);
        assertThat(new Admission(10, small, () -> {}).maxConnections()).isEqualTo(10);
        assertThat(new Admission(1024, null, () -> {}).maxConnections())
                .as("no limit known")
                .isEqualTo(1024);
    }

    @Test
    void warning_onlyWhenTheLimitCannotServeTheRequest_andNamesTheNumbers() {
        Admission.DescriptorLimit small = new Admission.DescriptorLimit(256, 20);
        assertThat(new Admission(1024, small, () -> {}).warning())
                .contains("--max-connections 1024")
                .contains("256 descriptors")
                .contains("20 open at start")
                .contains("at most 35 connections")
                .contains("ulimit -n");
        assertThat(new Admission(35, small, () -> {}).warning()).isNull();
        assertThat(new Admission(1024, null, () -> {}).warning()).isNull();
    }

    @Test
    void full_whenTheLimitBinds_holdsTheAcceptorBack_andAReleaseFreesIt() {
        AtomicInteger freed = new AtomicInteger();
        Admission admission = new Admission(1024, new Admission.DescriptorLimit(256, 20), freed::incrementAndGet);
        for (int i = 0; i < 35; i++) {
            assertThat(admission.full()).as("before connection %d", i).isFalse();
            assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        }
        assertThat(admission.full()).as("as many as the limit serves").isTrue();
        assertThat(freed).hasValue(0);

        admission.release(false);

        assertThat(freed).as("the acceptor is told").hasValue(1);
        assertThat(admission.full()).isFalse();
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        admission.release(false);
        admission.release(false);
        assertThat(freed).as("told only when a place frees at the limit").hasValue(2);
    }

    @Test
    void full_neverWhenTheOperatorsLimitBinds_thoseAreRefused() {
        AtomicInteger freed = new AtomicInteger();
        Admission admission = new Admission(2, new Admission.DescriptorLimit(256, 20), freed::incrementAndGet);
        admission.admit();
        admission.admit();
        assertThat(admission.full()).isFalse();
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.REFUSE);
        admission.release(false);
        assertThat(freed).hasValue(0);
    }

    @Test
    void descriptorLimit_fromProc_agreesWithTheManagementBean() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/limits")), "Linux's /proc");
        Admission.DescriptorLimit bean = Admission.DescriptorLimit.ofThisProcess();
        Admission.DescriptorLimit proc =
                Admission.DescriptorLimit.fromProc(Path.of("/proc/self/limits"), Path.of("/proc/self/fd"));

        assertThat(proc).isNotNull();
        assertThat(proc.max()).isEqualTo(bean.max());
        // other threads of this JVM may open or close a descriptor between the two readings
        assertThat(proc.openAtStart()).isBetween(bean.openAtStart() - 3, bean.openAtStart() + 3);
    }

    @Test
    void descriptorLimit_fromProc_readsTheSoftLimit_unlimitedOrUnreadableIsNone(@TempDir Path dir) throws Exception {
        Path fds = Files.createDirectories(dir.resolve("fd"));
        for (int i = 0; i < 5; i++) {
            Files.createFile(fds.resolve(Integer.toString(i)));
        }
        Path limits = Files.writeString(
                dir.resolve("limits"),
                "Limit                     Soft Limit           Hard Limit           Units     \n"
                        + "Max processes             94339                94339                processes \n"
                        + "Max open files            256                  4096                 files     \n");
        Path unlimited = Files.writeString(
                dir.resolve("unlimited"),
                "Max open files            unlimited            unlimited            files\n");

        assertThat(Admission.DescriptorLimit.fromProc(limits, fds)).isEqualTo(new Admission.DescriptorLimit(256, 4));
        assertThat(Admission.DescriptorLimit.fromProc(unlimited, fds)).isNull();
        assertThat(Admission.DescriptorLimit.fromProc(dir.resolve("missing"), fds))
                .isNull();
        assertThat(Admission.DescriptorLimit.fromProc(limits, dir.resolve("missing")))
                .isNull();
    }
}
