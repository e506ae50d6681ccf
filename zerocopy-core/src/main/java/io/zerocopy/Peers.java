package io.zerocopy;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.channels.Channel;
import java.nio.channels.SocketChannel;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Facts about the two ends for choosing a path: whether a socket's peer is on this host (a loopback
 * address, or an address of one of this host's interfaces), where the receiver's copy runs on the
 * same CPUs as the sender's; and whether the caller is a virtual thread, on which the JDK runs a
 * blocking socket non-blocking underneath, so that {@code transferTo} returns 0 when it is full.
 */
final class Peers {

    /** How long the list of this host's addresses is trusted before it is read again: interfaces come and go. */
    private static final long ADDRESSES_TTL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private static volatile Set<InetAddress> hostAddresses = Set.of();
    private static volatile long addressesReadAt = System.nanoTime() - ADDRESSES_TTL_NANOS;

    private Peers() {
    }

    /** Whether {@code channel} is a socket connected to a peer on this host. */
    static boolean onThisHost(Channel channel) {
        if (!(channel instanceof SocketChannel)) {
            return false;
        }
        try {
            return onThisHost(((SocketChannel) channel).getRemoteAddress());
        } catch (IOException e) {
            return false; // closed: the transfer fails on its first write, whatever the path
        }
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
        return address.isLoopbackAddress() || address.isAnyLocalAddress() || hostAddresses().contains(address);
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

    /** Whether the calling thread is a virtual thread (Java 21 and later). */
    static boolean callerIsVirtual() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable t) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // before Java 21 every thread is a platform thread
        }
    }
}
