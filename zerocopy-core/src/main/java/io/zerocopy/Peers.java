package io.zerocopy;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The one place that decides where a socket's peer is.
 * A peer is on this host when its address is a loopback address or one of this host's own, which
 * Linux routes through the loopback device, or when the socket is a Unix domain one: either way the
 * receiver's copy runs on the same CPUs as the sender's. Only a loopback connection's segments are
 * loopback-sized.
 */
final class Peers {

    /** Where a transfer's target is, as far as choosing a path and a write size goes. */
    enum Peer {
        /** Not a connected socket, or its peer is on another host. */
        ELSEWHERE(false, false, 0),
        /**
         * A Unix domain socket: on this host, but with no TCP between, {@code sendfile} costs what one
         * read and one write do at 4 KiB and less from 8 KiB (docs/strategies.md), so no file goes by them.
         */
        UNIX_DOMAIN(true, false, 0),
        /** On this host, on a system whose loopback segment size is not known here. */
        THIS_HOST(true, true, 0),
        /** On this host over IPv4 on Linux. */
        THIS_HOST_IPV4(true, true, LOOPBACK_MSS_IPV4),
        /** On this host over IPv6 on Linux. */
        THIS_HOST_IPV6(true, true, LOOPBACK_MSS_IPV6);

        final boolean onThisHost;
        /**
         * Whether a small file goes to it by one read and one write rather than {@code sendfile}
         * ({@link BufferedStrategy#LOCAL_READ_MAX_BYTES}): to a TCP peer on this host.
         */
        final boolean readsSmallFiles;
        /** The connection's MSS when it is known to be a Linux loopback one, else 0. */
        final int segmentSize;

        Peer(boolean onThisHost, boolean readsSmallFiles, int segmentSize) {
            this.onThisHost = onThisHost;
            this.readsSmallFiles = readsSmallFiles;
            this.segmentSize = segmentSize;
        }
    }

    /**
     * The MSS of an IPv4 loopback connection on Linux with {@code lo}'s default MTU of 65,536 and
     * TCP timestamps on: 65,535 (the most an IPv4 packet can hold) less 20 bytes of IP header, 20 of
     * TCP header and 12 of timestamp option; read with {@code getsockopt(TCP_MAXSEG)} here.
     */
    static final int LOOPBACK_MSS_IPV4 = 65_483;

    /** The same for IPv6 loopback: 65,536 less 40 bytes of IPv6 header, 20 of TCP and 12 of timestamps. */
    static final int LOOPBACK_MSS_IPV6 = 65_464;

    /** How long the list of this host's addresses is trusted before it is read again: interfaces come and go. */
    private static final long ADDRESSES_TTL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static volatile Set<InetAddress> hostAddresses = Set.of();
    private static volatile long addressesReadAt = System.nanoTime() - ADDRESSES_TTL_NANOS;

    private Peers() {}

    /** Where {@code channel}'s peer is; {@link Peer#ELSEWHERE} for anything but a connected JDK socket. */
    static Peer of(Channel channel, Platform platform) {
        if (!(channel instanceof SocketChannel)) {
            return Peer.ELSEWHERE;
        }
        try {
            return of(((SocketChannel) channel).getRemoteAddress(), platform);
        } catch (IOException e) {
            return Peer.ELSEWHERE; // closed: the transfer fails on its first write, whatever the path
        }
    }

    /** Where the peer at {@code remote} is (null or an unresolved address: elsewhere). */
    static Peer of(SocketAddress remote, Platform platform) {
        if (remote instanceof UnixDomainSocketAddress) {
            return Peer.UNIX_DOMAIN;
        }
        if (!onThisHost(remote)) {
            return Peer.ELSEWHERE;
        }
        if (platform.os() != Platform.OperatingSystem.LINUX) {
            return Peer.THIS_HOST;
        }
        return ((InetSocketAddress) remote).getAddress() instanceof Inet6Address
                ? Peer.THIS_HOST_IPV6
                : Peer.THIS_HOST_IPV4;
    }

    /** Whether {@code remote} is a loopback address or one of this host's own. */
    static boolean onThisHost(SocketAddress remote) {
        if (!(remote instanceof InetSocketAddress)) {
            return false;
        }
        InetAddress address = ((InetSocketAddress) remote).getAddress();
        if (address == null) {
            return false;
        }
        return address.isLoopbackAddress()
                || address.isAnyLocalAddress()
                || hostAddresses().contains(address);
    }

    private static Set<InetAddress> hostAddresses() {
        long now = System.nanoTime();
        if (now - addressesReadAt < ADDRESSES_TTL_NANOS) {
            return hostAddresses;
        }
        Set<InetAddress> addresses = new HashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                addresses.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (SocketException | RuntimeException e) {
            addresses.clear(); // unknown: every non-loopback peer counts as another host
        }
        hostAddresses = Set.copyOf(addresses);
        addressesReadAt = now;
        return hostAddresses;
    }
}
