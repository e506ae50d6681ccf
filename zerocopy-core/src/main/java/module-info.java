/**
 * zerocopy: moves bytes between files, sockets and streams by the fastest correct path the
 * platform offers. Start at {@link io.zerocopy.Transfers}.
 */
module io.zerocopy {
    requires transitive io.zerocopy.api;
    requires org.slf4j;

    exports io.zerocopy;

    uses io.zerocopy.spi.TransferStrategy;
}
