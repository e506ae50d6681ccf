/**
 * Transfer counts, bytes and durations of zerocopy in a Micrometer {@code MeterRegistry}. Start at
 * {@link io.zerocopy.micrometer.TransferMetrics}.
 */
// micrometer-core is an automatic module (no module-info, only an Automatic-Module-Name); javac
// warns about requiring one transitively, but MeterRegistry and Tag appear in TransferMetrics'
// constructors, so users must read it.
@SuppressWarnings("requires-transitive-automatic")
module io.zerocopy.micrometer {
    requires transitive io.zerocopy;
    requires transitive micrometer.core;

    exports io.zerocopy.micrometer;
}
