/**
 * The `fetch` a session hands to the SDK. It reads `globalThis.fetch` at call time,
 * so msw intercepts the call however early the client was built, and it returns
 * responses whose body can be cancelled without waiting.
 *
 * Why: msw 2.15 (@mswjs/interceptors 0.41) clones every mocked response for its
 * life-cycle events and never reads the clone; cancelling one branch of a tee only
 * settles once both are cancelled, so `await response.body.cancel()` never settles
 * (mswjs/interceptors#712, #799). The SDK awaits exactly that before every retry
 * of a 408/409/429/5xx, so a recording with retries would hang.
 */
export const sessionFetch: typeof fetch = async (input, init) => {
  const response = await globalThis.fetch(input, init);
  if (!response.body) return response;
  return new Response(cancellableBody(response.body), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

function cancellableBody(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      // Start the cancel, don't wait for it: see above.
      reader.cancel(reason).catch(() => {});
    },
  });
}
