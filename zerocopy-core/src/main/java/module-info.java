/**
 * zerocopy: moves bytes between files, sockets and streams by the fastest correct path the
 * platform offers. Start at {@link io.zerocopy.Transfers}.
 */
module io.zerocopy {
    requires transitive io.zerocopy.api;
    requires org.slf4j;
    // sun.misc.Unsafe.invokeCleaner unmaps mapped windows at once on Java 17 to 21; without this
    // the module is not resolved in a modular application and mappings wait for the GC.
    requires jdk.unsupported;
    // Reads -XX:MaxDirectMemorySize for the default direct memory budget; without it in the module
    // graph the budget derives from the heap's maximum, the JDK's own default for that limit.
    requires static java.management;
    // Flight recorder events of transfers (TransferEvent); without the module nothing is recorded.
    requires static jdk.jfr;

    exports io.zerocopy;

    uses io.zerocopy.spi.TransferStrategy;
}
