package io.keyline.core.exec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One HTTP request and its whole answer within one deadline: connect, send, headers and body. The
 * JDK client's own {@code timeout} ends at the headers, so a server that sends them at once and then
 * trickles its body would otherwise hold the caller as long as it likes. The body is kept up to a
 * limit; what comes after it is not read.
 */
public final class BoundedExchange {

    private BoundedExchange() {
    }

    /**
     * @param timeout  the whole exchange; after it the request is cancelled (its connection closed)
     * @param maxBytes the most of the body that is kept
     * @throws HttpTimeoutException when the exchange did not complete within {@code timeout}
     */
    public static HttpResponse<byte[]> send(HttpClient http, HttpRequest request, Duration timeout, int maxBytes)
            throws IOException, InterruptedException {
        AtomicReference<LimitedBody> body = new AtomicReference<>();
        CompletableFuture<HttpResponse<byte[]>> f = http.sendAsync(request, info -> {
            LimitedBody b = new LimitedBody(maxBytes);
            body.set(b);
            return b;
        });
        try {
            return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            abort(f, body.get());
            throw new HttpTimeoutException(body.get() == null ? "no answer within the timeout"
                    : "the answer's body did not arrive within the timeout");
        } catch (InterruptedException e) {
            abort(f, body.get());
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause == null ? e : cause);
        }
    }

    private static void abort(CompletableFuture<?> f, LimitedBody body) {
        if (body != null) {
            body.abort();
        }
        f.cancel(true);
    }

    /**
     * Collects at most {@code limit} bytes of a body without holding a thread: the client pushes the bytes;
     * {@link #abort()} cancels the subscription (which closes the connection). Steps, probes and hooks read
     * answers through it.
     */
    static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int limit;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private volatile Flow.Subscription subscription;

        LimitedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (result.isDone()) {
                s.cancel();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            boolean full;
            synchronized (bytes) {
                for (ByteBuffer item : items) {
                    int n = Math.min(item.remaining(), limit - bytes.size());
                    byte[] chunk = new byte[n];
                    item.get(chunk);
                    bytes.write(chunk, 0, n);
                }
                full = bytes.size() >= limit;
            }
            if (full) {
                subscription.cancel();
                complete();
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            complete();
        }

        private void complete() {
            synchronized (bytes) {
                result.complete(bytes.toByteArray());
            }
        }

        void abort() {
            result.completeExceptionally(new HttpTimeoutException("aborted"));
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }
    }
}
