import type { Socket } from "node:net";
import type { IngestPipeline } from "./pipeline.ts";

/**
 * Back-pressure through TCP itself: while the pipeline's write buffer is full, stop reading
 * the socket; the sender's own buffers then fill and it slows down. Reading resumes once
 * the writer has caught up. A no-op when not overloaded or already held.
 */
export function holdWhileOverloaded(pipeline: IngestPipeline, socket: Socket, held: { on: boolean }): void {
  if (!pipeline.overloaded || held.on) return;
  held.on = true;
  socket.pause();
  void pipeline.whenDrained().then(() => {
    held.on = false;
    if (!socket.destroyed) socket.resume();
  });
}
